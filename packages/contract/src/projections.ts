import { z } from 'zod'
import {
  MAX_ROW_ID,
  matchIdParamSchema,
  reportedRoundNumberSchema,
  rowIdParamSchema,
} from './ids.ts'
import type { PredictionsResponse } from './predictions.ts'
import type { ScoringMatch, ScoringTip } from './rules/scoring.ts'

// Live projections (GAME_RULES "Live projections", rules/projections.ts): what a tipper would have
// if a live match's side won. The page works out its own projected points from its tips; the
// server answers only where that puts it among everyone else, from a distribution of everyone's
// projected totals it keeps per scores version, match and sixes so far.

/** A projected score: points, then margin, as the rankings order them. */
const scoreSchema = z.object({ points: z.number().int(), margin: z.number().int() })

/**
 * A rank lookup. The answer depends on these parameters alone (`v` and `sixes` name the data it
 * is computed from), so a shared cache may keep it; a lookup for data the server no longer holds
 * (an older or newer `v`, other sixes than the live score's) is a 409 naming the field.
 */
export const liveRankQuerySchema = z.object({
  match: matchIdParamSchema,
  /** The squad assumed to win. */
  side: rowIdParamSchema.brand<'SquadId'>(),
  /** Projected total points and margin (overall, or in the league from its start round). */
  totalPoints: z.coerce.number().int().min(0).max(100_000),
  totalMargin: z.coerce.number().int().min(0).max(100_000),
  /** The competition's scores version the page's stored numbers came from (a PostgreSQL integer). */
  v: z.coerce.number().int().min(0).max(MAX_ROW_ID),
  /** The live sixes so far: required on the margin game, ignored on any other match. */
  sixes: z.coerce.number().int().min(0).max(200).optional(),
})
export type LiveRankQuery = z.infer<typeof liveRankQuerySchema>

/** Where a projected total would rank: among every ranked tipper, or a league's active members. */
export const liveRankResponseSchema = z.object({
  rank: z.number().int(),
  totalUsers: z.number().int(),
})
export type LiveRankResponse = z.infer<typeof liveRankResponseSchema>

/** One of the tipper's leagues, with what its ladder holds for them now. */
export const liveStandingLeagueSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  startRound: reportedRoundNumberSchema,
  /** Summed from the league's start round, as the ladder sums them. */
  points: z.number().int(),
  margin: z.number().int(),
})
export type LiveStandingLeague = z.infer<typeof liveStandingLeagueSchema>

/**
 * The tipper's stored numbers a projection starts from: the round's, the season's, and each
 * league's that counts the round; `scoresVersion` is what a rank lookup names as `v`.
 */
export const liveStandingResponseSchema = z.object({
  scoresVersion: z.number().int(),
  round: scoreSchema,
  total: scoreSchema,
  leagues: z.array(liveStandingLeagueSchema),
})
export type LiveStandingResponse = z.infer<typeof liveStandingResponseSchema>

/**
 * A round as the tipping page has it (its matches with results so far, the user's picks with
 * auto-tips on locked matches) in the reference scorer's terms: what rules/projections.ts
 * projects from. Squad 0 is no pick.
 */
export function roundForScoring(
  userId: number,
  response: Pick<PredictionsResponse, 'round' | 'matches' | 'predictions'>,
): { roundNumber: number; goldenWeek: boolean; matches: ScoringMatch[]; tips: ScoringTip[] } {
  const roundNumber = response.round.number
  return {
    roundNumber,
    goldenWeek: response.round.isGoldenWeek,
    matches: response.matches.map((m) => ({
      id: m.id,
      roundNumber,
      status: m.status,
      winnerSquadId: m.winnerSquadId,
      isMarginGame: m.isMarginGame,
      sixes: m.sixes,
    })),
    tips: response.predictions.flatMap((p) =>
      p.squad === 0
        ? []
        : [
            {
              userId,
              matchId: p.match,
              squadId: p.squad,
              margin: p.margin,
              isAutoTip: p.isAutoTip,
            },
          ],
    ),
  }
}
