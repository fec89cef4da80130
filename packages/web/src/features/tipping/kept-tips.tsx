import type { Match } from '@tipping/contract/predictions'
import type { Squad } from '@tipping/contract/static-files'
import type { TipState } from '../../lib/offline-status.ts'
import styles from './kept-tips.module.css'

interface Props {
  matches: readonly Match[]
  squads: ReadonlyMap<number, Squad>
  /** Per match: kept on the device, saved when it arrived, or refused (lib/offline-status.ts). */
  states: ReadonlyMap<number, TipState>
  /** The user's pick per match, to name the squad. */
  picks: ReadonlyMap<number, number>
}

const matchName = (m: Match, squads: ReadonlyMap<number, Squad>) =>
  `${squads.get(m.homeSquadId)?.shortName ?? 'Home'} v ${squads.get(m.awaySquadId)?.shortName ?? 'Away'}`

/**
 * Issue 32: the tips of this week kept on the device (while offline, or while the player signed in
 * again after their session ended), and once they are sent, per
 * match what the server did with each: saved, or refused with its reason (a match that started
 * before the tip arrived).
 */
export function KeptTips({ matches, squads, states, picks }: Props) {
  const rows = matches.filter((m) => states.has(m.id))
  if (rows.length === 0) return null
  return (
    <section className={styles.panel} aria-label="Tips kept on this device" data-testid="kept-tips">
      <h2 className={styles.title}>Tips kept on this device</h2>
      <ul className={styles.list}>
        {rows.map((m) => {
          const s = states.get(m.id)!
          const squad = squads.get(picks.get(m.id) ?? 0)?.shortName
          return (
            <li key={m.id} className={styles[s.state]} data-testid={`kept-tip-${m.id}`}>
              <span className={styles.match}>
                {matchName(m, squads)}
                {squad ? `: ${squad}` : ''}
              </span>{' '}
              <span className={styles.verdict}>
                {s.state === 'queued'
                  ? 'Waiting to send'
                  : s.state === 'saved'
                    ? 'Saved ✓'
                    : `Refused: ${s.message}`}
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
