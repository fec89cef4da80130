import { sql, type Kysely } from 'kysely'

// Frozen. The account an outbox email was queued for, where it was queued for one (a league's
// members, a reminder), so the delivery job can give a list email its one-click unsubscribe link
// (decision 043). Null for mail to an address alone (an invitation, a reset, the contact form).
// No foreign key: accounts are deactivated, never deleted, and the check would cost every row of
// a reminder run. A nullable column rewrites nothing.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE email_outbox ADD COLUMN user_id integer`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE email_outbox DROP COLUMN user_id`.execute(db)
}
