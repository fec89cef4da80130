import { useState, type FormEvent } from 'react'
import {
  updateMatchBodySchema,
  type AdminMatch,
  type UpdateMatchBody,
} from '@tipping/contract/admin'
import { Button } from '../../ui/button.tsx'
import styles from './admin.module.css'
import { FormField, SelectField } from '../../ui/form-field.tsx'
import { FormMessage } from './form-message.tsx'
import {
  apiFieldErrors,
  formText,
  visibleErrors,
  zodFieldErrors,
  type FieldErrors,
} from './form-errors.ts'

const FIELDS = ['startsAt', 'venueId', 'isMarginGame'] as const

/** An ISO instant as the value of a datetime-local input, in the browser's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** Only what changed: a new start (as ISO 8601 with offset) and/or a new venue. */
export function matchChanges(match: AdminMatch, startsAtLocal: string, venueId: number): unknown {
  const body: Record<string, unknown> = {}
  if (startsAtLocal !== toLocalInput(match.startsAt)) {
    const d = new Date(startsAtLocal)
    body.startsAt = Number.isNaN(d.getTime()) ? startsAtLocal : d.toISOString()
  }
  if (venueId !== match.venueId) body.venueId = venueId
  return body
}

interface Props {
  match: AdminMatch
  venues: { id: number; name: string; city: string }[]
  onSave: (body: UpdateMatchBody) => Promise<unknown>
}

/** Start time, venue and margin game of one match, as far as its lifecycle allows. */
export function MatchEditForm({ match, venues, onSave }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState<string | null>(null)

  const send = async (raw: unknown) => {
    setSaved(null)
    const parsed = updateMatchBodySchema.safeParse(raw)
    if (!parsed.success) {
      setErrors(visibleErrors(zodFieldErrors(parsed.error), FIELDS))
      return
    }
    setBusy(true)
    setErrors({})
    try {
      await onSave(parsed.data)
      setSaved(`Match ${match.number} updated.`)
    } catch (err) {
      setErrors(visibleErrors(apiFieldErrors(err), FIELDS))
    } finally {
      setBusy(false)
    }
  }

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const startsAt = formText(data, 'startsAt') || toLocalInput(match.startsAt)
    const venue = Number(data.get('venueId') ?? match.venueId)
    void send(matchChanges(match, startsAt, venue))
  }

  const { editable } = match
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Schedule of match ${match.number}`}
      className={styles.card}
    >
      <h3>Schedule</h3>
      <div className={`${styles.grid} ${styles.gridWide}`}>
        <FormField
          compact
          label="Start (your time)"
          type="datetime-local"
          name="startsAt"
          defaultValue={toLocalInput(match.startsAt)}
          disabled={!editable.startsAt}
          error={errors.startsAt}
        />
        <SelectField
          compact
          label="Venue"
          name="venueId"
          defaultValue={match.venueId}
          disabled={!editable.venue}
          error={errors.venueId}
        >
          {venues.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}, {v.city}
            </option>
          ))}
        </SelectField>
      </div>
      {errors.isMarginGame ? (
        <p className={styles.error} role="alert">
          {errors.isMarginGame}
        </p>
      ) : null}
      <FormMessage error={errors.form} ok={saved} />
      <div className={styles.row}>
        <Button type="submit" disabled={busy || (!editable.startsAt && !editable.venue)}>
          Save schedule
        </Button>
        {match.isMarginGame ? (
          <span className={styles.badge}>Margin game</span>
        ) : (
          <Button
            variant="secondary"
            disabled={busy || !editable.marginGame}
            onClick={() => void send({ isMarginGame: true })}
          >
            Make margin game
          </Button>
        )}
      </div>
    </form>
  )
}
