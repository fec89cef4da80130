import { sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

type Db = Kysely<DB> | Transaction<DB>

/** Every stored content setting (key -> JSON value). */
export const contentRows = (db: Db) =>
  db.selectFrom('content_settings').select(['key', 'value']).execute()

/** The stored value of one setting, or undefined when it was never set. */
export const contentRow = (db: Db, key: string) =>
  db.selectFrom('content_settings').select('value').where('key', '=', key).executeTakeFirst()

/** Inserts or replaces one setting. */
export async function upsertContent(db: Db, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value)
  await db
    .insertInto('content_settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: sql`now()` }))
    .execute()
}
