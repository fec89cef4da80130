import type { RoundNumber } from '@tipping/contract/ids'
import type { ReactNode } from 'react'
import { skipToken } from '@reduxjs/toolkit/query'
import { Link } from 'react-router'
import { TOP_RANKING_HIGHLIGHT, type Sport } from '@tipping/contract/constants'
import { tipperName } from '@tipping/contract/names'
import type { FixtureRound } from '@tipping/contract/static-files'
import { tipsRoundFor } from './ladder-round-select.tsx'
import { useFixtureQuery } from '../../lib/static-api.ts'
import { useOwnLeaguesInfiniteQuery, useRankingsInfiniteQuery } from './leagues-api.ts'
import styles from './side-cards.module.css'

// Small cards for a wide screen's side column (issue 27: "use the width"), each a glance at a
// page of its own with a link to it. Each holds its rows' space while it loads, so nothing below
// it moves when they arrive.

/** How many leagues and leaders a side card lists. */
export const SIDE_ROWS = 5

/** The user's leagues, the first few, linking to each ladder and to the full list. */
export function YourLeaguesCard({ sport }: { sport: Sport }) {
  // The first page of the same list the leagues page shows (one cache entry for both).
  const query = useOwnLeaguesInfiniteQuery(sport)
  const leagues = query.data?.pages[0]?.leagues ?? null
  const failed = query.isError
  const shown = leagues?.slice(0, SIDE_ROWS) ?? []
  return (
    <section className={styles.card} aria-labelledby="side-leagues-title">
      <div className={styles.head}>
        <h2 id="side-leagues-title">Your leagues</h2>
        <Link to={`/${sport}/leagues`} className={styles.more}>
          All<span className="visually-hidden"> your leagues</span>
        </Link>
      </div>
      {failed ? <p className={styles.note}>Your leagues could not be loaded.</p> : null}
      {leagues !== null && leagues.length === 0 ? (
        <p className={styles.note}>
          Not in a league yet. <Link to={`/${sport}/leagues/join`}>Join one</Link> or{' '}
          <Link to={`/${sport}/leagues/create`}>start your own</Link>.
        </p>
      ) : null}
      <ul className={styles.list} aria-busy={leagues === null}>
        {leagues === null && !failed
          ? Array.from({ length: 2 }, (_, i) => (
              <li key={i} className={styles.placeholder} aria-hidden="true" />
            ))
          : shown.map((l) => (
              <li key={l.id}>
                <Link className={styles.row} to={`/${sport}/league/${l.id}/ladder`}>
                  <span className={styles.name}>{l.name}</span>
                  <span className={styles.meta}>
                    {l.numUser} {l.numUser === 1 ? 'tipper' : 'tippers'}
                  </span>
                </Link>
              </li>
            ))}
      </ul>
    </section>
  )
}

/** The week a leaders card shows: the one asked for once it has a result, else the latest that
 * has one (a week with no finished match has no points to rank). */
export const leadersRoundFor = (
  rounds: readonly FixtureRound[],
  wanted: number | null,
): FixtureRound | null => {
  const asked = wanted === null ? undefined : rounds.find((r) => r.number === wanted)
  if (asked?.matches.some((m) => m.status === 'complete')) return asked
  return tipsRoundFor(rounds, null)
}

/** The top of a week's rankings (the whole competition), with the user's own place under it. */
export function WeekLeadersCard({ sport, round }: { sport: Sport; round: RoundNumber | null }) {
  const fixture = useFixtureQuery(sport)
  const week = fixture.data ? leadersRoundFor(fixture.data.rounds, round) : undefined
  // The first page of that week's rankings (the rankings page's own cache entry for the week).
  const rankings = useRankingsInfiniteQuery(
    week ? { sport, round: week.number, search: '' } : skipToken,
  )
  const first = rankings.currentData?.pages[0]
  const data = first ? { rows: first.rankings.slice(0, SIDE_ROWS), user: first.user } : null
  const failed = fixture.isError || rankings.isError
  const title = week ? `${week.label || `Week ${week.number}`} leaders` : 'Week leaders'
  const mineShown = data?.rows.some((r) => r.userId === data.user?.userId) ?? false
  return (
    <section className={styles.card} aria-labelledby="side-leaders-title">
      <div className={styles.head}>
        <h2 id="side-leaders-title">{title}</h2>
        <Link to={`/${sport}/rankings`} className={styles.more}>
          All<span className="visually-hidden"> rankings</span>
        </Link>
      </div>
      {failed ? <p className={styles.note}>The rankings could not be loaded.</p> : null}
      {week === null ? <p className={styles.note}>Leaders show after the first result.</p> : null}
      {week !== null && !failed ? (
        <ol className={styles.leaders} aria-busy={data === null}>
          {Array.from({ length: SIDE_ROWS }, (_, i) => {
            const r = data?.rows[i]
            if (!r) return <li key={i} className={styles.emptyRow} aria-hidden="true" />
            const top = r.rank > 0 && r.rank <= TOP_RANKING_HIGHLIGHT
            return (
              <li
                key={r.userId}
                className={`${styles.leader} ${top ? styles.top : ''} ${r.userId === data?.user?.userId ? styles.mine : ''}`}
              >
                <span className={styles.rank}>{r.rank}</span>
                <span className={styles.name}>{tipperName(r)}</span>
                <span className={styles.points}>
                  {r.points}
                  <span className="visually-hidden"> points</span>
                </span>
              </li>
            )
          })}
          {/* The user's own place, when it is not among the leaders: a line kept for it anyway. */}
          {data?.user && !mineShown && data.user.rank > 0 ? (
            <li className={`${styles.leader} ${styles.mine} ${styles.you}`}>
              <span className={styles.rank}>{data.user.rank}</span>
              <span className={styles.name}>You</span>
              <span className={styles.points}>
                {data.user.points}
                <span className="visually-hidden"> points</span>
              </span>
            </li>
          ) : (
            <li className={styles.emptyRow} aria-hidden="true" />
          )}
        </ol>
      ) : null}
    </section>
  )
}

/** Issue 27: from this width the tipping and league pages have a side column (in lib, so the
 * tipping page can ask without loading the column's code: decision 035). */
export { SIDE_COLUMN_QUERY } from '../../lib/use-media-query.ts'

/** The side column's frame: its cards, stacked. */
export function SideColumn({ children }: { children: ReactNode }) {
  return (
    <aside className={styles.side} aria-label="At a glance">
      {children}
    </aside>
  )
}
