import type { Sport } from '@tipping/contract/constants'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import {
  REMINDER_MATCHES_SLOT,
  reminderMatchLine,
  weeklyReminderEmail,
} from '../mail/site-templates.ts'
import { favourites } from '../autopilot/service.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

export interface ReminderOptions {
  /** How long before a round's first match the reminders go; 0 turns them off (both kinds). */
  leadHours: number
  /** How long before a player's first untipped match the 'match' reminder goes (2 hours). */
  matchLeadHours?: number
  appOrigin: string
  /** Users handled per statement (each its own short transaction). */
  batchSize?: number
}

export interface ReminderReport {
  rounds: number
  queued: number
}

/**
 * The reminder job (issue 7, item 7; issue 32): before each round's first lockout, emails everyone
 * registered for the sport who takes weekly reminders (reminder_lead 'round') and still has open
 * matches of that round untipped, listing those matches; players who chose 'match' get theirs
 * 2 hours before their first untipped match instead. Each listed match says what their
 * autopilot will tip there, when it is on. Idempotent (reminder_log remembers who was reminded of which round) and
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
      await this.remind(report, round, now, 'round', null)
    }
    // Players who chose 'match' (decision 026): 2 hours before their first untipped match.
    const matchUntil = new Date(now.getTime() + (this.opts.matchLeadHours ?? 2) * 3_600_000)
    for (const round of await q.roundsWithOpenMatchWithin(this.db, { now, until: matchUntil })) {
      await this.remind(report, round, now, 'match', matchUntil)
    }
    return report
  }

  /** One round's reminders of one kind, in batches of users. */
  private async remind(
    report: ReminderReport,
    round: q.DueRound,
    now: Date,
    lead: 'round' | 'match',
    dueBy: Date | null,
  ): Promise<void> {
    const matches = await q.openMatches(this.db, round.round_id, now)
    if (matches.length === 0) return
    const due = matches.filter((m) => dueBy === null || m.starts_at <= dueBy)
    if (due.length === 0) return
    report.rounds++
    const fav = await favourites(
      this.db,
      matches.map((m) => m.id),
    )
    const line = (m: q.OpenMatch, autopilot?: string) =>
      reminderMatchLine({
        home: m.home,
        away: m.away,
        startsAt: m.starts_at,
        ...(autopilot === undefined ? {} : { autopilot }),
      })
    const lines = matches.map((m) => line(m))
    const homeLines = matches.map((m) => line(m, m.home))
    const awayLines = matches.map((m) => line(m, m.away))
    const email = weeklyReminderEmail({
      sport: round.sport as Sport,
      roundLabel: round.label,
      firstMatchAt: round.first_match_at,
      appOrigin: this.opts.appOrigin,
      lead,
    })
    // Bounded per pass (a pass must end); the next pass carries on where this one stopped.
    for (let batch = 0; batch < 200; batch++) {
      const queued = await inTransaction(this.db, (trx) =>
        q.queueReminderBatch(trx, {
          roundId: round.round_id,
          competitionId: round.competition_id,
          sport: round.sport,
          now,
          lead,
          matchIds: matches.map((m) => m.id),
          textLines: lines.map((l) => l.text),
          htmlLines: lines.map((l) => l.html),
          homeSquads: matches.map((m) => m.home_squad_id),
          awaySquads: matches.map((m) => m.away_squad_id),
          favourites: matches.map((m) => fav.get(m.id) ?? m.home_squad_id),
          textHome: homeLines.map((l) => l.text),
          textAway: awayLines.map((l) => l.text),
          htmlHome: homeLines.map((l) => l.html),
          htmlAway: awayLines.map((l) => l.html),
          dueMatchIds: due.map((m) => m.id),
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
}
