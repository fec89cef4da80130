import { useId, useReducer, useState, type FormEvent } from 'react'
import { Link, useParams } from 'react-router'
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  CONTACT_NAME_MAX,
  EMAIL_MAX,
} from '@tipping/contract/site-rules'
import { contactBodySchema, type ContactBody } from '@tipping/contract/site'
import { isApiFailure } from '../../lib/api.ts'
import { isSport } from '../../lib/sport.ts'
import { requestIdKeeper } from '../../lib/request-id.ts'
import {
  editedField,
  focusFirstInvalid,
  formErrors,
  type FieldErrors,
} from '../../lib/field-errors.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { Panel } from '../../ui/panel.tsx'
import { useSendContactMutation } from './contact-api.ts'
import { contactPhase, contactReducer, initialContactState } from './contact-state.ts'
import styles from './contact.module.css'

interface Props {
  /** Sends the message (the page passes the API call; tests their own). */
  submit: (body: ContactBody) => Promise<unknown>
}

/** The route's sport, when it is one (the contact page sits outside the sport layouts). */
const useRouteSport = () => {
  const { sport } = useParams()
  return isSport(sport) ? sport : undefined
}

/** Every field's problem at once, with the contract's rules, before anything is sent. */
export const validateContact = (body: ContactBody): FieldErrors =>
  formErrors(contactBodySchema, body, {
    name: 'Enter your name',
    email: 'Enter your email address',
    message: `Write your message (at least ${CONTACT_MESSAGE_MIN} characters)`,
  })

const field = (data: FormData, name: string): string => {
  const v = data.get(name)
  return typeof v === 'string' ? v : ''
}

/** The contact form (spec 2 "Other screens"), at /{sport}/help/contact, for visitors and users. */
export function ContactForm({ submit }: Props) {
  const sport = useRouteSport()
  const [state, dispatch] = useReducer(contactReducer, initialContactState)
  const [message, setMessage] = useState('')
  const [invalid, setInvalid] = useState<FieldErrors>({})
  const messageId = useId()
  const phase = contactPhase(state)
  // Decision 049: a second press after an error does not send support the message twice.
  const [requestIds] = useState(requestIdKeeper)

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const body: ContactBody = {
      name: field(data, 'name'),
      email: field(data, 'email'),
      message,
      ...(sport ? { sport } : {}),
    }
    const errors = validateContact(body)
    setInvalid(errors)
    if (Object.keys(errors).length > 0) return focusFirstInvalid(form, errors)
    dispatch({ type: 'start' })
    try {
      await submit({ ...body, requestId: requestIds.idFor(body) })
      requestIds.forget()
      dispatch({ type: 'success' })
      setMessage('')
    } catch (err) {
      const known = isApiFailure(err)
      dispatch({
        type: 'failure',
        message: known ? err.message : 'Something went wrong, try again',
        param: known ? err.param : null,
      })
    }
  }

  if (phase === 'sent') {
    return (
      <div className={styles.sent} role="status" data-testid="contact-sent">
        <p>
          <strong>Thanks, your message has been sent.</strong> We&apos;ll reply by email.
        </p>
        <Button variant="secondary" onClick={() => dispatch({ type: 'reset' })}>
          Send another message
        </Button>
      </div>
    )
  }
  const fieldError = (name: string) =>
    invalid[name] ?? (state.error?.param === name ? state.error.message : null)
  const messageError = fieldError('message')
  const generalError =
    state.error && !['name', 'email', 'message'].includes(state.error.param ?? '')
      ? state.error.message
      : null
  return (
    <form
      className={styles.form}
      onSubmit={(e) => void onSubmit(e)}
      onChange={(e) => {
        // Editing a field takes its message away (the next submit checks it again).
        const name = editedField(e.target)
        if (name && name in invalid) setInvalid(({ [name]: _gone, ...rest }) => rest)
      }}
      aria-busy={phase === 'sending'}
      noValidate
    >
      <FormField
        label="Your name"
        name="name"
        autoComplete="name"
        required
        maxLength={CONTACT_NAME_MAX}
        error={fieldError('name')}
      />
      <FormField
        label="Your email"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={EMAIL_MAX}
        error={fieldError('email')}
      />
      <div className={styles.field}>
        <label htmlFor={messageId} className={styles.label}>
          Message
        </label>
        <textarea
          id={messageId}
          name="message"
          className={styles.textarea}
          required
          minLength={CONTACT_MESSAGE_MIN}
          maxLength={CONTACT_MESSAGE_MAX}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          aria-invalid={messageError ? true : undefined}
          aria-describedby={`${messageId}-hint${messageError ? ` ${messageId}-error` : ''}`}
        />
        <span id={`${messageId}-hint`} className={styles.hint}>
          {message.length}/{CONTACT_MESSAGE_MAX}
        </span>
        {messageError ? (
          <span id={`${messageId}-error`} className={styles.error} role="alert">
            {messageError}
          </span>
        ) : null}
      </div>
      {generalError ? (
        <p className={styles.error} role="alert">
          {generalError}
        </p>
      ) : null}
      <Button type="submit" disabled={phase === 'sending'} data-testid="contact-submit">
        {phase === 'sending' ? 'Sending…' : 'Send message'}
      </Button>
    </form>
  )
}

export default function ContactPage() {
  const sport = useRouteSport() ?? 'bbl'
  const [send] = useSendContactMutation()
  return (
    <div className={styles.page}>
      <Panel title="Contact us">
        <p className={styles.lead}>
          Questions about your tips, your league or your account? Write to us and we&apos;ll reply
          by email. You may find a quicker answer in <Link to={`/${sport}/help`}>Help</Link>.
        </p>
        <ContactForm submit={(body) => send(body).unwrap()} />
      </Panel>
    </div>
  )
}
