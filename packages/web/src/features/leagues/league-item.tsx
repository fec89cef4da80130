import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import styles from './leagues.module.css'

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('')

/** One league in a list: a link to its ladder, or (when `action` is given) a row with a button. */
export function LeagueItem({
  sport,
  league,
  action,
}: {
  sport: Sport
  league: League
  action?: ReactNode
}) {
  const body = (
    <>
      <span className={styles.leagueMark} aria-hidden="true">
        {initials(league.name)}
      </span>
      <span className={styles.leagueText}>
        <span className={styles.leagueName}>{league.name}</span>
        <span className={styles.meta}>
          {league.isCommissioner ? (
            <span className={`${styles.badge} ${styles.badgeGold}`}>Commissioner</span>
          ) : null}
          <span className={styles.badge}>{league.privacy}</span>
          {league.numUser} {league.numUser === 1 ? 'tipper' : 'tippers'} · from week{' '}
          {league.startRound}
        </span>
      </span>
    </>
  )
  if (action) {
    return (
      <div className={styles.leagueItem}>
        {body}
        {action}
      </div>
    )
  }
  return (
    <Link className={styles.leagueItem} to={`/${sport}/league/${league.id}/ladder`}>
      {body}
    </Link>
  )
}
