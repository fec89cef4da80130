import { sql, type Kysely } from 'kysely'

// Frozen. The key the browser sends with a new league (decision 049), so the same create sent
// again (an answer lost on the way, the transport's own resend after a 503) returns the league the
// first send made instead of making a second one. Unique per owner; null for the leagues made
// before this and for renewals. A nullable column rewrites nothing, and the partial index holds
// only the leagues made with a key.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE leagues ADD COLUMN create_key uuid`.execute(db)
  await sql`CREATE UNIQUE INDEX leagues_create_key ON leagues (user_id, create_key) WHERE create_key IS NOT NULL`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX leagues_create_key`.execute(db)
  await sql`ALTER TABLE leagues DROP COLUMN create_key`.execute(db)
}
