import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from '../../logger.ts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import * as q from './queries.ts'
import { escapeHtml } from '../../html.ts'
import { UNSUBSCRIBE_SLOT, unsubscribeUrl } from './unsubscribe.ts'

export type { OutgoingEmail } from './queries.ts'

const HOUR_MS = 3_600_000

/**
 * Queues emails inside the caller's transaction (ARCHITECTURE.md: an outbox table; nothing is
 * sent while the action that causes it could still roll back).
 */
export const queueEmails = (trx: Database, emails: q.OutgoingEmail[], at: Date) =>
  q.enqueue(trx, emails, at)

/** The same email to every member of a league who takes email; returns how many were queued. */
export const queueToLeagueMembers = (
  trx: Database,
  leagueId: number,
  email: Omit<q.OutgoingEmail, 'to'>,
  at: Date,
) => q.enqueueToMembers(trx, leagueId, email, at)

export const countLeagueRecipients = (db: Database, leagueId: number) =>
  q.countMailableMembers(db, leagueId)

export interface QuotaLimit {
  /** Times the action may be taken per hour; omitted for no limit on the count of actions. */
  actions?: number
  /** Emails the action may queue per hour, summed over its uses. */
  recipients: number
}

/** How long a send's request key is honoured: far longer than any resend, within the log's index. */
const REQUEST_KEY_MS = 24 * HOUR_MS

/**
 * Anti-spam: checks a user's hourly quota for an outgoing-mail action and records this use, in
 * the caller's transaction. The window slides over the last hour of the audit log (kept in the
 * database, so every API process sees the same count); an advisory lock per user makes two
 * requests at once queue behind each other instead of both fitting under the limit.
 *
 * With a request key, a send this user already made with it is found instead: `repeated` is the
 * recipients it counted, and the caller queues nothing. Otherwise `repeated` is null.
 */
export async function useMailQuota(
  trx: Database,
  u: {
    userId: number
    action: string
    entity: string
    entityId: string
    recipients: number
    limit: QuotaLimit
    /**
     * A cap on the one entity (a league) as well, over its own window: a user may run several,
     * and each email names it. Counted over this user's uses, who alone may act for the entity.
     */
    perEntity?: { recipients: number; windowMs: number; what: string; period: string }
    now: Date
    param: string
    /** The client's key for this send (decision 049): a send already done with it is not redone. */
    requestId?: string | undefined
  },
): Promise<{ repeated: number | null }> {
  await q.lockSenderQuota(trx, u.userId)
  // Under the sender's lock, so a second send with the key waits for the first to commit.
  if (u.requestId !== undefined) {
    const done = await q.mailActionByRequest(trx, {
      userId: u.userId,
      action: u.action,
      requestId: u.requestId,
      since: new Date(u.now.getTime() - REQUEST_KEY_MS),
    })
    if (done !== undefined) {
      if (done.entity_id !== u.entityId)
        throw new AppError(
          'CONFLICT',
          'This request id was already used for another send; make a new one',
          'requestId',
        )
      return { repeated: done.recipients }
    }
  }
  const used = await q.quotaUsed(trx, {
    userId: u.userId,
    action: u.action,
    since: new Date(u.now.getTime() - HOUR_MS),
  })
  if (u.limit.actions !== undefined && used.actions >= u.limit.actions) {
    throw new AppError(
      'RATE_LIMITED',
      `You can do this ${u.limit.actions} times an hour; try again later`,
      u.param,
    )
  }
  if (used.recipients + u.recipients > u.limit.recipients) {
    const left = Math.max(0, u.limit.recipients - used.recipients)
    throw new AppError(
      'RATE_LIMITED',
      `That would send ${u.recipients} emails; ${left} of your ${u.limit.recipients} an hour are left`,
      u.param,
    )
  }
  if (u.perEntity) {
    const cap = u.perEntity
    const usedHere = await q.quotaUsed(trx, {
      userId: u.userId,
      action: u.action,
      entity: u.entity,
      entityId: u.entityId,
      since: new Date(u.now.getTime() - cap.windowMs),
    })
    if (usedHere.recipients + u.recipients > cap.recipients) {
      const left = Math.max(0, cap.recipients - usedHere.recipients)
      throw new AppError(
        'RATE_LIMITED',
        `That would send ${u.recipients} emails; ${left} of the ${cap.recipients} ${cap.period} for ${cap.what} are left`,
        u.param,
      )
    }
  }
  await q.recordMailAction(trx, {
    userId: u.userId,
    action: u.action,
    entity: u.entity,
    entityId: u.entityId,
    recipients: u.recipients,
    requestId: u.requestId,
    at: u.now,
  })
  return { repeated: null }
}

/**
 * The footer's slot filled: only the last one, so a slot typed into a commissioner's message
 * (quoted above the footer) stays text and never becomes a link.
 */
export function fillFooterSlot(body: string, link: string): string {
  const at = body.lastIndexOf(UNSUBSCRIBE_SLOT)
  return at < 0 ? body : body.slice(0, at) + link + body.slice(at + UNSUBSCRIBE_SLOT.length)
}

