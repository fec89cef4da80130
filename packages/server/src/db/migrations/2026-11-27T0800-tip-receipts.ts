import { sql, type Kysely } from 'kysely'

// Frozen. Receipts for tip saves (issue 32, decision 027): one row per accepted save, written by
// the save's own transaction (one multi-row INSERT per group commit). No foreign keys, as tips
// has none (2026-11-24T0200): the hot path checks nothing it does not need. The history reads a
// user's saves of a season by (user_id, competition_id, saved_at); verification reads one row by
// its receipt id. And each match's lock time as the lockout recorded it.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE tip_saves (
    id text PRIMARY KEY,
    user_id integer NOT NULL,
    competition_id integer NOT NULL,
    saved_at timestamptz NOT NULL,
    picks jsonb NOT NULL,
    changed jsonb NOT NULL,
    digest text NOT NULL
  )`.execute(db)
  await sql`CREATE INDEX tip_saves_user_season ON tip_saves (user_id, competition_id, saved_at)`.execute(
    db,
  )
  await sql`ALTER TABLE matches ADD COLUMN locked_at timestamptz`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE matches DROP COLUMN IF EXISTS locked_at`.execute(db)
  await sql`DROP TABLE IF EXISTS tip_saves`.execute(db)
}
