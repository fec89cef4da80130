import { z } from 'zod'
import {
  reportedMatchIdSchema,
  reportedRoundNumberSchema,
  reportedSquadIdSchema,
  roundNumberParamSchema,
} from './ids.ts'
import { lifecycleSchema, reportedPickSchema } from './predictions.ts'

// The My season page (issue 31): GET /api/{sport}/season and GET /api/{sport}/season/rounds/{round}.
// What each number means is rules/season.ts (the reference) and the help's FAQ entry.

const count = z.number().int().min(0)

export const seasonTeamSchema = z.object({
  squad: reportedSquadIdSchema,
  correct: count,
  tipped: count,
})
export type SeasonTeam = z.infer<typeof seasonTeamSchema>

export const seasonRoundSchema = z.object({
  round: reportedRoundNumberSchema,
  isGoldenWeek: z.boolean(),
  /** The caller's points in the round. */
  points: count,
  /** Ranked tippers in the round, and their average (one decimal) and best points. */
  tippers: count,
  average: z.number().nullable(),
  best: count,
  /**
   * The caller's overall rank after the round (points then margin through it, over today's
   * ranked tippers; rules/season.ts rankHistory); null while the round is being re-counted after
   * a result (seconds) or when the caller is not ranked.
   */
  rank: z.number().int().min(1).nullable(),
})
export type SeasonRound = z.infer<typeof seasonRoundSchema>

export const seasonSchema = z.object({
  tips: z.object({
    /** Tips (own and auto) on completed matches with a winner, and how many were right. */
    judged: count,
    correct: count,
    /** Whole percent, null before any tip was judged. */
    percent: z.number().int().nullable(),
  }),
  /** Best read first (share right, then more tips). */
  teams: z.array(seasonTeamSchema),
  streaks: z.object({ longest: count, current: count }),
  /** Rounds that earned the Clean Sweep Bonus. */
  cleanSweeps: z.array(reportedRoundNumberSchema),
  /** Points in the Golden Week round; null when the season has none. */
  goldenWeek: z.object({ round: reportedRoundNumberSchema, points: count }).nullable(),
  autoTips: z.object({
    /** Auto-tips on decided matches that named the loser. */
    wrong: count,
    /** Correct auto-tips that did not count (the auto-tip limit). */
    notCounted: count,
  }),
  superSixes: z.object({
    /** Completed margin games (sixes known) the caller had a tip on. */
    games: count,
    averageMiss: z.number().nullable(),
    bestMiss: count.nullable(),
  }),
  /** Every round with a completed match, in order. */
  rounds: z.array(seasonRoundSchema),
})
export type Season = z.infer<typeof seasonSchema>

export const seasonRoundParamsSchema = z.object({ round: roundNumberParamSchema })

export const TIP_VERDICTS = [
  'not-tipped',
  'pending',
  'no-result',
  'wrong',
  'counted',
  'auto-counted',
  'auto-not-counted',
] as const
export const SWEEP_VERDICTS = [
  'earned',
  'round-not-over',
  'missed-a-winner',
  'auto-tip',
  'no-winner',
] as const

export const explainedTipSchema = z.object({
  match: reportedMatchIdSchema,
  /** Start time, ISO 8601 UTC. */
  date: z.string(),
  status: lifecycleSchema,
  homeSquadId: reportedSquadIdSchema,
  awaySquadId: reportedSquadIdSchema,
  winnerSquadId: reportedSquadIdSchema.nullable(),
  /** 0 when the caller has no tip. */
  squad: reportedPickSchema,
  isAutoTip: z.boolean(),
  correct: z.boolean().nullable(),
  counted: z.boolean().nullable(),
  verdict: z.enum(TIP_VERDICTS),
  points: count,
  isMarginGame: z.boolean(),
  /** The caller's sixes prediction (null: none, measured as 0), the sixes hit, the miss. */
  margin: z.number().int().nullable(),
  sixes: z.number().int().nullable(),
  marginResult: z.number().int().nullable(),
})
export type ExplainedTip = z.infer<typeof explainedTipSchema>

export const roundExplanationSchema = z.object({
  round: reportedRoundNumberSchema,
  isGoldenWeek: z.boolean(),
  /** What one counted tip is worth this round. */
  pointsPerTip: count,
  tips: z.array(explainedTipSchema),
  correct: count,
  counted: count,
  tipPoints: count,
  bonus: count,
  sweep: z.enum(SWEEP_VERDICTS),
  points: count,
  margin: count,
  /** The caller's rank in the round and overall as the rankings show them (0: not ranked yet). */
  roundRank: count,
  overallRank: count,
  overallPoints: count,
  overallMargin: count,
  tieBreak: z.string(),
})
export type RoundExplanation = z.infer<typeof roundExplanationSchema>

// GET /api/{sport}/season/leagues/{id} (issue 31, "the same for each of my leagues"): the
// caller's points per round against the league's, and their rank in the league after each round.
// Reference: rules/season.ts leagueSeason.

export const seasonLeagueRoundSchema = z.object({
  round: reportedRoundNumberSchema,
  /** The caller's points in the round. */
  points: count,
  /** The league's ranked members with a score in the round, their average (one decimal) and best. */
  tippers: count,
  average: z.number().nullable(),
  best: count,
  /**
   * The caller's rank in the league after the round: points then margin from the league's start
   * round through it, over its ranked members; null when the caller is not ranked.
   */
  rank: z.number().int().min(1).nullable(),
})
export type SeasonLeagueRound = z.infer<typeof seasonLeagueRoundSchema>

export const seasonLeagueSchema = z.object({
  league: z.object({
    id: z.number().int(),
    name: z.string(),
    startRound: reportedRoundNumberSchema,
  }),
  /** Every round from the league's start round with a completed match, in order. */
  rounds: z.array(seasonLeagueRoundSchema),
})
export type SeasonLeague = z.infer<typeof seasonLeagueSchema>
