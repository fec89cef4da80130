import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import {
  RECEIPT_DIGEST_PATTERN,
  RECEIPT_ID_PATTERN,
  type PickChange,
  type TipSave,
} from '@tipping/contract/receipts'
import type { Squad } from '@tipping/contract/static-files'
import { useSport } from '../../lib/sport.ts'
import { squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { formatSixes } from '../../lib/numbers.ts'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import { formatInstantMs, shortReceiptId } from './receipt-format.ts'
import { useLazyCheckReceiptQuery, useTipsHistoryQuery } from './receipts-api.ts'
import styles from './tips-history.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

const shared = numbersPageClasses(styles)

type Squads = ReadonlyMap<number, Squad>
const nameOf = (squads: Squads, id: number) => squads.get(id)?.name ?? `Team ${id}`

/**
 * A tip as the history says it: the side, and on the margin game the sixes predicted for the match
 * ("Brisbane Heat, 1 six"). Not "by N sixes": the number is the match's sixes, not a winning margin.
 */
const withMargin = (squads: Squads, squad: number, margin: number | null) =>
  `${nameOf(squads, squad)}${margin === null ? '' : `, ${formatSixes(margin)}`}`

function Change({ change, squads }: { change: PickChange; squads: Squads }) {
  return (
    <li>
      Week {change.round}, match {change.matchNumber}:{' '}
      <strong>
        {change.squad === null ? 'cleared' : withMargin(squads, change.squad, change.margin)}
      </strong>
      {change.was
        ? ` (was ${withMargin(squads, change.was.squad, change.was.margin)})`
        : ' (new tip)'}
    </li>
  )
}

const count = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`)

/** What a write did, in a few words (decision 029: a save, an autopick or a clear). */
const summary = (save: TipSave) => {
  const n = save.picks.length
  if (save.kind === 'autopick') return `Autopick · ${count(n, 'tip filled', 'tips filled')}`
  if (save.kind === 'clear') return `Clear · ${count(n, 'tip cleared', 'tips cleared')}`
  return count(n, 'tip saved', 'tips saved')
}

function Save({ save, squads }: { save: TipSave; squads: Squads }) {
  const { receipt } = save
  return (
    <li className={shared.card} data-testid={`save-${receipt.id}`}>
      <p className={styles.when}>
        <time dateTime={receipt.savedAt}>{formatInstantMs(receipt.savedAt)}</time>
      </p>
      <p>
        Receipt <span className={styles.mono}>{shortReceiptId(receipt.id)}</span> · {summary(save)}
      </p>
      {save.changed.length === 0 ? (
        <p className={styles.muted}>No tip changed.</p>
      ) : (
        <ul className={styles.changes} aria-label="What changed">
          {save.changed.map((c) => (
            <Change key={c.match} change={c} squads={squads} />
          ))}
        </ul>
      )}
      <details className={styles.details}>
        <summary>Full receipt</summary>
        <dl>
          <dt>Id</dt>
          <dd className={styles.mono}>{receipt.id}</dd>
          <dt>Digest</dt>
          <dd className={styles.mono}>{receipt.digest}</dd>
        </dl>
      </details>
    </li>
  )
}

/** Parses "id.digest" (what Copy receipt copies), or a field error. */
const parseReceipt = (text: string): { id: string; digest: string } | string => {
  const [id = '', digest = ''] = text.trim().split('.')
  if (!RECEIPT_ID_PATTERN.test(id) || !RECEIPT_DIGEST_PATTERN.test(digest))
    return 'Paste a receipt as copied: its 16-character id, a dot, then its 64-character digest'
  return { id, digest }
}

/** Anyone's receipt, checked by the server: genuine or not, never its picks. */
function CheckReceipt() {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [check, result] = useLazyCheckReceiptQuery()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = parseReceipt(text)
    if (typeof parsed === 'string') {
      setError(parsed)
      return
    }
    setError(null)
    void check(parsed)
  }
  const answer = result.data
  return (
    <section className={`${shared.card} ${styles.check}`} aria-labelledby="check-receipt">
      <h2 id="check-receipt">Check a receipt</h2>
      <form onSubmit={submit} noValidate>
        <FormField
          label="Receipt (id.digest)"
          value={text}
          error={error}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit" disabled={result.isFetching}>
          Check
        </Button>
      </form>
      <p role="status" className={styles.verdict}>
        {result.isError
          ? 'The receipt could not be checked. Please try again later.'
          : !answer || error
            ? ''
            : answer.genuine
              ? `Genuine: saved ${formatInstantMs(answer.savedAt ?? '')}`
              : 'Not genuine: this server issued no such receipt'}
      </p>
    </section>
  )
}

/** My tips history (issue 32): every save of the season with its receipt and what changed. */
export default function TipsHistoryPage() {
  usePageTitle('My tips history')
  const sport = useSport()
  const history = useTipsHistoryQuery(sport)
  const squads = squadsById(useSquadsQuery(sport).data)
  return (
    <div className={shared.page}>
      <h1>My tips history</h1>
      <p className={shared.intro}>
        Every save you made this season, newest first, with its receipt.{' '}
        <Link to={`/${sport}/help`}>What a receipt is</Link> ·{' '}
        <Link to={`/${sport}/tipping`}>Back to tipping</Link>
      </p>
      <CheckReceipt />
      {history.data ? (
        history.data.saves.length === 0 ? (
          <p className={styles.muted} data-testid="history-empty">
            You have not saved any tips this season yet.
          </p>
        ) : (
          <ol className={styles.list} aria-label="Saves">
            {history.data.saves.map((s) => (
              <Save key={s.receipt.id} save={s} squads={squads} />
            ))}
          </ol>
        )
      ) : history.isError ? (
        <p role="alert">Your history could not be loaded. Please try again later.</p>
      ) : (
        <Spinner label="Loading your tips history" />
      )}
    </div>
  )
}
