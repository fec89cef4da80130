import type { ReactNode } from 'react'
import { placeText, signed } from '../lib/live-projection.ts'
import { formatCount } from '../lib/numbers.ts'
import styles from './live-stakes.module.css'

// A live match's stakes as the tipping page and a league's ladder both show them (decision 031):
// the projection and the lookups are lib/live-projection.ts's; each page says what a row adds.

/** The box: its title (with the margin game's live sixes), and a row per side. */
export function LiveStakesBox({
  id,
  heading: Heading,
  title,
  sixes,
  children,
}: {
  id: string
  /** The box's heading level where the page puts it. */
  heading: 'h2' | 'h3'
  title: string
  /** The margin game's live sixes; null on any other match. */
  sixes: number | null
  children: ReactNode
}) {
  return (
    <section className={styles.stakes} aria-labelledby={id}>
      <Heading className={styles.title} id={id}>
        {title}
        {sixes !== null ? ` (${formatCount(sixes)} sixes)` : ''}
      </Heading>
      <ul className={styles.sides}>{children}</ul>
    </section>
  )
}

/** A side's row: "Sixers win: 2nd of 4, +1", what the page adds on the line, then below it. */
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
          {placeText(place)}, {signed(gain)}
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
