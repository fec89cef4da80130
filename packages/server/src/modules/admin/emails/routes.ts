import {
  adminEmailIdParamsSchema,
  adminEmailResponseSchema,
  adminEmailsQuerySchema,
  adminEmailsResponseSchema,
} from '@tipping/contract/admin'
import { success } from '../../../http/envelope.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { EmailsAdmin } from './service.ts'

/** The console's email outbox. */
export function emailsRoutes(app: App, deps: { service: EmailsAdmin }): void {
  const { service } = deps
  const { tags, config, ok, actor } = adminRouteKit()

  app.get(
    '/api/admin/emails',
    {
      config,
      schema: {
        tags,
        querystring: adminEmailsQuerySchema,
        response: ok(adminEmailsResponseSchema),
      },
    },
    async (request) => {
      return success(await service.emails(request.query.status, request.query.page))
    },
  )

  app.post(
    '/api/admin/emails/:id/retry',
    {
      config,
      schema: {
        tags,
        params: adminEmailIdParamsSchema,
        response: ok(adminEmailResponseSchema),
      },
    },
    async (request) => {
      const id = actor(request)
      return success({ email: await service.retryEmail(id, request.params.id) })
    },
  )
}
