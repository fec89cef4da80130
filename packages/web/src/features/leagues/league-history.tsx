import type { Sport } from '@tipping/contract/constants'
import { tipperName } from '@tipping/contract/names'
import { Link } from 'react-router'
import { useLeagueHistoryQuery } from './renewal-api.ts'
import styles from './leagues.module.css'

/**
 * A league's past seasons (issue 31): each season it was renewed from, its champions and the
 * user's final place, linking to that season's final ladder in the archive. Nothing for a league
 * in its first season.
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
          </li>
        ))}
      </ul>
    </section>
  )
}
