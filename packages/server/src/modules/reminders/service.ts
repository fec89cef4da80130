import type { Sport } from '@tipping/contract/constants'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import {
  REMINDER_MATCHES_SLOT,
  reminderMatchLine,
  weeklyReminderEmail,
} from '../mail/site-templates.ts'
import * as q from './queries.ts'

export interface ReminderOptions {
  /** How long before a round's first match the reminders go; 0 turns them off. */
  leadHours: number
  appOrigin: string
  /** Users handled per statement (each its own short transaction). */
  batchSize?: number
}

export interface ReminderReport {
  rounds: number
  queued: number
}

/**
 * The weekly reminder job (issue 7, item 7): before each round's first lockout, emails everyone
 * registered for the sport who takes reminders and still has open matches of that round untipped,
 * listing those matches. Idempotent (reminder_log remembers who was reminded of which round) and
 * safe with several schedulers; set-based, in batches of users, so it scales with the user count.
 */
export class ReminderJob {
  private readonly batchSize: number

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly opts: ReminderOptions,
  ) {
    this.batchSize = opts.batchSize ?? 5000
  }

  async run(): Promise<ReminderReport> {
    const report: ReminderReport = { rounds: 0, queued: 0 }
    if (this.opts.leadHours <= 0) return report
    const now = this.clock.now()
    const until = new Date(now.getTime() + this.opts.leadHours * 3_600_000)
    for (const round of await q.roundsStartingWithin(this.db, { now, until })) {
      const matches = await q.openMatches(this.db, round.round_id, now)
      if (matches.length === 0) continue
      report.rounds++
      const lines = matches.map((m) =>
        reminderMatchLine({ home: m.home, away: m.away, startsAt: m.starts_at }),
      )
      const email = weeklyReminderEmail({
        sport: round.sport as Sport,
        roundLabel: round.label,
        firstMatchAt: round.first_match_at,
        appOrigin: this.opts.appOrigin,
      })
      // Bounded per pass (a pass must end); the next pass carries on where this one stopped.
      for (let batch = 0; batch < 200; batch++) {
        const queued = await this.db.transaction().execute((trx) =>
          q.queueReminderBatch(trx, {
            roundId: round.round_id,
            competitionId: round.competition_id,
            now,
            matchIds: matches.map((m) => m.id),
            textLines: lines.map((l) => l.text),
            htmlLines: lines.map((l) => l.html),
            kind: email.kind,
            subject: email.subject,
            textTemplate: email.text,
            htmlTemplate: email.html,
            slot: REMINDER_MATCHES_SLOT,
            limit: this.batchSize,
          }),
        )
        report.queued += queued
        // A short batch means nobody is left (or another scheduler claimed the rest).
        if (queued < this.batchSize) break
      }
    }
    return report
  }
}
