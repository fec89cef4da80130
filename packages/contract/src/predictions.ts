import { z } from 'zod'
import {
  matchIdSchema,
  reportedMatchIdSchema,
  reportedRoundIdSchema,
  reportedRoundNumberSchema,
  reportedSquadIdSchema,
  roundNumberParamSchema,
  squadIdSchema,
} from './ids.ts'
import { MARGIN_MAX, MARGIN_MIN } from './constants.ts'
import { receiptSchema } from './receipts.ts'

export const LIFECYCLE = ['scheduled', 'active', 'complete'] as const
export const lifecycleSchema = z.enum(LIFECYCLE)
export type Lifecycle = z.infer<typeof lifecycleSchema>

export const matchOutcomeSchema = z.enum(['win', 'no_result', 'tie'])
export type MatchOutcome = z.infer<typeof matchOutcomeSchema>

export const matchSchema = z.object({
  id: reportedMatchIdSchema,
  number: z.number().int(),
  status: lifecycleSchema,
  /** Start (lockout) time, ISO 8601 UTC. */
  date: z.string(),
  homeSquadId: reportedSquadIdSchema,
  awaySquadId: reportedSquadIdSchema,
  homeRuns: z.number().int().nullable(),
  awayRuns: z.number().int().nullable(),
  homeWicketsFallen: z.number().int().nullable(),
  awayWicketsFallen: z.number().int().nullable(),
  homeOvers: z.string().nullable(),
  awayOvers: z.string().nullable(),
  venueId: z.number().int(),
  class: z.string(),
  isMarginGame: z.boolean(),
  winnerSquadId: reportedSquadIdSchema.nullable(),
  outcome: matchOutcomeSchema.nullable(),
  sixes: z.number().int().nullable(),
  home_percent: z.number(),
  away_percent: z.number(),
  /** When the server's lockout locked the match (ISO 8601 UTC, ms); absent or null until then. */
  lockedAt: z.string().nullable().optional(),
})
export type Match = z.infer<typeof matchSchema>

export const roundSchema = z.object({
  id: reportedRoundIdSchema,
  number: reportedRoundNumberSchema,
  label: z.string(),
  status: lifecycleSchema,
  startDate: z.string(),
  endDate: z.string(),
  isGoldenWeek: z.boolean(),
})
export type Round = z.infer<typeof roundSchema>

/**
 * A tip's squad as the server reports it: 0 when untipped (the picks rules), so `SquadId | 0`. The
 * branded integer comes first so any integer parses as before.
 */
export const reportedPickSchema = z.union([reportedSquadIdSchema, z.literal(0)])

/** One pick as the server reports it: the user's tip (or squad 0 when untipped) on one match. */
export const predictionSchema = z.object({
  match: reportedMatchIdSchema,
  squad: reportedPickSchema,
  margin: z.number().int().nullable(),
  isMarginGame: z.boolean(),
  isAutoTip: z.boolean(),
  /** Present (true) on a tip the autopilot placed; a tip the player saved has none (decision 026). */
  isAutopilot: z.literal(true).optional(),
  isCorrect: z.boolean().nullable(),
  counted: z.boolean().nullable(),
  marginResult: z.number().int().nullable(),
  status: lifecycleSchema,
})
export type Prediction = z.infer<typeof predictionSchema>

export const roundParamsSchema = z.object({ round: roundNumberParamSchema })

export const predictionsResponseSchema = z.object({
  round: roundSchema,
  matches: z.array(matchSchema),
  predictions: z.array(predictionSchema),
})
export type PredictionsResponse = z.infer<typeof predictionsResponseSchema>

export const marginSchema = z.number().int().min(MARGIN_MIN).max(MARGIN_MAX)

export const tipInputSchema = z.object({
  match: matchIdSchema,
  squad: squadIdSchema,
  margin: marginSchema.nullable().optional(),
})
export type TipInput = z.infer<typeof tipInputSchema>

export const savePredictionsBodySchema = z.object({
  predictions: z.array(tipInputSchema).min(1, 'Pick at least one squad').max(100),
})
export type SavePredictionsBody = z.infer<typeof savePredictionsBodySchema>

export const savePredictionsResponseSchema = z.object({
  predictions: z.array(predictionSchema),
  /**
   * The write's receipt (decision 027): a save, an autopick and a clear each answer with one
   * (decision 029), also when they changed nothing.
   */
  receipt: receiptSchema,
})
export type SavePredictionsResponse = z.infer<typeof savePredictionsResponseSchema>
