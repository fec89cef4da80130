import { sql, type Kysely } from 'kysely'

// Frozen. League history across seasons (issue 31, decision 024): a league renewed for the next
// season is a new league in the new competition whose `renewed_from` names last season's league,
// so a league's history is the chain of renewed_from links and each past season's ladder is read
// from that competition's round scores as they were left. A league is renewed at most once (the
// partial unique index), and a league removed leaves its successor standing (SET NULL).
// The old members are asked, not moved: an offer is derived (a member of the old league who is
// not in the renewed one and has not declined), so renewing writes no row per member; a decline
// is the only per-member row.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE leagues ADD COLUMN renewed_from integer REFERENCES leagues (id) ON DELETE SET NULL`.execute(
    db,
  )
  await sql`CREATE UNIQUE INDEX leagues_renewed_from ON leagues (renewed_from) WHERE renewed_from IS NOT NULL`.execute(
    db,
  )
  await sql`CREATE TABLE league_renewal_declines (
    league_id integer NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    declined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (league_id, user_id)
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS league_renewal_declines`.execute(db)
  await sql`DROP INDEX IF EXISTS leagues_renewed_from`.execute(db)
  await sql`ALTER TABLE leagues DROP COLUMN IF EXISTS renewed_from`.execute(db)
}
