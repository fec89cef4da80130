import { sql, type Kysely } from 'kysely'

// Frozen. Every API process keeps resolved sessions in memory (auth/session-cache.ts). A change
// to a user or a revoked session must reach all of them, whichever process, job or operator made
// it, so the database announces it: at commit, on channel `session_changes`, with the ids of the
// users concerned (comma-separated) or `*` for "forget everything". A rolled-back change
// announces nothing. Each process listens (db/listen.ts) and forgets those users' sessions.
// docs/decisions/009-performance-at-scale.md, "Session cache".
//
// Users: one notice per statement (a transition table), so a bulk update is one `*`, not a
// million notices. Sessions: row by row, but only when a session ends or moves (revoked_at,
// expires_at, user_id); the touches of last_seen_at, every minute per active session, fire
// nothing. Sessions are never deleted while live (revocation is an update); a user's deletion
// cascades to their sessions and is announced by the users trigger.

/** Above this many users in one statement, the notice says `*` (a notice holds 8,000 bytes). */
const MAX_IDS = 500

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE FUNCTION announce_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n integer;
      ids text;
    BEGIN
      SELECT count(*), string_agg(id::text, ',') INTO n, ids FROM changed;
      IF n > 0 THEN
        PERFORM pg_notify('session_changes', CASE WHEN n > ${sql.lit(MAX_IDS)} THEN '*' ELSE ids END);
      END IF;
      RETURN NULL;
    END
  $$`.execute(db)
  await sql`CREATE TRIGGER users_changed_notice AFTER UPDATE ON users
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION announce_users_changed()`.execute(db)
  await sql`CREATE TRIGGER users_deleted_notice AFTER DELETE ON users
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION announce_users_changed()`.execute(db)

  await sql`CREATE FUNCTION announce_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('session_changes', OLD.user_id::text);
      RETURN NULL;
    END
  $$`.execute(db)
  await sql`CREATE TRIGGER sessions_ended_notice
    AFTER UPDATE OF revoked_at, expires_at, user_id ON sessions
    FOR EACH ROW
    WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at <> NEW.expires_at
      OR OLD.user_id <> NEW.user_id)
    EXECUTE FUNCTION announce_session_ended()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER sessions_ended_notice ON sessions`.execute(db)
  await sql`DROP FUNCTION announce_session_ended()`.execute(db)
  await sql`DROP TRIGGER users_deleted_notice ON users`.execute(db)
  await sql`DROP TRIGGER users_changed_notice ON users`.execute(db)
  await sql`DROP FUNCTION announce_users_changed()`.execute(db)
}
