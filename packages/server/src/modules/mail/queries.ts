import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

// The email outbox and the per-user quotas on outgoing mail. Writes happen inside the caller's
// transaction, so an email exists exactly when the action that caused it committed.

export interface OutgoingEmail {
  kind: string
  to: string
  subject: string
  text: string
  html: string | null
  /** The account it is for, when it is for one (list mail's unsubscribe link needs it). */
  userId?: number
}

export async function enqueue(db: Database, emails: OutgoingEmail[], at: Date): Promise<number> {
  if (emails.length === 0) return 0
  const rows = await db
    .insertInto('email_outbox')
    .values(
      emails.map((e) => ({
        kind: e.kind,
        to_address: e.to,
        subject: e.subject,
        text_body: e.text,
        html_body: e.html,
        user_id: e.userId ?? null,
        created_at: at,
        next_attempt_at: at,
      })),
    )
    .returning('id')
    .execute()
  return rows.length
}

/** Members of a league who take email: not deactivated, notifications not turned off. */
const mailableMembers = (db: Database, leagueId: number) =>
  db
    .selectFrom('league_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.league_id', '=', leagueId)
    .where('u.deactivated_at', 'is', null)
    .where('u.disabled_notifications', '=', false)

export const countMailableMembers = async (db: Database, leagueId: number): Promise<number> =>
  (
    await mailableMembers(db, leagueId)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n

/** One email per mailable member, set-based (a league may have thousands). */
export async function enqueueToMembers(
  db: Database,
  leagueId: number,
  email: Omit<OutgoingEmail, 'to'>,
  at: Date,
): Promise<number> {
  const res = await db
    .insertInto('email_outbox')
    .columns([
      'kind',
      'to_address',
      'subject',
      'text_body',
      'html_body',
      'created_at',
      'next_attempt_at',
      'user_id',
    ])
    .expression(
      mailableMembers(db, leagueId).select([
        sql<string>`${email.kind}::text`.as('kind'),
        'u.email',
        sql<string>`${email.subject}::text`.as('subject'),
        sql<string>`${email.text}::text`.as('text_body'),
        sql<string | null>`${email.html}::text`.as('html_body'),
        sql<Date>`${at}::timestamptz`.as('created_at'),
        sql<Date>`${at}::timestamptz`.as('next_attempt_at'),
        'u.id as user_id',
      ]),
    )
    .executeTakeFirst()
  return Number(res.numInsertedOrUpdatedRows ?? 0)
}

export interface ClaimedEmail {
  id: string
  kind: string
  to_address: string
  subject: string
  text_body: string
  html_body: string | null
  attempts: number
  user_id: number | null
}

/**
 * Claims up to `limit` due emails: counts the attempt and pushes next_attempt_at to `leaseUntil`,
 * so nobody else picks them up while this deliverer sends (and a crashed one's rows come back
 * after the lease). SKIP LOCKED lets a second process claim other rows instead of waiting.
 */
export async function claimDue(
  db: Database,
  o: { now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedEmail[]> {
  const res = await sql<ClaimedEmail>`
    WITH due AS (
      SELECT id FROM email_outbox
      WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ${o.now}::timestamptz
      ORDER BY next_attempt_at, id
      LIMIT ${o.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE email_outbox o
    SET attempts = o.attempts + 1, next_attempt_at = ${o.leaseUntil}::timestamptz
    FROM due WHERE o.id = due.id
    RETURNING o.id::text AS id, o.kind, o.to_address, o.subject, o.text_body, o.html_body, o.attempts,
      o.user_id
  `.execute(db)
  return res.rows
}

export const markSent = (db: Database, id: string, at: Date) =>
  db.updateTable('email_outbox').set({ sent_at: at }).where('id', '=', id).execute()

export const markRetry = (db: Database, id: string, error: string, nextAt: Date) =>
  db
    .updateTable('email_outbox')
    .set({ error, next_attempt_at: nextAt })
    .where('id', '=', id)
    .execute()

export const markFailed = (db: Database, id: string, error: string, at: Date) =>
  db.updateTable('email_outbox').set({ error, failed_at: at }).where('id', '=', id).execute()

/** Serialises one user's quota checks, so two requests at once cannot both squeeze under it. */
export async function lockSenderQuota(db: Database, userId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(7312, ${userId})`.execute(db)
}

/** Actions and recipients a user's `action` has used since `since`. */
export async function quotaUsed(
  db: Database,
  o: { userId: number; action: string; since: Date; entity?: string; entityId?: string },
): Promise<{ actions: number; recipients: number }> {
  return (
    db
      .selectFrom('audit_log')
      .select([
        sql<number>`count(*)::int`.as('actions'),
        sql<number>`coalesce(sum((data->>'recipients')::int), 0)::int`.as('recipients'),
      ])
      .where('actor_user_id', '=', o.userId)
      .where('action', '=', o.action)
      .where('created_at', '>', o.since)
      // One entity's share (a league's invitations): still on the (actor, action, created_at) index.
      .$if(o.entity !== undefined, (qb) => qb.where('entity', '=', o.entity!))
      .$if(o.entityId !== undefined, (qb) => qb.where('entity_id', '=', o.entityId!))
      .executeTakeFirstOrThrow()
  )
}

/**
 * The use of `action` this user recorded with a request key since `since` (decision 049), on the
 * same (actor, action, created_at) index as the quota's count.
 */
export const mailActionByRequest = (
  db: Database,
  o: { userId: number; action: string; requestId: string; since: Date },
) =>
  db
    .selectFrom('audit_log')
    .select(['entity_id', sql<number>`(data->>'recipients')::int`.as('recipients')])
    .where('actor_user_id', '=', o.userId)
    .where('action', '=', o.action)
    .where('created_at', '>', o.since)
    .where(sql<string>`data->>'requestId'`, '=', o.requestId)
    .executeTakeFirst()

export const recordMailAction = (
  db: Database,
  a: {
    userId: number
    action: string
    entity: string
    entityId: string
    recipients: number
    requestId?: string | undefined
    at: Date
  },
) =>
  db
    .insertInto('audit_log')
    .values({
      actor_user_id: a.userId,
      action: a.action,
      entity: a.entity,
      entity_id: a.entityId,
      data: JSON.stringify(
        a.requestId === undefined
          ? { recipients: a.recipients }
          : { recipients: a.recipients, requestId: a.requestId },
      ),
      created_at: a.at,
    })
    .execute()
