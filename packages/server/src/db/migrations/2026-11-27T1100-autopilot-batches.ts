import { sql, type Kysely } from 'kysely'

// Frozen. Autopilot places a checkpoint's tips in batches, each its own transaction (decision
// 026, "Batches"). autopilot_passes becomes the checkpoint's resumable claim:
//
// - favourite_squad_id, margin: the crowd's favourite and median Super Sixes guess, counted once
//   when the checkpoint is claimed, so every batch (and a process resuming after a crash) tips
//   with the same values a single statement would have used. margin is placed only if the match
//   is a margin game when the batch runs. Both null on rows of the old protocol.
// - through_user_id: the highest autopilot user id the committed batches have dealt with; the
//   next batch starts after it (keyset). A batch advances it in its own transaction, so a crash
//   loses nothing and a second process never repeats a committed batch.
// - finished_at: set by the batch that found no one left, or found the match locked; only then is
//   the checkpoint done. Rows of the old one-statement protocol were complete when they existed.
// Adding nullable columns and a default-0 column rewrites nothing (PostgreSQL 11+).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE autopilot_passes
    ADD COLUMN favourite_squad_id integer,
    ADD COLUMN margin integer,
    ADD COLUMN through_user_id integer NOT NULL DEFAULT 0,
    ADD COLUMN finished_at timestamptz`.execute(db)
  await sql`UPDATE autopilot_passes SET finished_at = ran_at`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE autopilot_passes
    DROP COLUMN favourite_squad_id,
    DROP COLUMN margin,
    DROP COLUMN through_user_id,
    DROP COLUMN finished_at`.execute(db)
}
