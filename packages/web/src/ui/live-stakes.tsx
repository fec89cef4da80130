import { Fragment, type ReactNode } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import type { LiveMatch } from '@tipping/contract/live'
import type { LiveStandingResponse } from '@tipping/contract/projections'
import {
  placeText,
  pointsGained,
  useLiveProjection,
  type SideProjection,
} from '../lib/live-projection.ts'
import { formatSixes } from '../lib/numbers.ts'
import styles from './live-stakes.module.css'

// A live match's stakes as the tipping page and a league's ladder both show them (decision 031):
// the projection and the lookups are lib/live-projection.ts's; each page says what a row holds.

/** What a page's row for one side is given. */
export interface LiveSideProps {
  sport: Sport
  round: RoundNumber
  live: LiveMatch
  projection: SideProjection
  standing: LiveStandingResponse
  /** The margin game's live sixes as the lookups use them; null on any other match. */
  sixes: number | null
  /** The server's scores are newer than the stored numbers (a 409 on `v`): read them again. */
  onStale: () => unknown
}

/**
 * The box under one live match: its title (with the margin game's live sixes), and a row per side
 * as the page renders it (`side`, a render function so a row keeps its state across renders).
 * Nothing until the match is live and the round and the stored numbers are in, nor when `shows`
 * says the stored numbers do not concern this page.
 */
export function LiveStakesBox({
  sport,
  round,
  live,
  spreadMs,
  id,
  heading: Heading,
  title,
  shows = () => true,
  side,
}: {
  sport: Sport
  round: RoundNumber
  live: LiveMatch
  /** Longest random wait before asking again after the sixes change. */
  spreadMs: number
  id: string
  /** The box's heading level where the page puts it. */
  heading: 'h2' | 'h3'
  title: string
  shows?: (standing: LiveStandingResponse) => boolean
  side: (props: LiveSideProps) => ReactNode
}) {
  const { sides, standing, isMarginGame, sixes, refetchStanding } = useLiveProjection(
    sport,
    round,
    live,
    spreadMs,
  )
  if (live.status !== 'active' || !standing || sides.length === 0 || !shows(standing)) return null
  return (
    <section className={styles.stakes} aria-labelledby={id}>
      <Heading className={styles.title} id={id}>
        {title}
        {isMarginGame && sixes !== null ? ` (${formatSixes(sixes)})` : ''}
      </Heading>
      <ul className={styles.sides}>
        {sides.map((projection) => (
          <Fragment key={projection.side}>
            {side({ sport, round, live, projection, standing, sixes, onStale: refetchStanding })}
          </Fragment>
        ))}
      </ul>
    </section>
  )
}

/** A side's row: "Sixers win: 2nd of 4, +1 pt", what the page adds on the line, then below it. */
export function LiveStakesSide({
  name,
  place,
  gain,
  aside,
  children,
}: {
  name: string
  /** The looked-up place if this side wins; undefined while it is asked. */
  place: { rank: number; totalUsers: number } | undefined
  /** The week's points gained if this side wins. */
  gain: number
  aside?: ReactNode
  children?: ReactNode
}) {
  return (
    <li className={styles.side}>
      <p className={styles.line}>
        <strong>{name} win:</strong>{' '}
        <span>
          {placeText(place)}, {pointsGained(gain)}
        </span>
        {aside !== undefined && (
          <>
            {' '}
            <span className={styles.aside}>{aside}</span>
          </>
        )}
      </p>
      {children}
    </li>
  )
}
