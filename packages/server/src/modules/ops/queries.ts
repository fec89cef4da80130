import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

// job_runs (migration 2026-11-25T0300) and the email outbox's depth: what the admin console's
// System health and the metrics endpoint read.

export interface JobRunWrite {
  job: string
  startedAt: Date
  durationMs: number
  error: string | null
  intervalMs?: number | null
  lagMs?: number | null
}

/**
 * Records one scheduler pass: every job's row in one statement (a pass every few seconds costs
 * one small write). A failure is kept in last_error until the next failure replaces it.
 */
export async function recordJobRuns(db: Database, runs: JobRunWrite[]): Promise<void> {
  if (runs.length === 0) return
  await db
    .insertInto('job_runs')
    .values(
      runs.map((r) => ({
        job: r.job,
        started_at: r.startedAt,
        duration_ms: Math.round(r.durationMs),
        error: r.error,
        last_error: r.error,
        last_error_at: r.error === null ? null : r.startedAt,
        interval_ms: r.intervalMs ?? null,
        lag_ms: r.lagMs === undefined || r.lagMs === null ? null : Math.round(r.lagMs),
        failures: r.error === null ? 0 : 1,
      })),
    )
    .onConflict((oc) =>
      oc.column('job').doUpdateSet({
        started_at: (eb) => eb.ref('excluded.started_at'),
        duration_ms: (eb) => eb.ref('excluded.duration_ms'),
        error: (eb) => eb.ref('excluded.error'),
        last_error: sql`coalesce(excluded.last_error, job_runs.last_error)`,
        last_error_at: sql`coalesce(excluded.last_error_at, job_runs.last_error_at)`,
        interval_ms: (eb) => eb.ref('excluded.interval_ms'),
        lag_ms: (eb) => eb.ref('excluded.lag_ms'),
        runs: sql`job_runs.runs + 1`,
        failures: sql`job_runs.failures + excluded.failures`,
      }),
    )
    .execute()
}

export const jobRuns = (db: Database) =>
  db
    .selectFrom('job_runs')
    .select([
      'job',
      'started_at',
      'duration_ms',
      'error',
      'last_error',
      'last_error_at',
      'interval_ms',
      'lag_ms',
      'runs',
      'failures',
    ])
    .orderBy('job')
    .execute()

export interface OutboxDepth {
  queued: number
  failed: number
  oldestQueuedAt: Date | null
}

/** Counts over the outbox's partial indexes (queued by age, given up), not the whole table. */
export async function outboxDepth(db: Database): Promise<OutboxDepth> {
  const { rows } = await sql<{
    queued: number | string
    oldest: Date | string | null
    failed: number | string
  }>`SELECT
      (SELECT count(*) FROM email_outbox WHERE sent_at IS NULL AND failed_at IS NULL) AS queued,
      (SELECT min(created_at) FROM email_outbox WHERE sent_at IS NULL AND failed_at IS NULL) AS oldest,
      (SELECT count(*) FROM email_outbox WHERE failed_at IS NOT NULL) AS failed`.execute(db)
  const row = rows[0]!
  return {
    queued: Number(row.queued),
    failed: Number(row.failed),
    oldestQueuedAt: row.oldest === null ? null : new Date(row.oldest),
  }
}
