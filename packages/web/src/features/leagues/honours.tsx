import { skipToken } from '@reduxjs/toolkit/query'
import type { Sport } from '@tipping/contract/constants'
import type { LeagueHonoursResponse, RoundHonourRow } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/names'
import {
  canStillWin,
  showStillInIt,
  STILL_IN_IT_LATE_ROUNDS,
  type Remaining,
} from '@tipping/contract/rules/honours'
import type { RankingRow } from '@tipping/contract/scores'
import { FRESH } from './leagues-api.ts'
import { useLeagueHonoursQuery } from './honours-api.ts'
import styles from './honours.module.css'

// Issue 31 "Leagues with a memory": round honours (who came first in each completed week) and
// "Can I still win?" on a league's pages. The rules are the contract's (rules/honours.ts).

export interface Honours {
  data: LeagueHonoursResponse | null
  /** Weeks each listed winner won, oldest first. */
  weeksWon: ReadonlyMap<number, readonly number[]>
}

const NONE: Honours = { data: null, weeksWon: new Map() }

/** The league's honours, read afresh when the page opens; nothing until they arrive. */
export function useLeagueHonours(sport: Sport, leagueId: number | null): Honours {
  const query = useLeagueHonoursQuery(
    leagueId === null ? skipToken : { sport, id: leagueId },
    FRESH,
  )
  const data = query.currentData ?? null
  if (!data) return NONE
  const weeksWon = new Map<number, number[]>()
  for (const r of data.rounds)
    for (const w of r.winners) weeksWon.set(w.userId, [...(weeksWon.get(w.userId) ?? []), r.round])
  return { data, weeksWon }
}

const weeks = (n: number) => (n === 1 ? '1 week' : `${n} weeks`)

/** A star and a count beside a member who has won weeks; the count is read out in words. */
export function WinsChip({ count }: { count: number }) {
  if (count === 0) return null
  return (
    <span className={`${styles.chip} ${styles.wins}`} title={`Won ${weeks(count)}`}>
      <span aria-hidden="true">★ {count}</span>
      <span className="visually-hidden">won {weeks(count)}</span>
    </span>
  )
}

/** "In it" or "Out": words first, the colour only repeats them. */
export function StillInItChip({ inIt }: { inIt: boolean }) {
  return (
    <span className={`${styles.chip} ${inIt ? styles.in : styles.out}`}>
      {inIt ? 'In it' : 'Out'}
    </span>
  )
}

/** Whether each row can still win, and whether the ladder shows it yet (rules/honours.ts). */
export function stillInIt(
  rows: readonly RankingRow[],
  remaining: Remaining,
): { show: boolean; inIt: (r: RankingRow) => boolean } {
  // The ladder is ranked: any row ranked first is a leader (all of them share points and margin).
  const leader = rows.find((r) => r.rank === 1)
  const inIt = (r: RankingRow) =>
    leader === undefined ||
    canStillWin(
      { points: r.totalPoints, margin: r.totalMargin },
      { points: leader.totalPoints, margin: leader.totalMargin },
      remaining,
    )
  return {
    show:
      leader !== undefined &&
      showStillInIt(
        remaining,
        rows.some((r) => !inIt(r)),
      ),
    inIt,
  }
}

/** Above the overall ladder: what is still to play for, and what the markers mean. */
export function StillToPlayFor({ remaining, marked }: { remaining: Remaining; marked: boolean }) {
  if (remaining.rounds === 0)
    return (
      <p className={styles.note} data-testid="still-to-play-for">
        <strong>Season over:</strong> the ladder is final. Members marked <strong>Out</strong>{' '}
        finished behind the winner.
      </p>
    )
  const left = `${remaining.maxPoints} points are still to play for over ${weeks(remaining.rounds)}`
  return (
    <p className={styles.note} data-testid="still-to-play-for">
      <strong>Can I still win?</strong> {left}.{' '}
      {marked ? (
        <>
          <strong>In it</strong>: can still finish first. <strong>Out</strong>: cannot, even winning
          every point left.
        </>
      ) : (
        <>
          Everyone here can still finish first; each member is marked in it or out from the last{' '}
          {weeks(STILL_IN_IT_LATE_ROUNDS)}.
        </>
      )}
    </p>
  )
}

/**
 * A round's winners in words: the listed names (the server names at most HONOURS_WINNERS_MAX, as a
 * washed-out week in a 100,000-member league can tie thousands), then how many others shared
 * first, from the server's count of them all ("and 312 others").
 */
export function winnersList(h: Pick<RoundHonourRow, 'winners' | 'winnerCount'>): string {
  const names = h.winners.map(tipperName)
  const others = h.winnerCount - names.length
  if (others <= 0) return names.join(', ')
  return `${names.join(', ')} and ${others} ${others === 1 ? 'other' : 'others'}`
}

/** Above a week's ladder: who won it, or when it will be known. */
export function WeekWinners({ honours, round }: { honours: Honours; round: number }) {
  if (!honours.data) return null
  const h = honours.data.rounds.find((r) => r.round === round)
  if (!h)
    return (
      <p className={styles.note} data-testid="week-winners">
        The week’s winner is named once all its matches are complete.
      </p>
    )
  const list = winnersList(h)
  return (
    <p className={styles.note} data-testid="week-winners">
      <span aria-hidden="true">★ </span>
      <strong>
        Week {h.round} {h.winnerCount > 1 ? 'winners (shared first)' : 'winner'}:
      </strong>{' '}
      {list} · {h.points} pts, margin {h.margin}
    </p>
  )
}

/** Under a member's name in the members list: the weeks they won. */
export function WeeksWon({ rounds }: { rounds: readonly number[] | undefined }) {
  if (!rounds || rounds.length === 0) return null
  return (
    <span className={styles.honourList}>
      <span aria-hidden="true">★ </span>
      Won {rounds.length === 1 ? 'week' : 'weeks'} {rounds.join(', ')}
    </span>
  )
}
