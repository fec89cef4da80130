import { z } from 'zod'

// Users, leagues, matches, squads and venues are `serial` (PostgreSQL integer) rows. A larger id
// names no row, but handed to the database it fails as out of range rather than as not found, so
// it is refused at the edge with the field named.
export const MAX_ROW_ID = 2_147_483_647

/** A row id in a JSON body. */
export const rowIdSchema = z.number().int().positive().max(MAX_ROW_ID)
/** A row id in a path or query string. */
export const rowIdParamSchema = z.coerce.number().int().positive().max(MAX_ROW_ID)
