import { sql, type Kysely } from 'kysely'

// Frozen. Delivery state for the email outbox: a row is due once next_attempt_at has passed and
// it is neither sent nor given up (failed_at). A deliverer claims due rows by pushing
// next_attempt_at forward (a lease) and counting the attempt, in one statement under
// FOR UPDATE SKIP LOCKED, so two processes never send the same row. The audit index serves the
// hourly per-user quotas on invitations and league messages.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE email_outbox
    ADD COLUMN attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN failed_at timestamptz`.execute(db)
  await sql`CREATE INDEX email_outbox_due ON email_outbox (next_attempt_at, id)
    WHERE sent_at IS NULL AND failed_at IS NULL`.execute(db)
  await sql`CREATE INDEX audit_log_actor_action ON audit_log (actor_user_id, action, created_at)`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS audit_log_actor_action`.execute(db)
  await sql`DROP INDEX IF EXISTS email_outbox_due`.execute(db)
  await sql`ALTER TABLE email_outbox
    DROP COLUMN attempts, DROP COLUMN next_attempt_at, DROP COLUMN failed_at`.execute(db)
}
