import { sql, type Kysely } from 'kysely'

// Frozen. What an operator watches (the admin console's System health, issue 26).
//
// 1. job_runs: one row per scheduled job, overwritten by every run, so any process (the API, a
//    separate worker) can tell when each job last ran, how long it took and whether it failed.
//    The scheduler writes all of one pass's rows in a single statement. The row named
//    'scheduler' is the pass itself: its interval and how late it started, for the lag.
// 2. Two partial indexes on the email outbox for the depth read at every metrics scrape: the
//    queued rows by age (count and oldest) and the given-up ones (count), so neither reads the
//    whole table, which keeps every email ever sent.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE job_runs (
    job text PRIMARY KEY,
    started_at timestamptz NOT NULL,
    duration_ms integer NOT NULL,
    error text,
    last_error text,
    last_error_at timestamptz,
    interval_ms integer,
    lag_ms integer,
    runs bigint NOT NULL DEFAULT 1,
    failures bigint NOT NULL DEFAULT 0
  )`.execute(db)
  await sql`CREATE INDEX email_outbox_queued_age ON email_outbox (created_at)
    WHERE sent_at IS NULL AND failed_at IS NULL`.execute(db)
  await sql`CREATE INDEX email_outbox_given_up ON email_outbox (failed_at)
    WHERE failed_at IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS email_outbox_given_up`.execute(db)
  await sql`DROP INDEX IF EXISTS email_outbox_queued_age`.execute(db)
  await sql`DROP TABLE IF EXISTS job_runs`.execute(db)
}
