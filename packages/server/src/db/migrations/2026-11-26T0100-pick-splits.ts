import { sql, type Kysely } from 'kysely'

// Frozen. The push channel's pick split (decision 015): per round, the split last told to pages
// and when it was last counted. The scheduler claims a round's row (FOR UPDATE) to count it, at
// most once per PICK_SPLIT_EVENT_MS unless a match of the round just locked, and raises a `picks`
// event only when the split moved: one event per round however many tips changed, and one
// process's count however many schedulers run.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE pick_splits (
    round_id integer PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
    split jsonb,
    checked_at timestamptz NOT NULL
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS pick_splits`.execute(db)
}
