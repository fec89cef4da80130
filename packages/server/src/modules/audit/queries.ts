import type { Database } from '../../db/schema.ts'

export interface AuditRow {
  actorUserId: number | null
  action: string
  entity: string
  entityId: string | null
  data: string
  /** Absent: the database's time. */
  at?: Date
}

export const insertAudit = (db: Database, row: AuditRow) =>
  db
    .insertInto('audit_log')
    .values({
      actor_user_id: row.actorUserId,
      action: row.action,
      entity: row.entity,
      entity_id: row.entityId,
      data: row.data,
      ...(row.at ? { created_at: row.at } : {}),
    })
    .execute()
