import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { runLockouts } from '../modules/lifecycle/service.ts'
import type { MailDelivery } from '../modules/mail/service.ts'
import type { Publisher } from '../modules/publisher/service.ts'
import type { ReminderJob } from '../modules/reminders/service.ts'

/**
 * Runs the idempotent jobs on a timer: lockouts (with auto-tips), then a re-publish of the static
 * files when anything changed, then the weekly reminders, then delivery of queued emails. Safe with several processes: each
 * job claims its rows itself. A failing job does not stop the others.
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
      /** Weekly reminders, queued before delivery so they go out in the same pass. */
      reminders?: ReminderJob
      log: Pick<FastifyBaseLogger, 'info' | 'error'>
      intervalMs: number
    },
  ) {}

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
    try {
      const { locked } = await runLockouts(this.deps.db, this.deps.clock)
      if (locked > 0) {
        this.deps.log.info({ locked }, 'matches locked')
        await this.deps.publisher.publishAll()
      }
    } catch (err) {
      this.deps.log.error({ err }, 'scheduler pass failed')
    }
    try {
      const reminded = await this.deps.reminders?.run()
      if (reminded && reminded.queued > 0) this.deps.log.info(reminded, 'weekly reminders queued')
    } catch (err) {
      this.deps.log.error({ err }, 'weekly reminder pass failed')
    }
    try {
      await this.deps.mail?.deliver()
    } catch (err) {
      this.deps.log.error({ err }, 'email delivery pass failed')
    }
  }
}
