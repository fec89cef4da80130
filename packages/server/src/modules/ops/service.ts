import { JOB_NAMES, type AdminHealthResponse, type JobRun } from '@tipping/contract/admin'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'

export type { JobRunWrite } from './queries.ts'
export { Metrics, type JobObserver } from './metrics.ts'

/** One scheduler pass's runs, in one write (jobs/scheduler.ts). */
export const recordJobRuns = (db: Database, runs: q.JobRunWrite[]) => q.recordJobRuns(db, runs)

const DAY_MS = 86_400_000
const iso = (d: Date) => d.toISOString()

/** A pass's order (JOB_NAMES), then any other job by name. */
const order = (job: string) => {
  const i = (JOB_NAMES as readonly string[]).indexOf(job)
  return i === -1 ? JOB_NAMES.length : i
}

const toRun = (r: Awaited<ReturnType<typeof q.jobRuns>>[number]): JobRun => ({
  job: r.job,
  lastRunAt: iso(r.started_at),
  durationMs: r.duration_ms,
  error: r.error,
  lastErrorAt: r.last_error_at ? iso(r.last_error_at) : null,
  lastError: r.last_error,
  // bigint columns: PGlite may answer them as strings.
  runs: Number(r.runs),
  failures: Number(r.failures),
})

/**
 * The admin console's System health: what the scheduler last did (recorded by whichever process
 * runs it), how late it is, and the email outbox, so a stuck match day shows here first.
 */
export class OpsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async health(): Promise<AdminHealthResponse> {
    const [rows, depth] = await Promise.all([q.jobRuns(this.db), q.outboxDepth(this.db)])
    const now = this.clock.now()
    const jobs = rows
      .map(toRun)
      .sort((a, b) => order(a.job) - order(b.job) || a.job.localeCompare(b.job))
    const byName = new Map(jobs.map((j) => [j.job, j]))
    const tick = rows.find((r) => r.job === 'scheduler')
    let scheduler: AdminHealthResponse['scheduler'] = {
      status: 'never',
      lastTickAt: null,
      intervalMs: null,
      lagMs: null,
      overdueMs: null,
    }
    if (tick) {
      const interval = tick.interval_ms ?? 0
      // A pass is due one interval after the last one started; a whole interval past that, the
      // scheduler has missed a pass (stopped, or stuck in a job).
      const overdue =
        interval > 0 ? Math.max(0, now.getTime() - tick.started_at.getTime() - interval) : null
      scheduler = {
        status: overdue !== null && overdue > interval ? 'late' : 'ok',
        lastTickAt: iso(tick.started_at),
        intervalMs: tick.interval_ms,
        lagMs: tick.lag_ms,
        overdueMs: overdue,
      }
    }
    const since = now.getTime() - DAY_MS
    const recentFailures = jobs
      .filter(
        (j): j is JobRun & { lastErrorAt: string; lastError: string } =>
          j.lastErrorAt !== null && j.lastError !== null && Date.parse(j.lastErrorAt) >= since,
      )
      .sort((a, b) => b.lastErrorAt.localeCompare(a.lastErrorAt))
      .map((j) => ({ job: j.job, at: j.lastErrorAt, error: j.lastError }))
    return {
      now: iso(now),
      scheduler,
      lockouts: byName.get('lockouts') ?? null,
      publishing: byName.get('publishing') ?? null,
      jobs,
      emailOutbox: {
        queued: depth.queued,
        failed: depth.failed,
        oldestQueuedAgeSeconds: depth.oldestQueuedAt
          ? Math.max(0, Math.floor((now.getTime() - depth.oldestQueuedAt.getTime()) / 1000))
          : null,
      },
      recentFailures,
    }
  }
}
