import { scoreRound, type ScoringMatch, type ScoringTip } from './scoring.ts'

// GAME_RULES "Live projections": what a tipper would have if a live match ended with one side
// winning. Nothing here scores: the round is handed to the reference scorer (scoreRound) with that
// one match set complete, so a projection cannot differ from what the result will give. Every
// other match keeps its state: a completed one its result, a live or open one stays undecided.

/** The outcome a projection assumes: `matchId` won by `winnerSquadId`, `sixes` hit so far. */
export interface ProjectedOutcome {
  matchId: number
  winnerSquadId: number
  /** The live sixes so far, taken as the final count when the match is the margin game. */
  sixes: number
}

/** The round's matches as they would stand if the live match ended as `outcome` says. */
export function withOutcome(
  matches: readonly ScoringMatch[],
  outcome: ProjectedOutcome,
): ScoringMatch[] {
  return matches.map((m) =>
    m.id === outcome.matchId
      ? {
          ...m,
          status: 'complete',
          winnerSquadId: outcome.winnerSquadId,
          sixes: m.isMarginGame ? outcome.sixes : m.sixes,
        }
      : m,
  )
}

export interface RoundProjectionInput {
  userId: number
  roundNumber: number
  goldenWeek: boolean
  /** The round's matches with their results so far. */
  matches: readonly ScoringMatch[]
  /** The user's tips in the round, auto-tips included (a late registrant may have none). */
  tips: readonly ScoringTip[]
  outcome: ProjectedOutcome
}

/** The user's round points and round margin if the live match ends as `outcome` says. */
export function projectRound(input: RoundProjectionInput): { points: number; margin: number } {
  const { points, margin } = scoreRound(
    input.userId,
    input.roundNumber,
    withOutcome(input.matches, input.outcome),
    input.tips,
    input.goldenWeek,
  )
  return { points, margin }
}

/** What the tipper has stored: season totals, and the round's part of them. */
export interface StoredScores {
  totalPoints: number
  totalMargin: number
  roundPoints: number
  roundMargin: number
}

/**
 * Season totals with the round's stored numbers replaced by projected ones: the other rounds are
 * unchanged by a result, so this is what the standings will hold.
 */
export function projectTotals(
  stored: StoredScores,
  round: { points: number; margin: number },
): { points: number; margin: number } {
  return {
    points: stored.totalPoints - stored.roundPoints + round.points,
    margin: stored.totalMargin - stored.roundMargin + round.margin,
  }
}

/** How many tippers have one (points, margin): a distribution of projected totals. */
export interface ScoreGroup {
  points: number
  margin: number
  count: number
}

/**
 * The rank (SQL RANK(): points descending, then margin ascending, equals sharing) that (points,
 * margin) takes among the tippers of `groups`, the asker included: one more than the tippers
 * strictly ahead. Equal to rankRows' rank for any row of the distribution.
 */
export function rankIn(groups: readonly ScoreGroup[], points: number, margin: number): number {
  let ahead = 0
  for (const g of groups)
    if (g.points > points || (g.points === points && g.margin < margin)) ahead += g.count
  return ahead + 1
}
