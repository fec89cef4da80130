import { NavLink, useParams, useSearchParams } from 'react-router'
import { skipToken } from '@reduxjs/toolkit/query'
import type {
  HeadToHeadResponse,
  HeadToHeadSide,
  HeadToHeadTipView,
} from '@tipping/contract/head-to-head'
import { asRoundNumber } from '@tipping/contract/ids'
import { tipperName } from '@tipping/contract/names'
import type { Squad } from '@tipping/contract/static-files'
import { failureMessage } from '../../lib/api.ts'
import { useSport } from '../../lib/sport.ts'
import { squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { SelectField } from '../../ui/form-field.tsx'
import { Panel } from '../../ui/panel.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useHeadToHeadQuery } from './head-to-head-api.ts'
import styles from './head-to-head.module.css'
import { FRESH, useLeagueLadderInfiniteQuery, useLeagueQuery } from './leagues-api.ts'
import { ladderOf } from './use-ladder.ts'
import { distinctNames, type Member } from './distinct-names.ts'
import { usePageTitle } from '../../lib/page-title.ts'
import { formatSixes } from '../../lib/numbers.ts'

type Squads = ReadonlyMap<number, Squad>
const squadName = (squads: Squads, id: number) => squads.get(id)?.name ?? `Team ${id}`

/** A positive whole number from the address, else null. */
const idParam = (value: string | null): number | null => {
  const n = Number(value)
  return value !== null && Number.isInteger(n) && n > 0 ? n : null
}

/**
 * Issue 31: `/{sport}/league/{id}/head-to-head?a=&b=&round=`: two members' season record against
 * each other and the tips they differed on in a round. By default me against the leader (or,
 * when I lead, against the runner-up); the choice lives in the address, so a link can name it.
 */
export default function HeadToHeadPage() {
  const sport = useSport()
  const params = useParams()
  const leagueId = Number(params.leagueId)
  const valid = Number.isInteger(leagueId) && leagueId > 0
  const me = useCurrentUser().id
  const [search, setSearch] = useSearchParams()
  const league = useLeagueQuery(valid ? { sport, id: leagueId } : skipToken, FRESH)
  const ladderQuery = useLeagueLadderInfiniteQuery(
    valid ? { sport, id: leagueId, round: null } : skipToken,
    FRESH,
  )
  const ladder = ladderOf(ladderQuery, me)
  const squads = squadsById(useSquadsQuery(sport).data)

  const leader = ladder.rows.find((r) => r.userId !== me)?.userId ?? null
  const a = idParam(search.get('a')) ?? me
  const b = idParam(search.get('b')) ?? (leader === a ? null : leader)
  const roundParam = idParam(search.get('round'))
  const round = roundParam === null ? null : asRoundNumber(roundParam)
  const ready = valid && b !== null && a !== b
  const h2h = useHeadToHeadQuery(ready ? { sport, id: leagueId, a, b, round } : skipToken, FRESH)
  const data = h2h.currentData
  const name = league.currentData?.league.name
  // Not found: the panel below names the page.
  usePageTitle(!valid || league.isError ? null : `Head-to-head${name ? `: ${name}` : ''}`)

  const choose = (key: 'a' | 'b' | 'round', value: string) => {
    const next = new URLSearchParams(search)
    next.set('a', String(a))
    if (b !== null) next.set('b', String(b))
    if (key !== 'round') next.delete('round')
    next.set(key, value)
    // A choice made on the page, not a new page: it stays scrolled where it is (decision 042).
    setSearch(next, { replace: true, preventScrollReset: true })
  }

  if (!valid || league.isError)
    return (
      <Panel title="League not found">
        <p>That league does not exist, or it is private and you are not in it.</p>
        <p>
          <NavLink to={`/${sport}/leagues`}>Back to your leagues</NavLink>
        </p>
      </Panel>
    )
  // Everyone the pickers can offer: the ladder's loaded rows, me, and the two being compared.
  const people = new Map<number, Member>()
  const add = (userId: number, name: string, rank: number | null) =>
    people.set(userId, { userId, name, rank: rank ?? people.get(userId)?.rank ?? null })
  for (const r of ladder.rows) add(r.userId, tipperName(r), r.rank)
  if (ladder.pinned) add(ladder.pinned.userId, tipperName(ladder.pinned), ladder.pinned.rank)
  if (data) {
    add(data.a.userId, tipperName(data.a), null)
    add(data.b.userId, tipperName(data.b), null)
  }
  if (!people.has(me)) add(me, 'Me', null)
  const labels = distinctNames([...people.values()])
  const options = [...labels].map(([id, label]) => (
    <option key={id} value={id}>
      {id === me ? `${label} (me)` : label}
    </option>
  ))

  return (
    <div className={styles.page}>
      <header>
        <h1>Head-to-head{name ? `: ${name}` : ''}</h1>
        <p className={styles.muted}>
          <NavLink to={`/${sport}/league/${leagueId}/ladder`}>Back to the ladder</NavLink> ·{' '}
          <NavLink to={`/${sport}/help`}>How a round is won</NavLink>
        </p>
      </header>
      <section className={styles.card} aria-label="Choose two tippers">
        <div className={styles.pickers}>
          <SelectField
            compact
            label="Tipper"
            value={String(a)}
            onChange={(e) => choose('a', e.target.value)}
          >
            {options}
          </SelectField>
          <SelectField
            compact
            label="Against"
            value={b === null ? '' : String(b)}
            onChange={(e) => choose('b', e.target.value)}
          >
            {b === null ? <option value="">Choose a tipper</option> : null}
            {options}
          </SelectField>
        </div>
      </section>
      {!ready ? (
        <p className={styles.muted}>
          {a === b
            ? 'Choose two different tippers.'
            : ladder.loading
              ? 'Loading the members…'
              : 'Choose a tipper to compare with.'}
        </p>
      ) : h2h.isError ? (
        <p role="alert">{failureMessage(h2h.error, 'The head-to-head could not be loaded')}</p>
      ) : !data ? (
        <Spinner label="Loading the head-to-head" />
      ) : (
        <Record
          data={data}
          names={{ a: labels.get(data.a.userId)!, b: labels.get(data.b.userId)! }}
          squads={squads}
          onRound={(r) => choose('round', String(r))}
        />
      )}
    </div>
  )
}

function Record({
  data,
  names,
  squads,
  onRound,
}: {
  data: HeadToHeadResponse
  /** The two sides' names as the pickers give them: told apart where they are the same. */
  names: { a: string; b: string }
  squads: Squads
  onRound: (round: number) => void
}) {
  const { a: nameA, b: nameB } = names
  return (
    <>
      <section className={styles.card} aria-labelledby="h2h-record">
        <h2 id="h2h-record">Rounds won from week {data.startRound}</h2>
        <dl className={styles.score}>
          <Side side={data.a} name={nameA} which="a" />
          <div className={styles.drawn} data-h2h="drawn">
            <dt>Drawn</dt>
            <dd>{data.drawn}</dd>
          </div>
          <Side side={data.b} name={nameB} which="b" />
        </dl>
        {data.rounds.length === 0 ? (
          <p className={styles.muted}>No round has begun yet.</p>
        ) : (
          // Focusable, so that a keyboard can scroll it should a long team name overflow.
          <div className={styles.tableWrap} tabIndex={0} role="region" aria-label="Round by round">
            <table className={styles.table}>
              <caption className="visually-hidden">Round by round</caption>
              <thead>
                <tr>
                  <th scope="col">Week</th>
                  <th scope="col" className={styles.numHead}>
                    {nameA}
                  </th>
                  <th scope="col" className={styles.numHead}>
                    {nameB}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rounds.map((r) => (
                  <tr key={r.round}>
                    <th scope="row">
                      {r.round}
                      {r.winner === null ? (
                        <small className={styles.tip}>in play</small>
                      ) : r.winner === 'draw' ? (
                        <small className={styles.tip}>drawn</small>
                      ) : null}
                    </th>
                    <RoundCell score={r.a} won={r.winner === 'a'} />
                    <RoundCell score={r.b} won={r.winner === 'b'} />
                  </tr>
                ))}
              </tbody>
            </table>
            <p className={styles.muted}>
              Points, with the Super Sixes margin in brackets (smaller is better); ★ marks the
              round's winner.
            </p>
          </div>
        )}
      </section>
      {data.tips ? (
        <section className={styles.card} aria-labelledby="h2h-tips">
          <h2 id="h2h-tips">Where your tips differed</h2>
          <div className={styles.toolbar}>
            <SelectField
              compact
              label="Week"
              value={String(data.tips.round)}
              onChange={(e) => onRound(Number(e.target.value))}
            >
              {(data.rounds.some((r) => r.round === data.tips?.round)
                ? data.rounds.map((r) => r.round)
                : [data.tips.round, ...data.rounds.map((r) => r.round)]
              ).map((r) => (
                <option key={r} value={r}>
                  Week {r}
                </option>
              ))}
            </SelectField>
          </div>
          <p className={styles.muted}>
            Completed matches only.{' '}
            {data.tips.agreed === 1
              ? 'Tipped alike on 1 match.'
              : `Tipped alike on ${data.tips.agreed} matches.`}
          </p>
          {data.tips.differences.length === 0 ? (
            <p className={styles.muted}>No differences in week {data.tips.round}.</p>
          ) : (
            <div
              className={styles.tableWrap}
              tabIndex={0}
              role="region"
              aria-label="Tips that differed"
            >
              <table className={styles.table}>
                <caption className="visually-hidden">Tips that differed</caption>
                <thead>
                  <tr>
                    <th scope="col">Match</th>
                    <th scope="col">{nameA}</th>
                    <th scope="col">{nameB}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.tips.differences.map((d) => (
                    <tr key={d.match}>
                      <th scope="row">
                        {squadName(squads, d.homeSquad)} v {squadName(squads, d.awaySquad)}
                        <small className={styles.tip}>
                          {d.winnerSquad === null
                            ? 'No winner'
                            : `${squadName(squads, d.winnerSquad)} won`}
                          {d.isMarginGame && d.sixes !== null ? `, ${formatSixes(d.sixes)}` : ''}
                        </small>
                      </th>
                      <td>
                        <Tip tip={d.a} squads={squads} margin={d.isMarginGame} />
                      </td>
                      <td>
                        <Tip tip={d.b} squads={squads} margin={d.isMarginGame} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </>
  )
}

function RoundCell({ score, won }: { score: { points: number; margin: number }; won: boolean }) {
  return (
    <td className={styles.num}>
      <span className={won ? styles.right : undefined}>
        {score.points} <small>({score.margin})</small>
        {won ? (
          <>
            {' '}
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">won</span>
          </>
        ) : null}
      </span>
    </td>
  )
}

function Side({ side, name, which }: { side: HeadToHeadSide; name: string; which: 'a' | 'b' }) {
  return (
    <div className={styles.side} data-h2h={which}>
      <dt>{name}</dt>
      <dd>
        <strong>{side.won}</strong>
        {side.points} pts · margin {side.margin}
      </dd>
    </div>
  )
}

function Tip({
  tip,
  squads,
  margin,
}: {
  tip: HeadToHeadTipView | null
  squads: Squads
  margin: boolean
}) {
  if (tip === null) return <span className={styles.muted}>No tip (not yet joined)</span>
  return (
    <span className={styles.tip}>
      <span className={tip.correct ? styles.right : undefined}>
        {squadName(squads, tip.squad)}
        {tip.correct === true ? ' ✓' : tip.correct === false ? ' ✗' : ''}
      </span>
      {margin && tip.margin !== null ? <small> · {formatSixes(tip.margin)}</small> : null}
      {tip.isAutoTip ? <small className={styles.auto}> (auto-tip)</small> : null}
    </span>
  )
}
