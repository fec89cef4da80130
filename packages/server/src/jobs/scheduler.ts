import type { Logger } from '../logger.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { runLockouts } from '../modules/lifecycle/service.ts'
import { runAutopilot } from '../modules/autopilot/service.ts'
import { publishPickSplits } from '../modules/live/pick-split.ts'
import type { MailDelivery } from '../modules/mail/service.ts'
import type { Publisher } from '../modules/publisher/service.ts'
import type { ReminderJob } from '../modules/reminders/service.ts'
import { rebuildSeasonHistories } from '../modules/season/service.ts'
import { recordJobRuns, type JobObserver, type JobRunWrite } from '../modules/ops/service.ts'

/** A job's failure as recorded for the console: its message, kept short. */
const failureText = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).slice(0, 500) || 'failed'

/**
 * Runs the idempotent jobs on a timer: autopilot tips, lockouts (with auto-tips), then the pick
 * split's push events, then My season's rank history of re-scored rounds, then a re-publish of
 * the static files when anything changed, then the reminders, then delivery of queued emails.
 * Safe with several processes: each job claims its rows itself, and publishes take turns under
 * the publisher's lock (decision 013). A failing job does not stop the others. Each pass records
 * its jobs' runs in job_runs (one write), for the admin console's System health in any process.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null

  constructor(
    private readonly deps: {
      db: Database
      clock: Clock
      publisher: Publisher
      mail?: MailDelivery
      /**
       * Reminders to tip (a day before the round, or 2 h before the first untipped match), queued
       * before delivery so they go out in the same pass.
       */
      reminders?: ReminderJob
      log: Pick<Logger, 'info' | 'error'>
      intervalMs: number
      /** A round's pick split is counted (and a `picks` event raised) at most this often. */
      pickSplitEveryMs?: number
      /** Job durations, failures and lag for the metrics endpoint (modules/ops/metrics.ts). */
      metrics?: JobObserver | undefined
    },
  ) {}

  /** When the last pass started (monotonic), to tell how late the next one is. */
  private lastPassAt: number | null = null

  start(): void {
    if (this.timer) return
    this.timer = setInterval(() => void this.tick(), this.deps.intervalMs)
    this.timer.unref()
    void this.tick()
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
    this.deps.mail?.close()
  }

  /** One pass; concurrent calls share the pass in flight instead of starting another. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async pass(): Promise<void> {
    const { db, clock, log, metrics, intervalMs } = this.deps
    const startedAt = clock.now()
    const began = performance.now()
    // setInterval skips a beat while a pass is still running: a slow job shows as lag here.
    const lagMs =
      this.lastPassAt === null || intervalMs <= 0
        ? 0
        : Math.max(0, began - this.lastPassAt - intervalMs)
    this.lastPassAt = began
    const runs: JobRunWrite[] = []
    /** Runs one job, timed; a failure is logged and recorded, and the pass goes on. */
    const run = async <T>(job: string, work: () => Promise<T>): Promise<T | undefined> => {
      const at = clock.now()
      const t0 = performance.now()
      let error: string | null = null
      try {
        return await work()
      } catch (err) {
        error = failureText(err)
        log.error({ err, job }, `scheduler job ${job} failed`)
        return undefined
      } finally {
        const ms = performance.now() - t0
        runs.push({ job, startedAt: at, durationMs: ms, error })
        metrics?.job(job, ms / 1000, error !== null)
      }
    }

    // Autopilot first: its tips go in before the lockouts of this pass (decision 026).
    const autopilot = await run('autopilot', () => runAutopilot(db, clock))
    if (autopilot && autopilot.placed > 0) log.info(autopilot, 'autopilot tips placed')
    const lockouts = await run('lockouts', () => runLockouts(db, clock))
    // The push channel's pick split: coalesced per round, and at once for rounds just locked.
    await run('pick_split', () =>
      publishPickSplits(db, clock, {
        everyMs: this.deps.pickSplitEveryMs ?? 30_000,
        lockedRounds: lockouts?.rounds ?? [],
      }),
    )
    // My season's rank history of the rounds a result re-scored (decision 021): seconds after
    // the result, never inside its transaction.
    await run('season_history', () => rebuildSeasonHistories(db))
    if (lockouts && lockouts.locked > 0) {
      log.info({ locked: lockouts.locked }, 'matches locked')
      await run('publishing', () => this.deps.publisher.publishAll())
    }
    const reminders = this.deps.reminders
    if (reminders) {
      const reminded = await run('reminders', () => reminders.run())
      if (reminded && reminded.queued > 0) log.info(reminded, 'weekly reminders queued')
    }
    const mail = this.deps.mail
    if (mail) await run('email_delivery', () => mail.deliver())

    const passMs = performance.now() - began
    runs.push({ job: 'scheduler', startedAt, durationMs: passMs, error: null, intervalMs, lagMs })
    metrics?.job('scheduler', passMs / 1000, false)
    metrics?.lag(lagMs / 1000)
    try {
      // Every process reads these (the console's System health), whichever one ran the pass.
      await recordJobRuns(db, runs)
    } catch (err) {
      log.error({ err }, 'recording the scheduler pass failed')
    }
  }
}
