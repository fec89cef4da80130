import { useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { Season, SeasonLeague } from '@tipping/contract/season'
import { formatCount } from '../../lib/numbers.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import { PointsChart, PointsLegend } from './points-chart.tsx'
import { RankChart } from './rank-chart.tsx'
import { useSeasonLeagueQuery, useSeasonOwnLeaguesInfiniteQuery } from './season-api.ts'
import styles from './season.module.css'

const shared = numbersPageClasses(styles)

/**
 * "The same for each of my leagues" (issue 31): pick one of my leagues and see my points per
 * round against its members' average and best, and my rank in it after each round, from its
 * start week. The same charts as the whole season's, with a table for screen readers.
 */
export function LeagueSection({ sport, season }: { sport: Sport; season: Season }) {
  const own = useSeasonOwnLeaguesInfiniteQuery(sport)
  const leagues = own.data?.pages.flatMap((p) => p.leagues) ?? []
  const [picked, setPicked] = useState<number | null>(null)
  const id = picked ?? leagues[0]?.id ?? null

  return (
    <section className={shared.card} aria-labelledby="season-leagues">
      <h2 id="season-leagues">In my leagues</h2>
      {own.isLoading ? (
        <Spinner label="Loading your leagues" />
      ) : own.isError ? (
        <p role="alert">Your leagues could not be loaded. Please try again later.</p>
      ) : id === null ? (
        <p className={styles.muted}>
          Join or start a league to compare your season with its members.
        </p>
      ) : (
        <>
          <div className={styles.leaguePicker}>
            <label htmlFor="season-league-select">
              League
              <select
                id="season-league-select"
                className={styles.leagueSelect}
                value={id}
                onChange={(e) => setPicked(Number(e.target.value))}
              >
                {leagues.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
            {own.hasNextPage ? (
              <button
                type="button"
                className={styles.moreLeagues}
                onClick={() => void own.fetchNextPage()}
                disabled={own.isFetchingNextPage}
              >
                More leagues
              </button>
            ) : null}
          </div>
          <LeagueCharts sport={sport} id={id} season={season} />
        </>
      )}
    </section>
  )
}

function LeagueCharts({ sport, id, season }: { sport: Sport; id: number; season: Season }) {
  const q = useSeasonLeagueQuery({ sport, id })
  if (!q.data) {
    return q.isError ? (
      <p role="alert">This league's numbers could not be loaded. Please try again later.</p>
    ) : (
      <Spinner label="Loading the league's numbers" />
    )
  }
  const l = q.data
  if (l.rounds.length === 0)
    return (
      <p className={styles.muted}>
        No week from the league's start (week {l.league.startRound}) has a result yet.
      </p>
    )
  return <LeagueNumbers league={l} season={season} />
}

function LeagueNumbers({ league: l, season }: { league: SeasonLeague; season: Season }) {
  const golden = new Set(season.rounds.filter((r) => r.isGoldenWeek).map((r) => r.round))
  // The whole season's chart, fed the league's numbers (Golden Week marked the same way).
  const bars = l.rounds.map((r) => ({ ...r, isGoldenWeek: golden.has(r.round) }))
  const points = l.rounds.flatMap((r) =>
    r.rank === null ? [] : [{ round: r.round, rank: r.rank }],
  )
  const latest = l.rounds.at(-1)!
  return (
    <div data-league-charts={l.league.id}>
      <p className={styles.muted}>From week {l.league.startRound}, the league's start.</p>
      {latest.rank !== null ? (
        <p className={styles.rankNow} data-league-rank-now>
          After week {latest.round}: <strong>{formatCount(latest.rank)}</strong> of{' '}
          {formatCount(latest.tippers)} in {l.league.name}
        </p>
      ) : null}
      <h3 className={styles.subhead}>My rank in the league after each round</h3>
      {points.length > 0 ? (
        <RankChart points={points} of={latest.tippers} />
      ) : (
        <p className={styles.muted}>You are not ranked in this league yet.</p>
      )}
      <h3 className={styles.subhead}>Points per round in the league</h3>
      <PointsChart rounds={bars} />
      <PointsLegend of="League's" />
      {/* A table ignores a 1 px box, so the hiding is on a wrapper that clips it. */}
      <div className="visually-hidden">
        <table>
          <caption>
            {l.league.name}: my points per round against the league's average and best, and my rank
            in the league after each round (1 is the top)
          </caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">My points</th>
              <th scope="col">Average</th>
              <th scope="col">Best</th>
              <th scope="col">My rank</th>
              <th scope="col">Members ranked</th>
            </tr>
          </thead>
          <tbody>
            {l.rounds.map((r) => (
              <tr key={r.round}>
                <th scope="row">
                  Week {r.round}
                  {golden.has(r.round) ? ' (Golden Week)' : ''}
                </th>
                <td>{r.points}</td>
                <td>{r.average ?? '–'}</td>
                <td>{r.best}</td>
                <td>{r.rank === null ? 'not ranked' : formatCount(r.rank)}</td>
                <td>{formatCount(r.tippers)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
