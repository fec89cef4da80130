import { z } from 'zod'
import { singleLineText } from './text.ts'
import {
  matchIdSchema,
  reportedMatchIdSchema,
  reportedRoundNumberSchema,
  roundNumberParamSchema,
  roundNumberSchema,
  rowIdParamSchema,
} from './ids.ts'
import { LADDER_PAGE_SIZE } from './constants.ts'
import { predictionSchema, reportedPickSchema, tipInputSchema } from './predictions.ts'
import { receiptSchema } from './receipts.ts'

// Score summary, other tippers' tips, rankings and the dashboard (spec 3 and 7).

export const snapshotBodySchema = z.object({ round: roundNumberSchema.optional() })
export const snapshotSchema = z.object({
  round_points: z.number().int(),
  overall_points: z.number().int(),
  /** 0 until the user has a rank (before the first result). */
  overall_rank: z.number().int(),
  round: reportedRoundNumberSchema,
  max_round_points: z.number().int(),
  max_total_points: z.number().int(),
  total_users: z.number().int(),
})
export type Snapshot = z.infer<typeof snapshotSchema>

export const tipperSchema = z.object({
  userId: z.number().int(),
  teamName: z.string().nullable(),
  firstName: z.string(),
  lastNameInitial: z.string(),
})
export type Tipper = z.infer<typeof tipperSchema>

/**
 * The first character of a last name, as `lastNameInitial` shows it: a whole code point, so a
 * name starting outside the BMP keeps its character (the database's left(name, 1) agrees).
 */
export const initialOf = (lastName: string): string =>
  lastName.slice(0, (lastName.codePointAt(0) ?? 0) > 0xffff ? 2 : 1)

export const userTipsParamsSchema = z.object({
  round: roundNumberParamSchema,
  userId: rowIdParamSchema,
})
export const userTipsResponseSchema = z.object({
  user: tipperSchema,
  /** Only matches that are complete: nobody sees another tipper's open tips. */
  predictions: z.array(predictionSchema),
})
export type UserTipsResponse = z.infer<typeof userTipsResponseSchema>

/** The tip row: what fellow league members tipped on each completed match of a round. */
export const LEAGUE_MATES_TIPS_LIMIT = 60
export const mateTipSchema = tipperSchema.extend({
  squad: reportedPickSchema,
  margin: z.number().int().nullable(),
  isAutoTip: z.boolean(),
})
export type MateTip = z.infer<typeof mateTipSchema>
export const leagueMatesTipsResponseSchema = z.object({
  /** Completed matches only, each with at most LEAGUE_MATES_TIPS_LIMIT tips, by name. */
  matches: z.array(z.object({ match: reportedMatchIdSchema, tips: z.array(mateTipSchema) })),
})
export type LeagueMatesTipsResponse = z.infer<typeof leagueMatesTipsResponseSchema>

export const matchListBodySchema = z.object({
  predictions: z
    .array(z.object({ match: matchIdSchema }))
    .min(1)
    .max(100),
})
export type MatchListBody = z.infer<typeof matchListBodySchema>

export const singleTipBodySchema = tipInputSchema
export const singleTipResponseSchema = z.object({
  prediction: predictionSchema,
  /** The save's receipt (decision 027). */
  receipt: receiptSchema.optional(),
})

export const rankingRowSchema = tipperSchema.extend({
  rank: z.number().int(),
  points: z.number().int(),
  totalPoints: z.number().int(),
  margin: z.number().int(),
  totalMargin: z.number().int(),
})
export type RankingRow = z.infer<typeof rankingRowSchema>

export const rankingsQuerySchema = z.object({
  search: singleLineText().max(50).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(LADDER_PAGE_SIZE).default(LADDER_PAGE_SIZE),
  /** A round number for the week view; omitted for overall (OVR). */
  round: roundNumberParamSchema.optional(),
})
export type RankingsQuery = z.infer<typeof rankingsQuerySchema>

export const rankingsResponseSchema = z.object({
  rankings: z.array(rankingRowSchema),
  nextPage: z.number().int().nullable(),
  /** The caller's own row, for showing it above the table when it is not on the page. */
  user: rankingRowSchema.nullable(),
  /** False until the competition's first match is complete. */
  available: z.boolean(),
})
export type RankingsResponse = z.infer<typeof rankingsResponseSchema>

/** A league's ladder page: the same rows, plus whether the caller runs the league. */
export const leagueLadderResponseSchema = z.object({
  rankings: z.array(rankingRowSchema),
  nextPage: z.number().int().nullable(),
  user: rankingRowSchema.nullable(),
  isCommissioner: z.boolean(),
  /**
   * The scores version (competitions.scores_version) the ladder was built at. A big league's
   * ladder is served at the previous version for the seconds its next one builds after a result
   * (decision 020); this says which one the rows are.
   */
  scoresVersion: z.number().int(),
})
export type LeagueLadderResponse = z.infer<typeof leagueLadderResponseSchema>

export const dashboardSchema = z.object({
  sports: z.array(
    z.object({
      sport: z.string(),
      name: z.string(),
      registered: z.boolean(),
      round: reportedRoundNumberSchema.nullable(),
      round_points: z.number().int(),
      overall_points: z.number().int(),
      overall_rank: z.number().int(),
      total_users: z.number().int(),
    }),
  ),
})
export type Dashboard = z.infer<typeof dashboardSchema>
