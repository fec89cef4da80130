import {
  adminEmailIdParamsSchema,
  adminEmailResponseSchema,
  adminEmailsQuerySchema,
  adminEmailsResponseSchema,
} from '@tipping/contract/admin'
import { success } from '../../../http/envelope.ts'
import type { SessionGate } from '../../../http/session.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { EmailsAdmin } from './service.ts'

/** The console's email outbox. */
export function emailsRoutes(app: App, deps: { service: EmailsAdmin; gate: SessionGate }): void {
  const { service } = deps
  const { tags, config, preValidation, ok, actor } = adminRouteKit(deps.gate)

  app.get(
    '/api/admin/emails',
    {
      config,
      preValidation,
      schema: {
        tags,
        querystring: adminEmailsQuerySchema,
        response: ok(adminEmailsResponseSchema),
      },
    },
    async (request) => {
      await actor(request)
      return success(await service.emails(request.query.status, request.query.page))
    },
  )

  app.post(
    '/api/admin/emails/:id/retry',
    {
      config,
      preValidation,
      schema: {
        tags,
        params: adminEmailIdParamsSchema,
        response: ok(adminEmailResponseSchema),
      },
    },
    async (request) => {
      const id = await actor(request)
      return success({ email: await service.retryEmail(id, request.params.id) })
    },
  )
}
