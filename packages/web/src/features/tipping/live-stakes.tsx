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
import { formatCount } from '../../lib/numbers.ts'
import { squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import {
  useLeagueLiveRankQuery,
  useLiveRankQuery,
  useLiveStandingQuery,
} from './live-stakes-api.ts'
import { useRoundQuery } from './tipping-api.ts'
import styles from './live-stakes.module.css'

// GAME_RULES "Live projections": while a match is live, what each side's win would mean for the
// tipper. The points are the tipper's own, projected in the browser by the contract's rules from
// the cached round and their stored numbers; the ranks are looked up, since they need everyone's.

/** How far a page spreads its lookups after the live sixes change, so pages do not ask at once. */
const SPREAD_MS = 3000

export interface LiveStakesProps {
  sport: Sport
  round: RoundNumber
  live: LiveMatch
  /** Longest random wait before asking again after the sixes change (tests pass 0). */
  spreadMs?: number
}

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${formatCount(n)}${suffix}`
}

const signed = (n: number) => (n > 0 ? `+${n}` : n === 0 ? '±0' : `−${-n}`)

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

interface SideProjection {
  side: SquadId
  name: string
  roundGain: number
  roundPoints: number
  totalPoints: number
  totalMargin: number
  leagues: (LiveStandingLeague & { projected: { points: number; margin: number } })[]
}

export function LiveStakes({ sport, round, live, spreadMs = SPREAD_MS }: LiveStakesProps) {
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

  const stored = standing.data
  if (live.status !== 'active' || !stored || sides.length === 0) return null
  return (
    <section className={styles.stakes} aria-labelledby={`live-stakes-${live.matchId}`}>
      <h3 className={styles.title} id={`live-stakes-${live.matchId}`}>
        If it ends this way
        {isMarginGame && sixes !== null ? ` (${formatCount(sixes)} sixes)` : ''}
      </h3>
      <ul className={styles.sides}>
        {sides.map((s) => (
          <SideLine
            key={s.side}
            sport={sport}
            round={round}
            live={live}
            projection={s}
            standing={stored}
            sixes={sixes}
            onStale={standing.refetch}
          />
        ))}
      </ul>
    </section>
  )
}

function SideLine({
  sport,
  round,
  live,
  projection: p,
  standing,
  sixes,
  onStale,
}: {
  sport: Sport
  round: RoundNumber
  live: LiveMatch
  projection: SideProjection
  standing: LiveStandingResponse
  sixes: number | null
  /** The server's scores are newer than the stored numbers (a 409 on `v`): read them again. */
  onStale: () => unknown
}) {
  const arg = {
    sport,
    round,
    match: live.matchId,
    side: p.side,
    v: standing.scoresVersion,
    sixes,
  }
  const rank = useLiveRankQuery({ ...arg, totalPoints: p.totalPoints, totalMargin: p.totalMargin })
  const stale = rank.error !== undefined && 'param' in rank.error && rank.error.param === 'v'
  useEffect(() => {
    if (stale) void onStale()
  }, [stale, onStale])
  return (
    <li className={styles.side}>
      <p className={styles.line}>
        <strong>{p.name} win:</strong>{' '}
        <span>
          {rank.data ? `${ordinal(rank.data.rank)} of ${formatCount(rank.data.totalUsers)}` : '…'},{' '}
          {signed(p.roundGain)}
        </span>
      </p>
      <p className={styles.detail}>
        Week {formatCount(p.roundPoints)} pts, total {formatCount(p.totalPoints)} pts, margin{' '}
        {formatCount(p.totalMargin)}
      </p>
      {p.leagues.length > 0 && (
        <ul className={styles.leagues} aria-label={`Your leagues if the ${p.name} win`}>
          {p.leagues.map((l) => (
            <LeagueLine
              key={l.id}
              arg={{
                ...arg,
                league: l.id,
                totalPoints: l.projected.points,
                totalMargin: l.projected.margin,
              }}
              name={l.name}
            />
          ))}
        </ul>
      )}
    </li>
  )
}

function LeagueLine({
  arg,
  name,
}: {
  arg: Parameters<typeof useLeagueLiveRankQuery>[0] & object
  name: string
}) {
  const rank = useLeagueLiveRankQuery(arg)
  return (
    <li className={styles.league}>
      {name}:{' '}
      {rank.data ? `${ordinal(rank.data.rank)} of ${formatCount(rank.data.totalUsers)}` : '…'}
    </li>
  )
}
