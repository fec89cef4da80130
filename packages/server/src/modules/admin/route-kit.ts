import type { FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { successEnvelope } from '@tipping/contract/errors'
import { callerOf } from '../../http/session.ts'

/**
 * What every admin route shares: the 'admin' policy, which the app's one policy hook
 * (http/route-policy.ts authorizeRoutes) enforces before the input is read, so a visitor or a
 * tipper learns nothing about the body a console route expects; the admin who asks, for the audit.
 */
export function adminRouteKit() {
  return {
    tags: ['admin'],
    actor: (request: FastifyRequest) => callerOf(request).row.id,
    config: { policy: 'admin' as const },
    ok: <T extends z.ZodType>(inner: T) => ({ 200: successEnvelope(inner) }),
  }
}
