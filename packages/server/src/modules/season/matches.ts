import type { Database } from '../../db/schema.ts'
import { ReadCache } from '../../read-cache.ts'
import { completedMatchRows } from './queries.ts'

// The competition's completed matches, the same for every reader between two results: My season
// and the head-to-head (decision 034) derive a tipper's effective tips and their numbers from
// these and the tipper's own rows, in memory, instead of joining the matches per request. A
// match only becomes complete (or changes winner or sixes) in a result's transaction, which also
// bumps competitions.scores_version (results/service.ts, scoring), so a list kept per scores
// version is never stale, only replaced; the readers take the version from their own statement.

/** A completed match as the season's numbers read it. */
export interface CompletedMatch {
  id: number
  round: number
  roundId: number
  homeSquadId: number
  awaySquadId: number
  winnerSquadId: number | null
  isMarginGame: boolean
  sixes: number | null
  /** Start, microseconds since the epoch (exact, compared with a registration's). */
  startsUs: number
}

export interface CompletedMatches {
  /** In play order: start, match number, id (the order streaks run in). */
  matches: CompletedMatch[]
  /** The rounds with a completed match, in order (the chart's rounds). */
  played: number[]
  /** Each round id's completed matches, in play order. */
  byRound: Map<number, CompletedMatch[]>
}

/** Two sports, each at its current version and perhaps the one before while it moves. */
const ENTRIES = 8

export class CompletedMatchesCache {
  private readonly cache = new ReadCache<CompletedMatches>(Number.POSITIVE_INFINITY, ENTRIES)

  constructor(private readonly db: Database) {}

  get(competitionId: number, scoresVersion: number): Promise<CompletedMatches> {
    return this.cache.get(`${competitionId}:${scoresVersion}`, async () => {
      const matches = (await completedMatchRows(this.db, competitionId)).map(
        (m): CompletedMatch => ({
          id: m.id,
          round: m.round,
          roundId: m.round_id,
          homeSquadId: m.home_squad_id,
          awaySquadId: m.away_squad_id,
          winnerSquadId: m.winner_squad_id,
          isMarginGame: m.is_margin_game,
          sixes: m.sixes,
          startsUs: m.starts_us,
        }),
      )
      const byRound = new Map<number, CompletedMatch[]>()
      for (const m of matches) {
        const list = byRound.get(m.roundId)
        if (list) list.push(m)
        else byRound.set(m.roundId, [m])
      }
      const played = [...new Set(matches.map((m) => m.round))].sort((a, b) => a - b)
      return { matches, played, byRound }
    })
  }
}

/** A tipper's own tip as stored: squad, Super Sixes prediction, stored auto-tip. */
export interface OwnTip {
  squad: number
  margin: number | null
  auto: boolean
}

/**
 * The tipper's effective tip on a completed match, as the effective_tips view derives it: their
 * own, or, registered before the match started, the auto-tip (the away squad; 0 sixes on the
 * margin game). Not registered (registeredUs null): none at all, as the view's join has it.
 */
export function effectiveTip(
  m: CompletedMatch,
  own: OwnTip | undefined,
  registeredUs: number | null,
): OwnTip | null {
  if (registeredUs === null) return null
  if (own) return own
  if (registeredUs < m.startsUs)
    return { squad: m.awaySquadId, margin: m.isMarginGame ? 0 : null, auto: true }
  return null
}
