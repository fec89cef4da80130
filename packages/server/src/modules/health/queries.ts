import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export const ping = async (db: Database): Promise<void> => {
  await sql`select 1`.execute(db)
}
