import { useId, useState, type FormEvent } from 'react'
import type { AdminMatch } from '@tipping/contract/admin'
import { asSquadId } from '@tipping/contract/ids'
import { liveScoreBodySchema, type LiveMatch, type LiveScoreBody } from '@tipping/contract/live'
import { ballsFromOvers, oversFromBalls } from '@tipping/contract/rules/cricket'
import { FULL_INNINGS_BALLS } from '@tipping/contract/rules/live'
import { Button } from '../../ui/button.tsx'
import { FormField, SelectField } from '../../ui/form-field.tsx'
import styles from './admin.module.css'
import { apiFieldErrors, visibleErrors, zodFieldErrors, type FieldErrors } from './form-errors.ts'
import { FormMessage } from './form-message.tsx'

// The live score of a match in progress, entered by an admin at the ground or in front of the
// broadcast: the innings as the scoreboard shows them, nudged ball by ball with the quick buttons,
// then saved (PUT .../live). A live score scores nothing (decision 015); the result form does.

/** One innings as typed: text, so a half-typed figure is kept until it is checked. */
export interface InningsDraft {
  battingSquadId: string
  runs: string
  wickets: string
  overs: string
  oversAllotted: string
  sixes: string
}

const COUNTS = ['runs', 'wickets', 'sixes'] as const
const FIELDS_OF_INNINGS = ['battingSquadId', ...COUNTS, 'overs', 'oversAllotted'] as const
const ORDINAL = ['1st', '2nd'] as const
const OVERS = /^\d{1,2}(\.[0-5])?$/

const fresh = (battingSquadId: string): InningsDraft => ({
  battingSquadId,
  runs: '0',
  wickets: '0',
  overs: '0',
  oversAllotted: '',
  sixes: '0',
})

/** The form's starting point: the live score as it stands, else a first innings not begun. */
export function draftsOf(current: LiveMatch | null): InningsDraft[] {
  if (!current || current.innings.length === 0) return [fresh('')]
  return current.innings.map((i) => ({
    battingSquadId: String(i.battingSquadId),
    runs: String(i.runs),
    wickets: String(i.wickets),
    overs: i.overs,
    oversAllotted: i.oversAllotted ?? '',
    sixes: String(i.sixes),
  }))
}

/** The squad that did not bat first ('' while the first innings has no side). */
const otherSide = (match: AdminMatch, squadId: string) =>
  squadId === String(match.homeSquadId)
    ? String(match.awaySquadId)
    : squadId === String(match.awaySquadId)
      ? String(match.homeSquadId)
      : ''

/**
 * The body to send, or the errors of what the contract cannot say well itself (a blank count,
 * no batting side); the contract's schema checks the rest.
 */
export function readLiveForm(drafts: InningsDraft[]): { body: unknown } | { errors: FieldErrors } {
  const errors: FieldErrors = {}
  drafts.forEach((d, i) => {
    if (d.battingSquadId === '') errors[`innings.${i}.battingSquadId`] = 'Choose the batting side'
    for (const f of COUNTS)
      if (!/^\d+$/.test(d[f].trim())) errors[`innings.${i}.${f}`] = 'A whole number, 0 or more'
  })
  if (Object.keys(errors).length > 0) return { errors }
  return {
    body: {
      innings: drafts.map((d) => ({
        battingSquadId: asSquadId(Number(d.battingSquadId)),
        runs: Number(d.runs.trim()),
        wickets: Number(d.wickets.trim()),
        overs: d.overs.trim(),
        ...(d.oversAllotted.trim() === '' ? {} : { oversAllotted: d.oversAllotted.trim() }),
        sixes: Number(d.sixes.trim()),
      })),
    },
  }
}

/** A quick button's change to the innings in progress; null leaves it as it is. */
type Nudge = (d: InningsDraft) => Partial<InningsDraft> | null

const count = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : null)
const addRuns =
  (n: number, six = false): Nudge =>
  (d) => {
    const runs = count(d.runs)
    const sixes = count(d.sixes)
    if (runs === null || (six && sixes === null)) return null
    return six
      ? { runs: String(runs + n), sixes: String((sixes ?? 0) + 1) }
      : { runs: String(runs + n) }
  }
const addWicket: Nudge = (d) => {
  const w = count(d.wickets)
  return w === null || w >= 10 ? null : { wickets: String(w + 1) }
}
/** One more legal ball: "12.5" becomes "13", never past the innings' allotment. */
const addBall: Nudge = (d) => {
  const overs = d.overs.trim()
  if (!OVERS.test(overs)) return null
  const allotted = d.oversAllotted.trim()
  const limit = OVERS.test(allotted) ? ballsFromOvers(allotted) : FULL_INNINGS_BALLS
  const balls = ballsFromOvers(overs)
  return balls >= limit ? null : { overs: oversFromBalls(balls + 1) }
}

/** The quick buttons: the visible text, then what a screen reader hears after it. */
const QUICK: { text: string; more: string; nudge: Nudge }[] = [
  { text: '+1', more: 'run', nudge: addRuns(1) },
  { text: '+4', more: 'runs', nudge: addRuns(4) },
  { text: '+6', more: 'runs, a six', nudge: addRuns(6, true) },
  { text: '+wicket', more: '', nudge: addWicket },
  { text: '+ball', more: '', nudge: addBall },
]

interface Props {
  match: AdminMatch
  homeName: string
  awayName: string
  /** The live score as it stands (null: none yet). */
  current: LiveMatch | null
  onSave: (body: LiveScoreBody) => Promise<unknown>
}

/**
 * Enter or correct the live score of a match in progress. The quick buttons change the innings
 * in progress (the last one); Undo takes back the last of them (or the last innings started or
 * removed); nothing is sent until Save.
 */
