import { z } from 'zod'

// Numbers that name rows, checked the same way wherever they arrive.
//
// Users, leagues, matches, squads and venues are `serial` (PostgreSQL integer) rows. A larger id
// names no row, but handed to the database it fails as out of range rather than as not found, so
// it is refused at the edge with the field named.
export const MAX_ROW_ID = 2_147_483_647

/** A row id in a JSON body. */
export const rowIdSchema = z.number().int().positive().max(MAX_ROW_ID)
/**
 * A key the client makes once for a write that creates or sends something (decision 049): the
 * same write sent again with it (an answer lost on the way, a resend after a 503) is not done
 * twice. Optional: without it, every send counts.
 */
export const requestIdSchema = z.uuid('A request id is a UUID').optional()
/** A row id in a path or query string. */
export const rowIdParamSchema = z.coerce.number().int().positive().max(MAX_ROW_ID)

/** A round's number within its season (a season has a few dozen at most). */
export const roundNumberSchema = z.number().int().min(1).max(1000).brand<'RoundNumber'>()
/** A round's number in a path or query string. */
export const roundNumberParamSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(1000)
  .brand<'RoundNumber'>()

/** A season's number within its sport (BBL|15 is 15). */
export const seasonNumberSchema = z.number().int().min(1).max(999)

// Branded ids (house style: units that can be confused get their own types). A round's number is
// not its id, and a squad id is not a match id, though all four are integers at run time: the
// brand exists only for the type checker (zod's `.brand` checks nothing more), so a function that
// wants a round NUMBER refuses a round ID at compile time.
//
// Up to three schemas per id: the checked one for JSON bodies, the coerced one for paths and query
// strings, and the reported one for what the server sends back, checked as an integer only, as the
// responses were before the brand (the server's own rows). A reported id is branded on both sides
// of its parse ('inout'): the web app's API layer types a response schema's input as its output.

export const matchIdSchema = rowIdSchema.brand<'MatchId'>()
export const matchIdParamSchema = rowIdParamSchema.brand<'MatchId'>()
export const reportedMatchIdSchema = z.number().int().brand<'MatchId', 'inout'>()
export type MatchId = z.infer<typeof matchIdSchema>

export const squadIdSchema = rowIdSchema.brand<'SquadId'>()
export const reportedSquadIdSchema = z.number().int().brand<'SquadId', 'inout'>()
export type SquadId = z.infer<typeof squadIdSchema>

export const reportedRoundIdSchema = z.number().int().brand<'RoundId', 'inout'>()
export type RoundId = z.infer<typeof reportedRoundIdSchema>

export const reportedRoundNumberSchema = z.number().int().brand<'RoundNumber', 'inout'>()
export type RoundNumber = z.infer<typeof roundNumberSchema>

// The brand constructors (schema-free, in their own module: decision 035).
export { asMatchId, asRoundId, asRoundNumber, asSquadId } from './id-casts.ts'
