import { sql, type Kysely } from 'kysely'

// Frozen. The key the contact form sends with a message (decision 049), so the same message sent
// again (an answer lost on the way, the transport's resend after a 503) is stored and emailed to
// support once. Keys are random UUIDs, unique over all messages (a visitor has no account to hold
// one against); null for the messages sent before this and without a key.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE contact_messages ADD COLUMN request_key uuid`.execute(db)
  await sql`CREATE UNIQUE INDEX contact_messages_request_key ON contact_messages (request_key) WHERE request_key IS NOT NULL`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX contact_messages_request_key`.execute(db)
  await sql`ALTER TABLE contact_messages DROP COLUMN request_key`.execute(db)
}
