import {
  ADMIN_PAGE_SIZE,
  type AdminEmail,
  type AdminEmailsResponse,
  type EmailStatus,
} from '@tipping/contract/admin'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { AppError, notFound } from '../../../errors.ts'
import { recordAudit } from '../../audit/service.ts'
import { fillFooterSlot } from '../../mail/service.ts'
import { iso, offsetOf, paged } from '../paging.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../../db/transaction.ts'

/**
 * A password reset link is a key to the account until it is used or expires: the console shows the
 * email without it, so reading the outbox never lets an admin take over someone's account.
 */
const hideResetTokens = (text: string): string =>
  text.replace(/([?&]token=)[^\s&#]+/g, '$1(hidden)')

/**
 * A list email is kept with its footer's slot, which the delivery job fills with each recipient's
 * own unsubscribe link as it sends: the console says so rather than show the template's marker.
 */
const showUnsubscribeSlot = (text: string): string =>
  fillFooterSlot(text, "(the recipient's own one-click link, added as it is sent)")

const toEmail = (e: q.EmailRow): AdminEmail => ({
  id: e.id,
  kind: e.kind,
  to: e.to_address,
  subject: e.subject,
  text: showUnsubscribeSlot(hideResetTokens(e.text_body)),
  status: (e.sent_at ? 'sent' : e.failed_at ? 'failed' : 'pending') satisfies EmailStatus,
  attempts: e.attempts,
  createdAt: iso(e.created_at),
  sentAt: e.sent_at ? iso(e.sent_at) : null,
  failedAt: e.failed_at ? iso(e.failed_at) : null,
  nextAttemptAt: e.sent_at || e.failed_at ? null : iso(e.next_attempt_at),
  error: e.error,
})

/** The console's email outbox: what was sent, what failed, and sending a failed one again. */
export class EmailsAdmin {
  constructor(
    private readonly db: Database,
    private readonly opts: { clock: Clock },
  ) {}

  async emails(status: EmailStatus | 'all', page: number): Promise<AdminEmailsResponse> {
    const rows = await q.emails(this.db, status, offsetOf(page), ADMIN_PAGE_SIZE + 1)
    const { rows: list, nextPage } = paged(rows, page)
    return { emails: list.map(toEmail), nextPage }
  }

  /** Puts a failed email back in the queue with a fresh set of attempts. */
  async retryEmail(actor: number, id: string): Promise<AdminEmail> {
    const now = this.opts.clock.now()
    return inTransaction(this.db, async (trx) => {
      const e = await q.lockEmail(trx, id)
      if (!e) throw notFound('Email', 'id')
      if (!e.failed_at)
        throw new AppError(
          'CONFLICT',
          e.sent_at ? 'This email was sent' : 'This email is still queued',
          'id',
        )
      await q.requeueEmail(trx, id, now)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'email.retry',
        entity: 'email',
        entityId: id,
        data: { to: e.to_address, subject: e.subject, error: e.error, attempts: e.attempts },
      })
      return toEmail({ ...e, failed_at: null, attempts: 0, next_attempt_at: now })
    })
  }
}
