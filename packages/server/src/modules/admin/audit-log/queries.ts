import { sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'

export const auditEntries = (
  db: Database,
  f: { actorId?: number; actorEmail?: string; kind?: string | undefined },
  offset: number,
  limit: number,
) => {
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .select([
      sql<string>`a.id::text`.as('id'),
      'a.created_at',
      'a.actor_user_id',
      'u.email as actor_email',
      'a.action',
      'a.entity',
      'a.entity_id',
      'a.data',
    ])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .offset(offset)
    .limit(limit)
  if (f.actorId !== undefined) query = query.where('a.actor_user_id', '=', f.actorId)
  if (f.actorEmail !== undefined)
    query = query.where(sql<string>`lower(u.email)`, '=', f.actorEmail.toLowerCase())
  if (f.kind) query = query.where('a.action', 'like', `${f.kind.replace(/[\\%_]/g, '\\$&')}%`)
  return query.execute()
}
