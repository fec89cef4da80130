import { sql, type Kysely } from 'kysely'

// Frozen once merged. Receipts for every accepted write of tips (issue 32, decision 029):
// tip_saves.kind says which write a row logs: 'save' (a list or one tip, as before), 'autopick'
// (the untipped matches it filled) or 'clear' (the tips it removed: picks with a null squad).
// Every row made before is a save. ADD COLUMN with a constant default rewrites nothing on
// PostgreSQL 11+, so a log of tens of millions of rows takes no longer than an empty one.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tip_saves ADD COLUMN kind text NOT NULL DEFAULT 'save'
    CHECK (kind IN ('save', 'autopick', 'clear'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM tip_saves WHERE kind <> 'save'`.execute(db)
  await sql`ALTER TABLE tip_saves DROP COLUMN kind`.execute(db)
}