/** Delay before the next try after `attempts` failed ones: 1, 2, 4 ... minutes, at most an hour. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(60_000 * 2 ** Math.max(0, attempts - 1), HOUR_MS)

export interface MailDeliveryOptions {
  /** Unset: emails stay pending in the outbox (logged once). */
  smtpUrl?: string | undefined
  from: string
  log: Pick<Logger, 'info' | 'warn' | 'error'>
  /** Rows claimed at a time. */
  batchSize?: number
  /** How long a claim keeps other deliverers off a row; longer than sending a batch takes. */
  leaseMs?: number
  /** Attempts before a row is given up. */
  maxAttempts?: number
  /** SMTP connection, greeting and socket timeouts. */
  timeoutMs?: number
  /**
   * The site's origin and RECEIPT_SECRET: list mail (reminders, league emails) carries its
   * one-click unsubscribe link, in its headers (RFC 8058) and its footer (decision 043).
   */
  unsubscribe: { origin: string; secret: string }
}

export interface DeliveryReport {
  sent: number
  retrying: number
  failed: number
}

interface SmtpError {
  message?: string
  code?: string
  responseCode?: number
}

/**
 * RFC 5321: a 5yz reply is a permanent refusal of this message (503 is a bad command sequence, so
 * not about the message). An authentication failure is the server's configuration, not the
 * message's fault, so it is retried like a connection failure.
 */
const isPermanent = (err: SmtpError): boolean =>
  err.code !== 'EAUTH' &&
  typeof err.responseCode === 'number' &&
  err.responseCode >= 500 &&
  err.responseCode < 600 &&
  err.responseCode !== 503

/**
 * The delivery job: sends due outbox rows over SMTP. Idempotent and safe with several processes
 * (each row is claimed once, see claimDue); at-least-once if a process dies mid-send (the row is
 * retried after its lease). The SMTP exchange happens outside any transaction, so the database
 * (one PGlite connection) is never held while the network is awaited.
 */
export class MailDelivery {
  private transport: Transporter | null = null
  private warned = false
  private readonly batchSize: number
  private readonly leaseMs: number
  private readonly maxAttempts: number

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly opts: MailDeliveryOptions,
  ) {
    this.batchSize = opts.batchSize ?? 50
    this.leaseMs = opts.leaseMs ?? 10 * 60_000
    this.maxAttempts = opts.maxAttempts ?? 10
  }

  get configured(): boolean {
    return Boolean(this.opts.smtpUrl)
  }

  private smtp(): Transporter | null {
    if (!this.opts.smtpUrl) return null
    const timeout = this.opts.timeoutMs ?? 15_000
    this.transport ??= nodemailer.createTransport(
      {
        url: this.opts.smtpUrl,
        pool: true,
        maxConnections: 3,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout * 2,
      },
      { from: this.opts.from },
    )
    return this.transport
  }

  /** Sends what is due now; stops early when a batch had failures (the server is likely down). */
  async deliver(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 }
    const transport = this.smtp()
    if (!transport) {
      if (!this.warned) {
        this.warned = true
        this.opts.log.info('SMTP_URL is not set: emails stay pending in the email_outbox table')
      }
      return report
    }
    for (let batch = 0; batch < 20; batch++) {
      const now = this.clock.now()
      const claimed = await q.claimDue(this.db, {
        now,
        leaseUntil: new Date(now.getTime() + this.leaseMs),
        limit: this.batchSize,
      })
      if (claimed.length === 0) break
      const before = report.retrying + report.failed
      await Promise.all(claimed.map((row) => this.send(transport, row, report)))
      if (claimed.length < this.batchSize || report.retrying + report.failed > before) break
    }
    if (report.sent > 0) this.opts.log.info({ sent: report.sent }, 'emails sent')
    if (report.retrying + report.failed > 0)
      this.opts.log.warn(
        { retrying: report.retrying, failed: report.failed },
        'email delivery failures',
      )
    return report
  }

  private async send(
    transport: Transporter,
    row: q.ClaimedEmail,
    report: DeliveryReport,
  ): Promise<void> {
    const unsubscribe = unsubscribeUrl(this.opts.unsubscribe, row.kind, row.user_id)
    // The footer's link; an email queued before the outbox kept its account (the release of
    // decision 043) links to the site, where Account has the same switches.
    const footerLink = unsubscribe ?? `${this.opts.unsubscribe.origin.replace(/\/+$/, '')}/`
    try {
      await transport.sendMail({
        to: row.to_address,
        subject: row.subject,
        text: fillFooterSlot(row.text_body, footerLink),
        ...(row.html_body !== null
          ? { html: fillFooterSlot(row.html_body, escapeHtml(footerLink)) }
          : {}),
        ...(unsubscribe
          ? {
              headers: {
                'List-Unsubscribe': `<${unsubscribe}>`,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              },
            }
          : {}),
      })
    } catch (caught) {
      const err = caught as SmtpError
      const message = (err.message ?? String(caught)).slice(0, 500)
      const now = this.clock.now()
      if (isPermanent(err) || row.attempts >= this.maxAttempts) {
        report.failed++
        await q.markFailed(this.db, row.id, message, now)
      } else {
        report.retrying++
        await q.markRetry(
          this.db,
          row.id,
          message,
          new Date(now.getTime() + retryDelayMs(row.attempts)),
        )
      }
      return
    }
    report.sent++
    await q.markSent(this.db, row.id, this.clock.now())
  }

  close(): void {
    this.transport?.close()
    this.transport = null
  }
}
