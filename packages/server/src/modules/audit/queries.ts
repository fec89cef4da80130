import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

export interface AuditEntry {
  actorUserId: number | null
  /** What was done, e.g. 'result.set', 'content.update', 'user.deactivate'. */
  action: string
  /** The kind of thing changed, e.g. 'match', 'content', 'user', 'league'. */
  entity: string
  entityId: string | number | null
  /** What changed (new values, and old ones where useful); never secrets. */
  data?: unknown
}

/** Writes one audit_log row; call it inside the transaction that makes the change. */
export async function recordAudit(db: Kysely<DB> | Transaction<DB>, entry: AuditEntry) {
  await db
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actorUserId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId === null ? null : String(entry.entityId),
      data: JSON.stringify(entry.data ?? {}),
    })
    .execute()
}
