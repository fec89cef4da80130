import { useState, type FormEvent } from 'react'
import type { Sport } from '@tipping/contract/constants'
import { sendEmailsBodySchema, type League } from '@tipping/contract/leagues'
import { asFailure } from '../../lib/api-failure.ts'
import { requestIdKeeper } from '../../lib/request-id.ts'
import { useFlash } from '../../lib/use-flash.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { useMessageMembersMutation } from './leagues-api.ts'
import styles from './leagues.module.css'

type Errors = Partial<Record<'subject' | 'message' | 'form', string>>

/** The commissioner emails every member of the league (spec 7: send_emails). */
export function MessageMembers({ sport, league }: { sport: Sport; league: League }) {
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  const [flash, showFlash] = useFlash()
  const [messageMembers] = useMessageMembersMutation()
  // Decision 049: a second press after an error does not send the members the message twice.
  const [requestIds] = useState(requestIdKeeper)

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const parsed = sendEmailsBodySchema.safeParse({
      leagueId: league.id,
      subject: data.get('subject'),
      message: data.get('message'),
    })
    if (!parsed.success) {
      const next: Errors = {}
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form') as keyof Errors
        next[key] ??= issue.message
      }
      setErrors(next)
      return
    }
    setBusy(true)
    setErrors({})
    try {
      const { recipients } = await messageMembers({
        sport,
        id: league.id,
        subject: parsed.data.subject,
        message: parsed.data.message,
        requestId: requestIds.idFor(parsed.data),
      }).unwrap()
      requestIds.forget()
      form.reset()
      showFlash(`Message sent to ${recipients} ${recipients === 1 ? 'member' : 'members'}.`)
    } catch (err) {
      const failure = asFailure(err, 'The message was not sent')
      if (failure.param === 'subject' || failure.param === 'message')
        setErrors({ [failure.param]: failure.message })
      else setErrors({ form: failure.message })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <h2>Message your members</h2>
      {errors.form ? (
        <p className={styles.formError} role="alert">
          {errors.form}
        </p>
      ) : null}
      {flash ? (
        <p className={styles.success} role="status">
          {flash}
        </p>
      ) : null}
      <FormField label="Subject" name="subject" error={errors.subject} />
      <div className={styles.fieldset}>
        <label className={styles.label} htmlFor="message-body">
          Message
        </label>
        <textarea
          id="message-body"
          name="message"
          className={styles.textarea}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'message-body-error' : undefined}
        />
        {errors.message ? (
          <span id="message-body-error" className={styles.fieldError} role="alert">
            {errors.message}
          </span>
        ) : null}
      </div>
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? 'Sending…' : 'Send to all members'}
      </Button>
    </form>
  )
}