export function LiveScoreForm({ match, homeName, awayName, current, onSave }: Props) {
  const [drafts, setDrafts] = useState<InningsDraft[]>(() => draftsOf(current))
  const [history, setHistory] = useState<InningsDraft[][]>([])
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const quickId = useId()
  const name = (squadId: string) =>
    squadId === String(match.homeSquadId)
      ? homeName
      : squadId === String(match.awaySquadId)
        ? awayName
        : ''
  const fields = drafts.flatMap((_, i) => FIELDS_OF_INNINGS.map((f) => `innings.${i}.${f}`))
  const last = drafts.length - 1

  const change = (next: InningsDraft[], undoable = false) => {
    if (undoable) setHistory((h) => [...h.slice(-49), drafts])
    setDrafts(next)
    setSaved(null)
  }
  const edit = (i: number, patch: Partial<InningsDraft>, undoable = false) => {
    const next = drafts.map((d, j) => (j === i ? { ...d, ...patch } : d))
    // The two innings are batted by the two sides: choosing the first's names the second's.
    const second = next[1]
    if (i === 0 && patch.battingSquadId !== undefined && second)
      next[1] = { ...second, battingSquadId: otherSide(match, patch.battingSquadId) }
    change(next, undoable)
  }
  const nudge = (n: Nudge) => {
    const d = drafts[last]
    const patch = d ? n(d) : null
    if (patch) edit(last, patch, true)
  }
  const undo = () => {
    const previous = history[history.length - 1]
    if (!previous) return
    setHistory((h) => h.slice(0, -1))
    setDrafts(previous)
    setSaved(null)
  }

  /** What was saved, as a scoreboard reads it. */
  const summary = (body: LiveScoreBody) =>
    body.innings
      .map((i) => `${name(String(i.battingSquadId))} ${i.runs}/${i.wickets} (${i.overs})`)
      .join(', ')

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const read = readLiveForm(drafts)
    if ('errors' in read) {
      setErrors(read.errors)
      return
    }
    const parsed = liveScoreBodySchema.safeParse(read.body)
    if (!parsed.success) {
      setErrors(visibleErrors(zodFieldErrors(parsed.error), fields))
      return
    }
    setBusy(true)
    setErrors({})
    setSaved(null)
    try {
      await onSave(parsed.data)
      setSaved(`Live score saved: ${summary(parsed.data)}`)
    } catch (err) {
      // The match itself (`id`: not in progress any more) is the form's matter, not a field's.
      const { id, ...byField } = apiFieldErrors(err)
      setErrors(visibleErrors(id ? { form: id, ...byField } : byField, fields))
    } finally {
      setBusy(false)
    }
  }

  const innings = (d: InningsDraft, i: number) => {
    const path = `innings.${i}`
    const field = (f: (typeof FIELDS_OF_INNINGS)[number]) => ({
      name: `${path}.${f}`,
      value: d[f],
      error: errors[`${path}.${f}`],
      onChange: (e: { target: { value: string } }) => edit(i, { [f]: e.target.value }),
    })
    return (
      <fieldset key={i} className={styles.liveInnings}>
        <legend>{ORDINAL[i]} innings</legend>
        <div className={styles.liveSide}>
          <SelectField compact label="Batting side" {...field('battingSquadId')}>
            {d.battingSquadId === '' ? <option value="">Choose…</option> : null}
            <option value={match.homeSquadId}>{homeName}</option>
            <option value={match.awaySquadId}>{awayName}</option>
          </SelectField>
        </div>
        <FormField compact label="Runs" inputMode="numeric" {...field('runs')} />
        <FormField compact label="Wickets" inputMode="numeric" {...field('wickets')} />
        <FormField compact label="Overs" inputMode="decimal" {...field('overs')} />
        <FormField compact label="Sixes" inputMode="numeric" {...field('sixes')} />
        <FormField
          compact
          label="Overs allotted (rain)"
          inputMode="decimal"
          placeholder="20"
          {...field('oversAllotted')}
        />
      </fieldset>
    )
  }

  const inProgress = drafts[last]
  const side = inProgress ? name(inProgress.battingSquadId) : ''

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Live score of match ${match.number}`}
      className={styles.liveForm}
      data-testid={`m${match.id}-live`}
    >
      {drafts.map(innings)}
      <div role="group" aria-labelledby={quickId} className={styles.quick}>
        <p id={quickId} className={styles.quickLabel}>
          Quick add to the {ORDINAL[last]} innings{side ? ` (${side})` : ''}
        </p>
        {QUICK.map((q) => (
          <Button key={q.text} variant="secondary" onClick={() => nudge(q.nudge)}>
            {q.text}
            {q.more ? (
              <>
                {' '}
                <span className="visually-hidden">{q.more}</span>
              </>
            ) : null}
          </Button>
        ))}
        <Button variant="secondary" onClick={undo} disabled={history.length === 0}>
          Undo
        </Button>
      </div>
      <div className={styles.liveSave}>
        {drafts.length === 1 ? (
          <Button
            variant="secondary"
            onClick={() =>
              change([...drafts, fresh(otherSide(match, drafts[0]?.battingSquadId ?? ''))], true)
            }
          >
            Start 2nd innings
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => change(drafts.slice(0, 1), true)}>
            Remove 2nd innings
          </Button>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save live score'}
        </Button>
      </div>
      <div className={styles.liveMessage}>
        <FormMessage error={errors.form} />
        {/* Always there, so a screen reader announces the confirmation when it appears. */}
        <p role="status" className={styles.ok}>
          {errors.form ? null : saved}
        </p>
      </div>
    </form>
  )
}
