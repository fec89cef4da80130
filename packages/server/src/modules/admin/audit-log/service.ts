import { ADMIN_PAGE_SIZE, type AdminAuditResponse } from '@tipping/contract/admin'
import type { Database } from '../../../db/schema.ts'
import { iso, offsetOf, paged } from '../paging.ts'
import * as q from './queries.ts'

/** The console's audit log, newest first, by actor (id or email) and kind of change. */
export class AuditLogAdmin {
  constructor(private readonly db: Database) {}

  async audit(
    filter: { actor?: string | undefined; kind?: string | undefined },
    page: number,
  ): Promise<AdminAuditResponse> {
    const actor = filter.actor || undefined
    const f =
      actor === undefined
        ? {}
        : /^\d+$/.test(actor)
          ? { actorId: Number(actor) }
          : { actorEmail: actor }
    const rows = await q.auditEntries(
      this.db,
      { ...f, kind: filter.kind },
      offsetOf(page),
      ADMIN_PAGE_SIZE + 1,
    )
    const { rows: list, nextPage } = paged(rows, page)
    return {
      entries: list.map((a) => ({
        id: a.id,
        at: iso(a.created_at),
        actor:
          a.actor_user_id === null
            ? null
            : { id: a.actor_user_id, email: a.actor_email ?? '(deleted user)' },
        action: a.action,
        entity: a.entity,
        entityId: a.entity_id,
        data: a.data,
      })),
      nextPage,
    }
  }
}
