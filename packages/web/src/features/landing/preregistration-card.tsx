import { useState, type KeyboardEvent } from 'react'
import { SEASON_PROMOTION } from '@tipping/contract/constants'
import { canPreregister, PREREGISTRATION_SUCCESS } from '@tipping/contract/site-rules'
import { ApiCallError } from '../../lib/api-client.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { StoreLinks } from './store-links.tsx'
import styles from './site.module.css'

interface Props {
  appStoreUrl: string | null
  playStoreUrl: string | null
  /** The call; injectable for tests. */
  submit: (body: { name: string; email: string }) => Promise<unknown>
}

/**
 * Spec 2 pre-registration card and spec 5 rules: the button is disabled while the name is under 2
 * characters, the email fails the basic pattern, or a status message is present; the button then
 * reads that message ('Successfully Pre-registered', or the error). Editing clears the message.
 */
export function PreregistrationCard({ appStoreUrl, playStoreUrl, submit }: Props) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const done = message === PREREGISTRATION_SUCCESS

  const edit = (set: (v: string) => void) => (v: string) => {
    set(v)
    setMessage(null)
  }
  const onSubmit = async () => {
    if (!canPreregister(name, email, message) || busy) return
    setBusy(true)
    try {
      await submit({ name: name.trim(), email: email.trim() })
      // Spec 5: success is a response without errors.
      setMessage(PREREGISTRATION_SUCCESS)
    } catch (err) {
      setMessage(err instanceof ApiCallError ? err.message : 'Something went wrong, try again')
    } finally {
      setBusy(false)
    }
  }
  const onEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') void onSubmit()
  }
  const title = `PRE-REGISTER FOR THE ${SEASON_PROMOTION} SEASON NOW!`
  return (
    <section className={styles.card} aria-labelledby="prereg-title" data-testid="preregistration">
      <h2 id="prereg-title" className={styles.cardTitle}>
        {title}
      </h2>
      <p className={styles.cardLead}>
        Leave your name and email and we&apos;ll let you know when tipping opens.
      </p>
      {/*
        Not a <form>: the landing page's sign-in modals hold the page's only forms, so their
        fields and submit buttons stay unambiguous. Enter in a field sends, as in a form.
      */}
      <div className={styles.preregForm} role="group" aria-labelledby="prereg-title">
        <FormField
          label="Name"
          name="preregName"
          autoComplete="name"
          value={name}
          onChange={(e) => edit(setName)(e.target.value)}
          onKeyDown={onEnter}
        />
        <FormField
          label="Email"
          name="preregEmail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => edit(setEmail)(e.target.value)}
          onKeyDown={onEnter}
        />
        <Button
          block
          onClick={() => void onSubmit()}
          disabled={busy || !canPreregister(name, email, message)}
          data-testid="prereg-submit"
        >
          {busy ? 'Registering…' : (message ?? 'Register your interest')}
        </Button>
        <p className={styles.status} role="status" aria-live="polite">
          {done ? "You're on the list. Check your inbox for a confirmation." : ''}
        </p>
      </div>
      <StoreLinks appStoreUrl={appStoreUrl} playStoreUrl={playStoreUrl} />
    </section>
  )
}
