import { loginBodySchema, registerBodySchema, userResponseSchema } from '@tipping/contract/auth'
import { sportParamsSchema } from '@tipping/contract/sport'
import { successEnvelope } from '@tipping/contract/errors'
import { success } from '../../http/envelope.ts'
import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import { AppError } from '../../errors.ts'
import { toUserSession, type AuthService } from './service.ts'
import { AttemptThrottle } from './throttle.ts'

export function authRoutes(
  app: App,
  deps: { auth: AuthService; gate: SessionGate; perMinute: number },
): void {
  const { auth, gate } = deps
  const tags = ['account']
  // Brute-force protection: per address for both; sign-in also per account, whatever the address.
  const perAddress = { rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } }
  const perAccount = new AttemptThrottle(deps.perMinute)

  app.post(
    '/api/auth/register',
    {
      config: { ...perAddress, policy: 'visitor' },
      schema: {
        tags,
        body: registerBodySchema,
        response: { 200: successEnvelope(userResponseSchema) },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await auth.register(request.body)
      await auth.logout(gate.cookieValue(request))
      gate.setCookie(reply, sessionId)
      return success({ user })
    },
  )

  app.post(
    '/api/auth/login',
    {
      config: { ...perAddress, policy: 'visitor' },
      schema: {
        tags,
        body: loginBodySchema,
        response: { 200: successEnvelope(userResponseSchema) },
      },
    },
    async (request, reply) => {
      if (!perAccount.allow(request.body.email, Date.now())) {
        throw new AppError(
          'RATE_LIMITED',
          'Too many sign-in attempts for this account; try again in a minute',
        )
      }
      const { user, sessionId } = await auth.login(request.body)
      // Rotation: the session the browser had before signing in is revoked, never reused.
      await auth.logout(gate.cookieValue(request))
      gate.setCookie(reply, sessionId)
      return success({ user })
    },
  )

  app.post(
    '/api/:sport/auth/logout',
    { config: { policy: 'visitor' }, schema: { tags, params: sportParamsSchema } },
    async (request, reply) => {
      await auth.logout(gate.cookieValue(request))
      gate.clearCookie(reply)
      return success({ ok: true as const })
    },
  )

  app.get(
    '/api/:sport/user',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(userResponseSchema) },
        description: 'The session check: the signed-in user, or 401.',
      },
    },
    async (request) => {
      const { row } = await gate.requireUser(request, request.params.sport)
      return success({ user: toUserSession(row) })
    },
  )
}
