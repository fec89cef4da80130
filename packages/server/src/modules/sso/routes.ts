import { userResponseSchema } from '@tipping/contract/auth'
import { successEnvelope } from '@tipping/contract/errors'
import { sportParamsSchema } from '@tipping/contract/sport'
import { ssoConfigSchema, ssoLoginBodySchema } from '@tipping/contract/sso'
import { SSO_SCOPE } from '@tipping/contract/sso-clients'
import { AppError } from '../../errors.ts'
import { success } from '../../http/envelope.ts'
import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import { toUserSession, type AuthService } from '../auth/service.ts'
import type { SsoService } from './service.ts'

const disabled = {
  enabled: false,
  issuer: null,
  authorizationEndpoint: null,
  endSessionEndpoint: null,
  postLogoutRedirectUri: null,
  profileUrl: null,
  scope: SSO_SCOPE,
  clients: { web: null, wbblApp: null, bblApp: null },
}

export function ssoRoutes(
  app: App,
  deps: { sso: SsoService | null; auth: AuthService; gate: SessionGate; perMinute: number },
): void {
  const { sso, auth, gate } = deps
  const tags = ['account']

  app.get(
    '/api/auth/sso-config',
    {
      config: { policy: 'visitor' },
      schema: {
        tags,
        response: { 200: successEnvelope(ssoConfigSchema) },
        description: 'Public single sign-on settings: endpoints, client ids and callbacks only.',
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache')
      return success(sso ? await sso.publicConfig() : disabled)
    },
  )

  app.post(
    '/api/:sport/auth/login',
    {
      config: { policy: 'visitor', rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        params: sportParamsSchema,
        body: ssoLoginBodySchema,
        response: { 200: successEnvelope(userResponseSchema) },
        description:
          'Single sign-on: exchanges the authorization code (PKCE verifier, nonce) and starts a session.',
      },
    },
    async (request, reply) => {
      if (!sso) throw new AppError('NOT_FOUND', 'Single sign-on is not set up here')
      const row = await sso.signIn(request.body, request.params.sport)
      // The same session machinery as the password sign-in: a fresh id, the old one revoked.
      // Linking may have filled the account's names: its other sessions re-read the row.
      auth.forgetUser(row.id)
      const sessionId = await auth.startSession(row.id)
      await auth.logout(gate.cookieValue(request))
      gate.setCookie(reply, sessionId)
      return success({ user: toUserSession(row) })
    },
  )
}
