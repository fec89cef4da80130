import { useSelector } from 'react-redux'
import { skipToken } from '@reduxjs/toolkit/query'
import { REFRESH_INTERVAL_MS, type Sport } from '@tipping/contract/constants'
import { asRoundNumber } from '@tipping/contract/ids'
import type { League } from '@tipping/contract/leagues'
import { defaultRoundId } from '@tipping/contract/rules/rounds'
import { useLiveRoundQuery } from '../../lib/live-api.ts'
import { SPREAD_MS, useRefetchWhenStale } from '../../lib/live-projection.ts'
import { useLeagueLiveRankQuery } from '../../lib/live-stakes-api.ts'
import { formatCount } from '../../lib/numbers.ts'
import { selectPushConnected } from '../../lib/push-slice.ts'
import { useRoundQuery } from '../../lib/round-api.ts'
import { useFixtureQuery } from '../../lib/static-api.ts'
import { LiveStakesBox, LiveStakesSide, type LiveSideProps } from '../../ui/live-stakes.tsx'

// Issue 30 on a league's ladder (GAME_RULES "Live projections"): while a match of the current week
// is live, the signed-in member's place in THIS league and their points if each side wins. The
// same reads as the tipping page's live stakes (lib/live-projection.ts): the round and the stored
// numbers once, the live score moved by the push channel, and one cached rank lookup per side
// (GET /api/{sport}/league/{id}/live-rank), asked again only when the margin game's sixes or the
// scores version change. When the result lands the match is no longer live, so this goes and the
// ladder, read again by the channel's spread refetch, holds the real numbers.

/** With the push channel open nothing is polled; without it, the 31 s refresh (decision 017). */
const PUSHED = { pollingInterval: 0 }
const REFRESHED = { pollingInterval: REFRESH_INTERVAL_MS, skipPollingIfUnfocused: true }

interface Props {
  sport: Sport
  league: League
  /** Longest random wait before asking again after the sixes change (tests pass 0). */
  spreadMs?: number
}

export function LeagueLiveStakes({ sport, league, spreadMs = SPREAD_MS }: Props) {
  const refresh = useSelector(selectPushConnected) ? PUSHED : REFRESHED
  const rounds = useFixtureQuery(sport).data?.rounds
  // The current week: the open one, as the tipping page shows first.
  const currentId = rounds ? defaultRoundId(rounds) : null
  const current = rounds?.find((r) => r.id === currentId)
  const round = current ? asRoundNumber(current.number) : null
  // Only a member's own numbers are projected, and only from the league's start week.
  const counts = league.isMember && round !== null && round >= league.startRound
  const roundArg = counts && round !== null ? { sport, round } : skipToken
  const roundRead = useRoundQuery(roundArg, refresh)
  const anyActive = roundRead.data?.matches.some((m) => m.status === 'active') ?? false
  const live = useLiveRoundQuery(anyActive ? roundArg : skipToken, refresh).data
  const matches = (live?.matches ?? []).filter((m) => m.status === 'active')
  if (round === null || matches.length === 0) return null
  return (
    <>
      {matches.map((m) => (
        <LiveStakesBox
          key={m.matchId}
          sport={sport}
          round={round}
          live={m}
          spreadMs={spreadMs}
          id={`league-live-${league.id}-${m.matchId}`}
          heading="h2"
          title="Live: your place here if it ends this way"
          // The league counts this week for the member only when their stored numbers list it.
          shows={(standing) => standing.leagues.some((l) => l.id === league.id)}
          side={(props) => <SideLine {...props} league={league} />}
        />
      ))}
    </>
  )
}

function SideLine({
  sport,
  round,
  live,
  league,
  projection: p,
  standing,
  sixes,
  onStale,
}: LiveSideProps & { league: League }) {
  const mine = p.leagues.find((l) => l.id === league.id)
  const rank = useLeagueLiveRankQuery(
    mine
      ? {
          sport,
          round,
          league: league.id,
          match: live.matchId,
          side: p.side,
          v: standing.scoresVersion,
          sixes,
          totalPoints: mine.projected.points,
          totalMargin: mine.projected.margin,
        }
      : skipToken,
  )
  // A result moved the scores since the stored numbers were read: read them again.
  useRefetchWhenStale(rank.error, onStale)
  if (!mine) return null
  return (
    <LiveStakesSide
      name={p.name}
      place={rank.data}
      gain={p.roundGain}
      aside={`(${formatCount(mine.projected.points)} pts)`}
    />
  )
}
