import type { z } from 'zod'
import { successEnvelope } from '@tipping/contract/errors'
import type { SessionGate } from '../../http/session.ts'

type Request = Parameters<SessionGate['requireAdmin']>[0]

/** What every admin route shares: ROLE_ADMIN only, checked before its input is read. */
export function adminRouteKit(gate: SessionGate) {
  const actor = async (request: Request) => (await gate.requireAdmin(request)).row.id
  return {
    tags: ['admin'],
    actor,
    // Who is asking is checked before the input: a visitor learns nothing about the body expected.
    config: { policy: 'admin' as const },
    preValidation: async (request: Request) => void (await actor(request)),
    ok: <T extends z.ZodType>(inner: T) => ({ 200: successEnvelope(inner) }),
  }
}
