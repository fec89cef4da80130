import { sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'

const emailColumns = [
  sql<string>`id::text`.as('id'),
  'kind',
  'to_address',
  'subject',
  'text_body',
  'attempts',
  'created_at',
  'sent_at',
  'failed_at',
  'next_attempt_at',
  'error',
] as const

export const emails = (
  db: Database,
  status: 'pending' | 'sent' | 'failed' | 'all',
  offset: number,
  limit: number,
) => {
  let query = db
    .selectFrom('email_outbox')
    .select(emailColumns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
  if (status === 'sent') query = query.where('sent_at', 'is not', null)
  if (status === 'failed') query = query.where('failed_at', 'is not', null)
  if (status === 'pending')
    query = query.where('sent_at', 'is', null).where('failed_at', 'is', null)
  return query.execute()
}
export type EmailRow = Awaited<ReturnType<typeof emails>>[number]

export const lockEmail = (db: Database, id: string) =>
  db
    .selectFrom('email_outbox')
    .select(emailColumns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()

export const requeueEmail = (db: Database, id: string, at: Date) =>
  db
    .updateTable('email_outbox')
    .set({ failed_at: null, attempts: 0, next_attempt_at: at })
    .where('id', '=', id)
    .execute()
