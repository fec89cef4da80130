import type { ReactNode } from 'react'
import styles from './legal.module.css'
import { FINISHED_SEASON, NEXT_SEASON } from './seasons.ts'
import { usePageTitle } from '../../lib/page-title.ts'
import { Season } from '../../ui/season.tsx'

/**
 * Spec 2: `/` in offseason mode. The game is paused; the page says which season finished, offers
 * the next season's sign-up the layout composes in, and points to the pages that still exist.
 */
export default function OffseasonPage({
  preregistration,
  signedIn = false,
}: {
  preregistration?: ReactNode
  /** A signed-in player has an account already: nothing to leave below. */
  signedIn?: boolean
}) {
  usePageTitle('See you next season')
  return (
    <div className={styles.page} data-testid="offseason-page">
      <h1>See you next season</h1>
      <p>
        Big Bash Tipping is resting between seasons. The <Season label={FINISHED_SEASON} /> season
        has finished: thank you to everyone who tipped, built a league and argued about the Super
        Sixes.
      </p>
      <p>
        Tipping, leagues and rankings open again before the first match of the{' '}
        <Season label={NEXT_SEASON} /> season.
        {signedIn
          ? ' Your account is ready for it.'
          : ' Leave your name and email below and we will tell you as soon as the game is back.'}
      </p>
      {preregistration}
    </div>
  )
}
