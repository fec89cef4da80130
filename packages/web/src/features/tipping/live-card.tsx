import type { ReactNode } from 'react'
import type { LiveMatch } from '@tipping/contract/live'
import type { Prediction } from '@tipping/contract/predictions'
import type { Squad } from '@tipping/contract/static-files'
import { ballsFromOvers } from '@tipping/contract/rules/cricket'
import { liveLeader } from '@tipping/contract/rules/live'
import styles from './live-card.module.css'

interface Props {
  live: LiveMatch
  homeSquadId: number
  awaySquadId: number
  squads: ReadonlyMap<number, Squad>
  /** The user's tip on the match, if any. */
  pick: Prediction | undefined
  isMarginGame: boolean
  /** What is at stake for the user on each result, when known (composed by the page). */
  children?: ReactNode
}

const rate = (r: number | null | undefined) => (r === null || r === undefined ? '-' : r.toFixed(2))

/**
 * Issue 30: a match in progress, as the push channel last told it. Score by innings, run rate,
 * the chase, the sixes against the user's Super Sixes guess, and whether the user's pick is ahead
 * right now (rules/live.ts `liveLeader`). A live score never scores anything: the card says
 * "ahead", never "won", until the result arrives.
 */
export function LiveCard({
  live,
  homeSquadId,
  awaySquadId,
  squads,
  pick,
  isMarginGame,
  children,
}: Props) {
  const name = (id: number) => squads.get(id)?.shortName ?? squads.get(id)?.name ?? 'Squad'
  const { figures } = live
  const innings = live.innings.map((i) => ({
    runs: i.runs,
    wickets: i.wickets,
    balls: ballsFromOvers(i.overs),
    ballsAllotted: i.oversAllotted === null ? null : ballsFromOvers(i.oversAllotted),
  }))
  const leader = liveLeader(innings, figures)
  const chasing = live.innings[1]?.battingSquadId ?? null
  const defending = chasing === null ? null : chasing === homeSquadId ? awaySquadId : homeSquadId
  const ahead = leader === 'chasing' ? chasing : leader === 'defending' ? defending : null
  const picked = pick !== undefined && pick.squad > 0 ? pick.squad : null
  return (
    <section
      className={styles.card}
      aria-label={`Live score, ${name(homeSquadId)} v ${name(awaySquadId)}`}
    >
      <ul className={styles.innings}>
        {live.innings.map((inn, i) => (
          <li key={i} className={styles.line}>
            <span className={styles.side}>{name(inn.battingSquadId)}</span>
            <strong className={styles.score}>
              {inn.runs}/{inn.wickets}
            </strong>
            <span className={styles.overs}>
              ({inn.overs} ov{inn.oversAllotted === null ? '' : ` of ${inn.oversAllotted}`})
            </span>
            <span className={styles.rate}>RR {rate(figures.runRates[i])}</span>
          </li>
        ))}
      </ul>
      {figures.target !== null ? (
        <p className={styles.chase}>
          Target {figures.target}
          {figures.runsNeeded !== null && figures.runsNeeded > 0
            ? ` · needs ${figures.runsNeeded} from ${figures.ballsLeft ?? 0} balls · required ${rate(figures.requiredRate)}`
            : ' · reached'}
        </p>
      ) : null}
      {isMarginGame ? (
        <p className={styles.sixes}>
          {live.sixes} {live.sixes === 1 ? 'six' : 'sixes'} so far
          {pick?.margin !== null && pick?.margin !== undefined && picked !== null
            ? ` - you said ${pick.margin}`
            : ''}
        </p>
      ) : null}
      {picked !== null && ahead !== null ? (
        <p className={ahead === picked ? styles.ahead : styles.behind}>
          {ahead === picked
            ? `Your pick, ${name(picked)}, is ahead right now`
            : `Your pick, ${name(picked)}, is behind right now`}
        </p>
      ) : null}
      {children}
    </section>
  )
}
