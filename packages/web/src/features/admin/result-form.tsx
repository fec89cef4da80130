import { useState, type FormEvent } from 'react'
import type { AdminMatch } from '@tipping/contract/admin'
import { asSquadId } from '@tipping/contract/ids'
import { matchResultBodySchema, type MatchResultBody } from '@tipping/contract/results'
import { Button } from '../../ui/button.tsx'
import styles from './admin.module.css'
import { FormField, SelectField } from '../../ui/form-field.tsx'
import { FormMessage } from './form-message.tsx'
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

const NO_CHOICE = 'Choose the winner, a tie or no result'

const num = (v: FormDataEntryValue | null) => {
  const s = typeof v === 'string' ? v.trim() : ''
  return s === '' ? null : Number(s)
}
const text = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v.trim() : '')

/**
 * One "Result" choice stands for the outcome and the winner together (`win:{squad id}`, `tie`,
 * `no_result`), so the form cannot hold a win without a winner or a tie with one.
 */
function readChoice(choice: string): Pick<MatchResultBody, 'outcome' | 'winnerSquadId'> | null {
  if (choice === 'tie' || choice === 'no_result') return { outcome: choice, winnerSquadId: null }
  const winner = /^win:(\d+)$/.exec(choice)?.[1]
  return winner === undefined ? null : { outcome: 'win', winnerSquadId: asSquadId(Number(winner)) }
}

const choiceOf = (r: AdminMatch['result']): string =>
  !r ? '' : r.outcome === 'win' ? `win:${r.winnerSquadId ?? ''}` : r.outcome

/**
 * Reads the form into the result body, or null when no result is chosen yet; an innings left
 * blank is none (a washout).
 */
export function readResultForm(data: FormData): unknown {
  const choice = readChoice(text(data.get('result')))
  if (!choice) return null
  const side = (prefix: 'home' | 'away') => {
    const runs = num(data.get(`${prefix}.runs`))
    const wickets = num(data.get(`${prefix}.wickets`))
    const overs = text(data.get(`${prefix}.overs`))
    if (runs === null && wickets === null && overs === '') return null
    return { runs, wickets, overs }
  }
  const method = text(data.get('method'))
  return {
    ...choice,
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

/**
 * Enter or correct a match result in one compact form (wrapping to the width it has); checked by
 * the contract's schema, then by the server.
 */
export function ResultForm({ match, homeName, awayName, onSave }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  const r = match.result

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const raw = readResultForm(new FormData(e.currentTarget))
    if (raw === null) {
      setErrors({ winnerSquadId: NO_CHOICE })
      return
    }
    const parsed = matchResultBodySchema.safeParse(raw)
    if (!parsed.success) {
      setErrors(visibleErrors(zodFieldErrors(parsed.error), FIELDS))
      return
    }
    setBusy(true)
    setErrors({})
    try {
      await onSave(parsed.data)
    } catch (err) {
      setErrors(visibleErrors(apiFieldErrors(err), FIELDS))
    } finally {
      setBusy(false)
    }
  }

  const innings = (side: 'home' | 'away', name: string) => {
    const given = r?.[side]
    return (
      <fieldset className={styles.innings}>
        <legend>{name} innings</legend>
        <FormField
          compact
          label="Runs"
          name={`${side}.runs`}
          inputMode="numeric"
          defaultValue={given?.runs ?? ''}
          error={errors[`${side}.runs`]}
        />
        <FormField
          compact
          label="Wickets"
          name={`${side}.wickets`}
          inputMode="numeric"
          defaultValue={given?.wickets ?? ''}
          error={errors[`${side}.wickets`]}
        />
        <FormField
          compact
          label="Overs"
          name={`${side}.overs`}
          inputMode="decimal"
          placeholder="20"
          defaultValue={given?.overs ?? ''}
          error={errors[`${side}.overs`]}
        />
      </fieldset>
    )
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Result of match ${match.number}`}
      className={styles.resultForm}
      data-testid={`m${match.id}-result`}
    >
      <div className={styles.resultChoice}>
        <SelectField
          compact
          label="Result"
          name="result"
          defaultValue={choiceOf(r)}
          error={errors.outcome ?? errors.winnerSquadId}
        >
          <option value="">Choose…</option>
          <option value={`win:${match.homeSquadId}`}>{homeName} won</option>
          <option value={`win:${match.awaySquadId}`}>{awayName} won</option>
          <option value="tie">Tie</option>
          <option value="no_result">No result</option>
        </SelectField>
      </div>
      {innings('home', homeName)}
      {innings('away', awayName)}
      <div className={styles.resultExtras}>
        <FormField
          compact
          label={match.isMarginGame ? 'Sixes (margin game)' : 'Sixes'}
          name="sixes"
          inputMode="numeric"
          defaultValue={r?.sixes ?? ''}
          error={errors.sixes}
        />
        <FormField
          compact
          label="Method"
          name="method"
          placeholder="e.g. DLS"
          defaultValue={r?.method ?? ''}
          error={errors.method}
        />
      </div>
      <div className={styles.resultSave}>
        <FormMessage error={errors.form} />
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save result'}
        </Button>
      </div>
    </form>
  )
}
