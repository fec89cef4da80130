import type { Sport } from '@tipping/contract/constants'
import {
  useFixtureQuery,
  squadsById,
  useSquadsQuery,
  useTeamLadderQuery,
} from '../../lib/static-api.ts'
import styles from './team-ladder-card.module.css'

/** The clubs in each competition, for the rows held while the ladder loads. */
const CLUBS = 8

/** Spec 2 "Team ladder card": `{competition name} Ladder` from ladder.json. */
export function TeamLadderCard({ sport }: { sport: Sport }) {
  const ladder = useTeamLadderQuery(sport)
  const squadsFile = useSquadsQuery(sport)
  const fixture = useFixtureQuery(sport)
  const squads = squadsById(squadsFile.data)
  const failed = ladder.isError || squadsFile.isError || fixture.isError
  const data =
    ladder.data && squadsFile.data && fixture.data
      ? { name: fixture.data.competition.name, rows: ladder.data.ladder, squads }
      : null
  return (
    <section className={styles.card} aria-labelledby="team-ladder-title">
      <h2 id="team-ladder-title">{data ? `${data.name} Ladder` : 'Ladder'}</h2>
      {failed ? <p className={styles.note}>The ladder could not be loaded.</p> : null}
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Pos</th>
            <th scope="col">Team</th>
            <th scope="col" className={styles.num}>
              <abbr title="Played">Pld.</abbr>
            </th>
            <th scope="col" className={styles.num}>
              Won
            </th>
            <th scope="col" className={styles.num}>
              Pts
            </th>
          </tr>
        </thead>
        <tbody>
          {/* Until it loads, a row's space per club (both competitions have eight), so the
              cards below the ladder do not move when it arrives. */}
          {data === null && !failed
            ? Array.from({ length: CLUBS }, (_, i) => (
                <tr key={`loading-${i}`} aria-hidden="true">
                  <td colSpan={5} />
                </tr>
              ))
            : null}
          {(data?.rows ?? []).map((r) => {
            const squad = data?.squads.get(r.squadId)
            return (
              <tr key={r.squadId}>
                <td className={styles.pos}>{r.position}</td>
                <td>
                  <span className={styles.team}>
                    <img src={`/static/logo/${r.squadId}.webp`} alt="" width={24} height={24} />
                    <span className={styles.full}>{squad?.name ?? `Team ${r.squadId}`}</span>
                    <span className={styles.short}>{squad?.shortName ?? r.squadId}</span>
                  </span>
                </td>
                <td className={styles.num}>{r.played}</td>
                <td className={styles.num}>{r.won}</td>
                <td className={`${styles.num} ${styles.pts}`}>{r.points}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}
