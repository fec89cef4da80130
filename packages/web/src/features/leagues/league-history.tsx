import type { Sport } from '@tipping/contract/constants'
import { tipperName } from '@tipping/contract/names'
import { Link } from 'react-router'
import { useLeagueHistoryQuery } from './renewal-api.ts'
import { winnersList } from './honours.tsx'
import styles from './leagues.module.css'

/**
 * A league's past seasons (issue 31): each season it was renewed from, its champions and the
 * user's final place, linking to that season's final ladder in the archive, and its round
 * honours (each completed week's winners) folded away under a summary, so a season of 15 weeks
 * costs one line until opened. Nothing for a league in its first season.
 */
export function LeagueHistory({ sport, leagueId }: { sport: Sport; leagueId: number }) {
  const history = useLeagueHistoryQuery({ sport, id: leagueId })
  const seasons = history.data?.seasons ?? []
  if (seasons.length === 0) return null
  return (
    <section className={styles.card} aria-labelledby="league-history">
      <h2 id="league-history">Past seasons</h2>
      <ul className={styles.list}>
        {seasons.map((s) => (
          <li key={s.leagueId}>
            <Link to={`/${sport}/archive/${s.year}/league/${s.leagueId}`}>
              {s.year}: {s.name}
            </Link>{' '}
            — champion{s.champions.length > 1 ? 's' : ''}:{' '}
            {s.champions.length > 0 ? s.champions.map((c) => tipperName(c)).join(', ') : 'none'}
            {s.user ? `; you finished ${s.user.rank || '–'} of ${s.numUser}` : ''}
            {s.rounds.length > 0 && (
              <details className={styles.pastWeeks} data-testid="past-week-winners">
                <summary>
                  <span aria-hidden="true">★ </span>
                  {s.year} week winners ({s.rounds.length} weeks)
                </summary>
                <ul>
                  {s.rounds.map((r) => (
                    <li key={r.round}>
                      <strong>Week {r.round}:</strong> {winnersList(r)} · {r.points} pts, margin{' '}
                      {r.margin}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
