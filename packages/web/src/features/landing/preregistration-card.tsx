import { useState, type KeyboardEvent } from 'react'
import { PREREGISTRATION_NAME_MIN, SEASON_PROMOTION } from '@tipping/contract/constants'
import {
  canPreregister,
  EMAIL_MAX,
  PREREGISTRATION_EMAIL_PATTERN,
  PREREGISTRATION_NAME_MAX,
  PREREGISTRATION_SUCCESS,
} from '@tipping/contract/site-rules'
import { asFailure } from '../../lib/api-failure.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { Season } from '../../ui/season.tsx'
import own from './preregistration-card.module.css'
import { StoreLinks } from './store-links.tsx'
import styles from './site.module.css'

interface Props {
  appStoreUrl: string | null
  playStoreUrl: string | null
  /** The call; injectable for tests. */
  submit: (body: { name: string; email: string }) => Promise<unknown>
  /** The season the card invites people to ('2025-26' unless the page says otherwise). */
  season?: string
  /**
   * The signed-in player's email: they already have what pre-registering asks for (an account
   * that carries over), so the card says so instead of asking for a name and an email again.
   */
  signedInAs?: string
}

type Field = 'name' | 'email'

/**
 * What is wrong with each field, in words, by the same rules that keep the button off (spec 5).
 * The card stays free of the contract's schemas (and zod) to keep the landing page light.
 */
export function preregistrationProblems(
  name: string,
  email: string,
): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {}
  const n = name.trim().length
  if (n < PREREGISTRATION_NAME_MIN)
    problems.name = `Enter your name (at least ${PREREGISTRATION_NAME_MIN} characters)`
  else if (n > PREREGISTRATION_NAME_MAX)
    problems.name = `Name must be at most ${PREREGISTRATION_NAME_MAX} characters`
  const e = email.trim()
  if (e === '') problems.email = 'Enter your email address'
  else if (e.length > EMAIL_MAX || !PREREGISTRATION_EMAIL_PATTERN.test(e))
    problems.email = 'Enter a valid email address, like name@example.com'
  return problems
}

/**
 * Spec 2 pre-registration card and spec 5 rules: the button is disabled while the name is under 2
 * characters, the email fails the basic pattern, or a status message is present. Success reads
 * 'Successfully Pre-registered' on the button; a refusal is said in words under the field it names
 * (or under the button), while the button keeps its label. Editing clears the message.
 */
export function PreregistrationCard({
  appStoreUrl,
  playStoreUrl,
  submit,
  season = SEASON_PROMOTION,
  signedInAs,
}: Props) {
  if (signedInAs !== undefined)
    return (
      <section className={styles.card} aria-labelledby="prereg-title" data-testid="preregistration">
        <h2 id="prereg-title" className={styles.cardTitle}>
          YOU&apos;RE SET FOR THE <Season label={season} /> SEASON
        </h2>
        <p className={styles.cardLead} data-testid="prereg-signed-in">
          You&apos;re signed in as <strong className={own.account}>{signedInAs}</strong>. Your
          account carries over to the <Season label={season} /> season, so there is nothing to
          register: come back when tipping opens and pick up where you left off.
        </p>
        <StoreLinks appStoreUrl={appStoreUrl} playStoreUrl={playStoreUrl} />
      </section>
    )
  return (
    <PreregistrationForm
      appStoreUrl={appStoreUrl}
      playStoreUrl={playStoreUrl}
      submit={submit}
      season={season}
    />
  )
}

/** The card's form, for a visitor. */
function PreregistrationForm({
  appStoreUrl,
  playStoreUrl,
  submit,
  season,
}: Required<Omit<Props, 'signedInAs'>>) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  const [refusal, setRefusal] = useState<{ message: string; field: Field | null } | null>(null)
  // A field's problem shows once the visitor has left it (or tried to send), not while typing.
  const [left, setLeft] = useState<Record<Field, boolean>>({ name: false, email: false })
  const [busy, setBusy] = useState(false)
  const done = message === PREREGISTRATION_SUCCESS
  const problems = preregistrationProblems(name, email)

  const edit = (set: (v: string) => void) => (v: string) => {
    set(v)
    setMessage(null)
    setRefusal(null)
  }
  const onSubmit = async () => {
    if (!canPreregister(name, email, message) || busy) {
      if (!message) setLeft({ name: true, email: true })
      return
    }
    setBusy(true)
    try {
      await submit({ name: name.trim(), email: email.trim() })
      // Spec 5: success is a response without errors.
      setMessage(PREREGISTRATION_SUCCESS)
    } catch (err) {
      const { message: text, param } = asFailure(err, 'Something went wrong, try again')
      setMessage(text)
      setRefusal({ message: text, field: param === 'name' || param === 'email' ? param : null })
    } finally {
      setBusy(false)
    }
  }
  const onEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') void onSubmit()
  }
  const errorOf = (field: Field): string | null =>
    refusal?.field === field ? refusal.message : left[field] ? (problems[field] ?? null) : null
  return (
    <section className={styles.card} aria-labelledby="prereg-title" data-testid="preregistration">
      <h2 id="prereg-title" className={styles.cardTitle}>
        PRE-REGISTER FOR THE <Season label={season} /> SEASON NOW!
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
          maxLength={PREREGISTRATION_NAME_MAX}
          value={name}
          error={errorOf('name')}
          onChange={(e) => edit(setName)(e.target.value)}
          onBlur={() => setLeft((l) => ({ ...l, name: true }))}
          onKeyDown={onEnter}
        />
        <FormField
          label="Email"
          name="preregEmail"
          type="email"
          autoComplete="email"
          maxLength={EMAIL_MAX}
          value={email}
          error={errorOf('email')}
          onChange={(e) => edit(setEmail)(e.target.value)}
          onBlur={() => setLeft((l) => ({ ...l, email: true }))}
          onKeyDown={onEnter}
        />
        <Button
          block
          onClick={() => void onSubmit()}
          disabled={busy || !canPreregister(name, email, message)}
          data-testid="prereg-submit"
        >
          {busy ? 'Registering…' : done ? PREREGISTRATION_SUCCESS : 'Register your interest'}
        </Button>
        {refusal && refusal.field === null ? (
          <p className={`${styles.status} ${own.refusal}`} role="alert">
            {refusal.message}
          </p>
        ) : (
          <p className={styles.status} role="status" aria-live="polite">
            {done ? "You're on the list. Check your inbox for a confirmation." : ''}
          </p>
        )}
      </div>
      <StoreLinks appStoreUrl={appStoreUrl} playStoreUrl={playStoreUrl} />
    </section>
  )
}
