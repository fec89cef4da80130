import { z } from 'zod'

// Numbers that name rows, checked the same way wherever they arrive.
//
// Users, leagues, matches, squads and venues are `serial` (PostgreSQL integer) rows. A larger id
// names no row, but handed to the database it fails as out of range rather than as not found, so
// it is refused at the edge with the field named.
export const MAX_ROW_ID = 2_147_483_647

/** A row id in a JSON body. */
export const rowIdSchema = z.number().int().positive().max(MAX_ROW_ID)
/** A row id in a path or query string. */
export const rowIdParamSchema = z.coerce.number().int().positive().max(MAX_ROW_ID)

/** A round's number within its season (a season has a few dozen at most). */
export const roundNumberSchema = z.number().int().min(1).max(1000)
/** A round's number in a path or query string. */
export const roundNumberParamSchema = z.coerce.number().int().min(1).max(1000)

/** A season's number within its sport (BBL|15 is 15). */
export const seasonNumberSchema = z.number().int().min(1).max(999)
