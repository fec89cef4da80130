import { useState, type FormEvent } from 'react'
import type { Sport } from '@tipping/contract/constants'
import { inviteBodySchema, type League } from '@tipping/contract/leagues'
import { useFlash } from '../../lib/use-flash.ts'
import { Button } from '../../ui/button.tsx'
import { failureMessage } from '../../lib/api.ts'
import { requestIdKeeper } from '../../lib/request-id.ts'
import { useInviteByEmailMutation } from './leagues-api.ts'
import styles from './leagues.module.css'

/** Addresses as people paste them: separated by commas, semicolons, spaces or new lines. */
export const splitAddresses = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean)

/** The commissioner emails the join link to up to 50 people at once. */
export function InviteByEmail({ sport, league }: { sport: Sport; league: League }) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [inviteByEmail] = useInviteByEmailMutation()
  const [flash, showFlash] = useFlash()
  // Decision 049: a second press after an error does not invite the same friends twice.
  const [requestIds] = useState(requestIdKeeper)

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const parsed = inviteBodySchema.safeParse({ emails: splitAddresses(text) })
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const index = issue.path[1]
      setError(
        typeof index === 'number'
          ? `${splitAddresses(text)[index]}: ${issue.message}`
          : issue.message,
      )
      return
    }
    setBusy(true)
    setError(null)
    try {
      const { invited } = await inviteByEmail({
        sport,
        id: league.id,
        emails: parsed.data.emails,
        requestId: requestIds.idFor({ league: league.id, emails: parsed.data.emails }),
      }).unwrap()
      requestIds.forget()
      setText('')
      showFlash(
        `Invitation${invited === 1 ? '' : 's'} sent to ${invited} ${invited === 1 ? 'address' : 'addresses'}.`,
      )
    } catch (err) {
      setError(failureMessage(err, 'The invitations were not sent'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <label className={styles.label} htmlFor="invite-emails">
        Or invite by email
      </label>
      <textarea
        id="invite-emails"
        className={styles.textarea}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="friend@example.com, another@example.com"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'invite-emails-error' : undefined}
      />
      {error ? (
        <span id="invite-emails-error" className={styles.fieldError} role="alert">
          {error}
        </span>
      ) : null}
      {flash ? (
        <p className={styles.success} role="status">
          {flash}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" disabled={busy || !text.trim()}>
        {busy ? 'Sending…' : 'Send invitations'}
      </Button>
    </form>
  )
}
