import { adminAuditQuerySchema, adminAuditResponseSchema } from '@tipping/contract/admin'
import { success } from '../../../http/envelope.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { AuditLogAdmin } from './service.ts'

/** The console's audit log. */
export function auditLogRoutes(app: App, deps: { service: AuditLogAdmin }): void {
  const { service } = deps
  const { tags, config, ok } = adminRouteKit()

  app.get(
    '/api/admin/audit',
    {
      config,
      schema: { tags, querystring: adminAuditQuerySchema, response: ok(adminAuditResponseSchema) },
    },
    async (request) => {
      const { actor: who, kind, page } = request.query
      return success(await service.audit({ actor: who, kind }, page))
    },
  )
}
