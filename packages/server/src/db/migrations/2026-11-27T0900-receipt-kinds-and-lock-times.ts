import { sql, type Kysely } from 'kysely'

// Frozen once merged (decision 029).
//
// - tip_saves.kind: which write a row logs: 'save' (a list or one tip, as before), 'autopick'
//   (the untipped matches it filled) or 'clear' (the tips it removed: picks with a null squad).
//   Every row made before is a save. ADD COLUMN with a constant default rewrites nothing on
//   PostgreSQL 11+, so a log of tens of millions of rows takes no longer than an empty one.
// - matches.locked_at for matches locked before 2026-11-27T0800 added it (NULL there). The
//   lockout job's own instant was never stored, and updated_at has since been overwritten by live
//   scores and results, so it cannot be recovered. The start time is the right value: it is when
//   the server began refusing the match's tips (the clock is checked against starts_at whatever
//   the job's timing, decision 027), so no tip after it was ever accepted, and the job's lock
//   followed it by at most one scheduler interval. Only matches no longer scheduled are filled: a
//   scheduled one past its start gets the job's own time when the job locks it. A few hundred
//   rows a season, by the status column; runs once.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tip_saves ADD COLUMN kind text NOT NULL DEFAULT 'save'
    CHECK (kind IN ('save', 'autopick', 'clear'))`.execute(db)
  await sql`UPDATE matches SET locked_at = starts_at
    WHERE locked_at IS NULL AND status <> 'scheduled'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // The lock times filled in stay: they are indistinguishable from recorded ones, and true.
  await sql`DELETE FROM tip_saves WHERE kind <> 'save'`.execute(db)
  await sql`ALTER TABLE tip_saves DROP COLUMN kind`.execute(db)
}
