import { adminHealthResponseSchema } from '@tipping/contract/admin'
import { successEnvelope } from '@tipping/contract/errors'
import { success } from '../../http/envelope.ts'
import type { App } from '../../http/types.ts'
import type { OpsService } from './service.ts'

/** The admin console's System health; ROLE_ADMIN only, like the rest of /api/admin. */
export function opsRoutes(app: App, deps: { ops: OpsService }): void {
  const { ops } = deps

  app.get(
    '/api/admin/health',
    {
      config: { policy: 'admin' },
      schema: {
        tags: ['admin'],
        response: { 200: successEnvelope(adminHealthResponseSchema) },
        description:
          'Last scheduler runs (lockouts, publishing, reminders, email delivery), scheduler lag, the email outbox and recent job failures.',
      },
    },
    async () => success(await ops.health()),
  )
}
