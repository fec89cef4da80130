import type { ReactNode } from 'react'
import { SEASON_PROMOTION } from '@tipping/contract/constants'
import styles from './legal.module.css'

/**
 * Spec 2: `/` in offseason mode. The game is paused; the page says so, offers the
 * next-season sign-up the layout composes in, and points to the pages that still exist.
 */
export default function OffseasonPage({ preregistration }: { preregistration?: ReactNode }) {
  return (
    <div className={styles.page} data-testid="offseason-page">
      <h1>See you next season</h1>
      <p>
        Big Bash Tipping is resting between seasons. The {SEASON_PROMOTION} season has finished:
        thank you to everyone who tipped, built a league and argued about the Super Sixes.
      </p>
      <p>
        Tipping, leagues and rankings open again before the first match of next season. Leave your
        email below and we will tell you as soon as the game is back.
      </p>
      {preregistration}
    </div>
  )
}
