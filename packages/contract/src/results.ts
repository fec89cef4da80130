import { z } from 'zod'
import { singleLineText } from './text.ts'
import { matchIdParamSchema, squadIdSchema } from './ids.ts'
import { matchOutcomeSchema } from './predictions.ts'

const overs = z.string().regex(/^\d{1,2}(\.[0-5])?$/, 'Overs as cricket notation, e.g. 19.5')
const innings = z.object({
  runs: z.number().int().min(0).max(1000),
  wickets: z.number().int().min(0).max(10),
  overs,
  /** Only for a rain-reduced innings: the overs it was allotted. */
  oversAllotted: overs.optional(),
})

/** An admin's result for one match (set, or corrected later). */
export const matchResultBodySchema = z
  .object({
    outcome: matchOutcomeSchema,
    winnerSquadId: squadIdSchema.nullable(),
    home: innings.nullable(),
    away: innings.nullable(),
    sixes: z.number().int().min(0).max(200).nullable(),
    method: singleLineText().max(20).nullable().optional(),
  })
  .refine((r) => (r.outcome === 'win') === (r.winnerSquadId !== null), {
    message: 'A win needs a winner; a no result or tie has none',
    path: ['winnerSquadId'],
  })
export type MatchResultBody = z.infer<typeof matchResultBodySchema>

export const matchIdParamsSchema = z.object({ id: matchIdParamSchema })
