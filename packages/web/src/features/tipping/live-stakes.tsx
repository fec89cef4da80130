import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import type { LiveMatch } from '@tipping/contract/live'
import { placeText, SPREAD_MS, useRefetchWhenStale } from '../../lib/live-projection.ts'
import { useLeagueLiveRankQuery, useLiveRankQuery } from '../../lib/live-stakes-api.ts'
import { formatCount } from '../../lib/numbers.ts'
import { LiveStakesBox, LiveStakesSide, type LiveSideProps } from '../../ui/live-stakes.tsx'
import styles from '../../ui/live-stakes.module.css'

// GAME_RULES "Live projections" on the tipping page: under a live match, what each side's win
// would mean for the tipper overall and in each of their leagues (lib/live-projection.ts; the box
// and its rows are the league ladder's too, ui/live-stakes.tsx).

export interface LiveStakesProps {
  sport: Sport
  round: RoundNumber
  live: LiveMatch
  /** Longest random wait before asking again after the sixes change (tests pass 0). */
  spreadMs?: number
}

export function LiveStakes({ sport, round, live, spreadMs = SPREAD_MS }: LiveStakesProps) {
  return (
    <LiveStakesBox
      sport={sport}
      round={round}
      live={live}
      spreadMs={spreadMs}
      id={`live-stakes-${live.matchId}`}
      heading="h3"
      title="If it ends this way"
      side={(props) => <SideLine {...props} />}
    />
  )
}

function SideLine({ sport, round, live, projection: p, standing, sixes, onStale }: LiveSideProps) {
  const arg = {
    sport,
    round,
    match: live.matchId,
    side: p.side,
    v: standing.scoresVersion,
    sixes,
  }
  const rank = useLiveRankQuery({ ...arg, totalPoints: p.totalPoints, totalMargin: p.totalMargin })
  useRefetchWhenStale(rank.error, onStale)
  return (
    <LiveStakesSide name={p.name} place={rank.data} gain={p.roundGain}>
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
    </LiveStakesSide>
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
      {name}: {placeText(rank.data)}
    </li>
  )
}
