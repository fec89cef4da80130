import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'

export interface AuditEntry {
  actorUserId: number | null
  /** What was done, e.g. 'result.set', 'content.update', 'user.deactivate'. */
  action: string
  /** The kind of thing changed, e.g. 'match', 'content', 'user', 'league'. */
  entity: string
  entityId: string | number | null
  /** What changed (new values, and old ones where useful); never secrets. */
  data?: unknown
  /** When it happened by the app's clock; absent, the database's time. */
  at?: Date
}

/** Writes one audit_log row; call it inside the transaction that makes the change. */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await q.insertAudit(db, {
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === null ? null : String(entry.entityId),
    data: JSON.stringify(entry.data ?? {}),
    ...(entry.at ? { at: entry.at } : {}),
  })
}
