import { useState, type FormEvent } from 'react'
import type { AdminMatch } from '@tipping/contract/admin'
import { matchResultBodySchema, type MatchResultBody } from '@tipping/contract/results'
import { Button } from '../../ui/button.tsx'
import styles from './admin.module.css'
import { Field, FormMessage, SelectField } from './fields.tsx'
import { apiFieldErrors, visibleErrors, zodFieldErrors, type FieldErrors } from './form-errors.ts'

const FIELDS = [
  'outcome',
  'winnerSquadId',
  'home.runs',
  'home.wickets',
  'home.overs',
  'away.runs',
  'away.wickets',
  'away.overs',
  'sixes',
  'method',
] as const

const num = (v: FormDataEntryValue | null) => {
  const s = typeof v === 'string' ? v.trim() : ''
  return s === '' ? null : Number(s)
}
const text = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v.trim() : '')

/** Reads the form into the result body; an innings left blank is none (a washout). */
export function readResultForm(data: FormData): unknown {
  const side = (prefix: 'home' | 'away') => {
    const runs = num(data.get(`${prefix}.runs`))
    const wickets = num(data.get(`${prefix}.wickets`))
    const overs = text(data.get(`${prefix}.overs`))
    if (runs === null && wickets === null && overs === '') return null
    return { runs, wickets, overs }
  }
  const winner = text(data.get('winnerSquadId'))
  const method = text(data.get('method'))
  return {
    outcome: data.get('outcome'),
    winnerSquadId: winner === '' ? null : Number(winner),
    home: side('home'),
    away: side('away'),
    sixes: num(data.get('sixes')),
    method: method === '' ? null : method,
  }
}

interface Props {
  match: AdminMatch
  homeName: string
  awayName: string
  onSave: (body: MatchResultBody) => Promise<unknown>
}

/** Enter or correct a match result; checked by the contract's schema, then by the server. */
export function ResultForm({ match, homeName, awayName, onSave }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState<string | null>(null)
  const r = match.result
  const prefix = `m${match.id}`

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setSaved(null)
    const parsed = matchResultBodySchema.safeParse(readResultForm(new FormData(e.currentTarget)))
    if (!parsed.success) {
      setErrors(visibleErrors(zodFieldErrors(parsed.error), FIELDS))
      return
    }
    setBusy(true)
    setErrors({})
    try {
      await onSave(parsed.data)
      setSaved(`Result saved for match ${match.number}; scores and ladders updated.`)
    } catch (err) {
      setErrors(visibleErrors(apiFieldErrors(err), FIELDS))
    } finally {
      setBusy(false)
    }
  }

  const innings = (side: 'home' | 'away', name: string) => {
    const given = r?.[side]
    return (
      <fieldset className={styles.fieldset}>
        <legend>{name} innings</legend>
        <div className={styles.grid}>
          <Field
            label="Runs"
            name={`${side}.runs`}
            inputMode="numeric"
            defaultValue={given?.runs ?? ''}
            error={errors[`${side}.runs`]}
          />
          <Field
            label="Wickets"
            name={`${side}.wickets`}
            inputMode="numeric"
            defaultValue={given?.wickets ?? ''}
            error={errors[`${side}.wickets`]}
          />
          <Field
            label="Overs"
            name={`${side}.overs`}
            inputMode="decimal"
            placeholder="20"
            defaultValue={given?.overs ?? ''}
            error={errors[`${side}.overs`]}
          />
        </div>
      </fieldset>
    )
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Result of match ${match.number}`}
      className={styles.card}
      data-testid={`${prefix}-result`}
    >
      <h3>{r ? 'Correct the result' : 'Enter the result'}</h3>
      <div className={styles.grid}>
        <SelectField
          label="Outcome"
          name="outcome"
          defaultValue={r?.outcome ?? 'win'}
          error={errors.outcome}
        >
          <option value="win">Win</option>
          <option value="tie">Tie</option>
          <option value="no_result">No result</option>
        </SelectField>
        <SelectField
          label="Winner"
          name="winnerSquadId"
          defaultValue={r?.winnerSquadId ?? ''}
          error={errors.winnerSquadId}
        >
          <option value="">None</option>
          <option value={match.homeSquadId}>{homeName}</option>
          <option value={match.awaySquadId}>{awayName}</option>
        </SelectField>
        <Field
          label={match.isMarginGame ? 'Sixes (margin game)' : 'Sixes'}
          name="sixes"
          inputMode="numeric"
          defaultValue={r?.sixes ?? ''}
          error={errors.sixes}
        />
        <Field
          label="Method (e.g. DLS)"
          name="method"
          defaultValue={r?.method ?? ''}
          error={errors.method}
        />
      </div>
      {innings('home', homeName)}
      {innings('away', awayName)}
      <FormMessage error={errors.form} ok={saved} />
      <div className={styles.row}>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save result'}
        </Button>
      </div>
    </form>
  )
}
