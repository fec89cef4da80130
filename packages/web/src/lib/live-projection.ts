import { useEffect, useMemo, useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber, SquadId } from '@tipping/contract/ids'
import type { LiveMatch } from '@tipping/contract/live'
import {
  roundForScoring,
  type LiveStandingLeague,
  type LiveStandingResponse,
} from '@tipping/contract/projections'
import { projectRound, projectTotals } from '@tipping/contract/rules/projections'
import { useLiveStandingQuery } from './live-stakes-api.ts'
import { formatCount } from './numbers.ts'
import { useRoundQuery } from './round-api.ts'
import { squadsById, useSquadsQuery } from './static-api.ts'

// GAME_RULES "Live projections": what each side's win would mean for the signed-in tipper, shared
// by the tipping page's live stakes and a league ladder's. The points are the tipper's own,
// projected in the browser by the contract's rules from the cached round and their stored numbers
// (nothing is asked per ball); only the ranks are looked up, since they need everyone's.

/** How far a page spreads its lookups after the live sixes change, so pages do not ask at once. */
export const SPREAD_MS = 3000

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${formatCount(n)}${suffix}`
}

/**
 * The week's points a side's win would add, with their unit: "+1 pt", "+2 pts", "no points". A bare
 * "+1" or "±0" beside a place ("66th of 310, +1") read as places gained.
 */
export const pointsGained = (n: number): string => {
  const unit = Math.abs(n) === 1 ? 'pt' : 'pts'
  return n > 0 ? `+${n} ${unit}` : n === 0 ? 'no points' : `−${-n} ${unit}`
}

/**
 * `value` once it has held still for a random part of `maxMs`; the first number at once (a change
 * from or to null is the match becoming known, not a new count).
 */
function useSpread(value: number | null, maxMs: number): number | null {
  const [shown, setShown] = useState(value)
  useEffect(() => {
    if (Object.is(value, shown)) return
    const wait = value === null || shown === null ? 0 : Math.random() * maxMs
    const timer = setTimeout(() => setShown(value), wait)
    return () => clearTimeout(timer)
    // `shown` left out: a change of it is this effect's own doing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, maxMs])
  return shown
}

export interface SideProjection {
  side: SquadId
  name: string
  roundGain: number
  roundPoints: number
  totalPoints: number
  totalMargin: number
  leagues: (LiveStandingLeague & { projected: { points: number; margin: number } })[]
}

export interface LiveProjection {
  /** Each side's projection; empty until the round and stored numbers are in. */
  sides: SideProjection[]
  standing: LiveStandingResponse | undefined
  isMarginGame: boolean
  /** The margin game's live sixes as the lookups use them (spread); null on any other match. */
  sixes: number | null
  /** Reads the stored numbers again (a rank lookup answered 409 on `v`: the scores moved). */
  refetchStanding: () => unknown
}

/** The tipper's projection for each side of one live match of `round`. */
export function useLiveProjection(
  sport: Sport,
  round: RoundNumber,
  live: LiveMatch,
  spreadMs: number = SPREAD_MS,
): LiveProjection {
  const roundRead = useRoundQuery({ sport, round })
  const standing = useLiveStandingQuery({ sport, round })
  const squads = squadsById(useSquadsQuery(sport).data)
  const match = roundRead.data?.matches.find((m) => m.id === live.matchId)
  const isMarginGame = match?.isMarginGame ?? false
  // Only the margin game's sixes change anything; spread the lookups a change sets off.
  const sixes = useSpread(isMarginGame ? live.sixes : null, spreadMs)

  const sides = useMemo((): SideProjection[] => {
    // The margin game waits for its sixes: a projection without them would ask the wrong thing.
    if (!roundRead.data || !standing.data || !match || (isMarginGame && sixes === null)) return []
    const scoring = roundForScoring(0, roundRead.data)
    const stored = standing.data
    return [match.homeSquadId, match.awaySquadId].map((side) => {
      const projected = projectRound({
        userId: 0,
        ...scoring,
        outcome: { matchId: match.id, winnerSquadId: side, sixes: sixes ?? 0 },
      })
      const fromStored = (totals: { points: number; margin: number }) =>
        projectTotals(
          {
            totalPoints: totals.points,
            totalMargin: totals.margin,
            roundPoints: stored.round.points,
            roundMargin: stored.round.margin,
          },
          projected,
        )
      const total = fromStored(stored.total)
      const squad = squads.get(side)
      return {
        side,
        name: squad?.nickname ?? squad?.name ?? 'This side',
        roundGain: projected.points - stored.round.points,
        roundPoints: projected.points,
        totalPoints: total.points,
        totalMargin: total.margin,
        leagues: stored.leagues.map((l) => ({ ...l, projected: fromStored(l) })),
      }
    })
  }, [roundRead.data, standing.data, match, isMarginGame, sixes, squads])

  return {
    sides,
    standing: standing.data,
    isMarginGame,
    sixes,
    refetchStanding: standing.refetch,
  }
}

/** Whether a rank lookup failed because the server's scores are newer than the page's (409 on v). */
export const isStale = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'param' in error && error.param === 'v'

/** Reads the stored numbers again once a rank lookup finds the server's scores newer than them. */
export function useRefetchWhenStale(error: unknown, refetchStanding: () => unknown): void {
  const stale = isStale(error)
  useEffect(() => {
    if (stale) void refetchStanding()
  }, [stale, refetchStanding])
}

/** A looked-up place, "2nd of 4", or an ellipsis while it is asked. */
export const placeText = (place: { rank: number; totalUsers: number } | undefined): string =>
  place ? `${ordinal(place.rank)} of ${formatCount(place.totalUsers)}` : '…'
