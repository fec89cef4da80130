import { z } from 'zod'
import {
  reportedMatchIdSchema,
  reportedRoundNumberSchema,
  reportedSquadIdSchema,
  roundNumberParamSchema,
  rowIdParamSchema,
} from './ids.ts'

// `GET /api/{sport}/league/{id}/head-to-head?a={userId}&b={userId}[&round=N]` (issue 31): two
// members' season record against each other in the league, and the tips they differed on in one
// round. The rules are rules/head-to-head.ts.

export const headToHeadQuerySchema = z
  .object({
    a: rowIdParamSchema,
    b: rowIdParamSchema,
    /** The round whose tips are compared; by default the latest round in the record. */
    round: roundNumberParamSchema.optional(),
  })
  .refine((q) => q.a !== q.b, { message: 'Choose two different tippers', path: ['b'] })
export type HeadToHeadQuery = z.infer<typeof headToHeadQuerySchema>

const sideSchema = z.object({
  userId: z.number().int(),
  teamName: z.string().nullable(),
  firstName: z.string(),
  lastNameInitial: z.string(),
  /** Rounds this tipper won. */
  won: z.number().int(),
  /** Points and margin summed over the rounds in the record. */
  points: z.number().int(),
  margin: z.number().int(),
})
export type HeadToHeadSide = z.infer<typeof sideSchema>

const scoreSchema = z.object({ points: z.number().int(), margin: z.number().int() })

export const headToHeadRoundSchema = z.object({
  round: reportedRoundNumberSchema,
  complete: z.boolean(),
  a: scoreSchema,
  b: scoreSchema,
  /** null while the round is being played. */
  winner: z.enum(['a', 'b', 'draw']).nullable(),
})
export type HeadToHeadRoundRow = z.infer<typeof headToHeadRoundSchema>

const tipSchema = z.object({
  squad: reportedSquadIdSchema,
  /** Super Sixes prediction (margin game only). */
  margin: z.number().int().nullable(),
  isAutoTip: z.boolean(),
  /** Named the winner; null when the match ended without one. */
  correct: z.boolean().nullable(),
})
export type HeadToHeadTipView = z.infer<typeof tipSchema>

export const tipDifferenceSchema = z.object({
  match: reportedMatchIdSchema,
  homeSquad: reportedSquadIdSchema,
  awaySquad: reportedSquadIdSchema,
  winnerSquad: reportedSquadIdSchema.nullable(),
  isMarginGame: z.boolean(),
  sixes: z.number().int().nullable(),
  /** null: no tip (the match started before they joined). */
  a: tipSchema.nullable(),
  b: tipSchema.nullable(),
})
export type TipDifferenceView = z.infer<typeof tipDifferenceSchema>

export const headToHeadResponseSchema = z.object({
  startRound: reportedRoundNumberSchema,
  a: sideSchema,
  b: sideSchema,
  drawn: z.number().int(),
  rounds: z.array(headToHeadRoundSchema),
  /** The chosen round's completed matches compared; null when there is no round yet. */
  tips: z
    .object({
      round: reportedRoundNumberSchema,
      /** Completed matches both tipped alike. */
      agreed: z.number().int(),
      differences: z.array(tipDifferenceSchema),
    })
    .nullable(),
})
export type HeadToHeadResponse = z.infer<typeof headToHeadResponseSchema>
