import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export const insertContactMessage = (
  db: Database,
  m: {
    userId: number | null
    name: string
    email: string
    message: string
    requestId?: string | undefined
    at: Date
  },
) =>
  db
    .insertInto('contact_messages')
    .values({
      user_id: m.userId,
      name: m.name,
      email: m.email,
      message: m.message,
      request_key: m.requestId ?? null,
      created_at: m.at,
    })
    // A message whose key is stored already (sent again, or twice at once) is not stored again:
    // no row comes back (decision 049).
    .onConflict((oc) => oc.column('request_key').where('request_key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst()

/**
 * Adds an address to the pre-registration list; true when it was new. Addresses arrive
 * lower-cased, so the primary key deduplicates them whatever case they were typed in.
 */
export async function insertPreregistration(
  db: Database,
  p: { email: string; name: string; at: Date },
): Promise<boolean> {
  const row = await db
    .insertInto('preregistrations')
    .values({ email: p.email, name: p.name, created_at: p.at })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('email')
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Serialises the site-wide count of pre-registration emails, so requests at once cannot all
 * squeeze under the hourly cap (one lock for the whole site; pre-registrations are few).
 */
export async function lockPreregistrationEmails(db: Database): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(7313, 0)`.execute(db)
}

/** Addresses added to the list since `since`: each new one was sent (or offered) one email. */
export async function preregistrationsSince(db: Database, since: Date): Promise<number> {
  const row = await db
    .selectFrom('preregistrations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow()
  return row.n
}
