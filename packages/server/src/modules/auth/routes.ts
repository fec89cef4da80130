import type { FastifyReply, FastifyRequest } from 'fastify'
import {
  loginBodySchema,
  okResponseSchema,
  passwordChangeBodySchema,
  passwordResetBodySchema,
  passwordResetRequestBodySchema,
  passwordResetRequestedSchema,
  registerBodySchema,
  sportRegisterBodySchema,
  userResponseSchema,
  sessionResponseSchema,
  userUpdateBodySchema,
  userUpdateResponseSchema,
} from '@tipping/contract/auth'
import { PASSWORD_RESET_REQUESTED } from '@tipping/contract/auth-messages'
import { SPORTS } from '@tipping/contract/constants'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { sportParamsSchema } from '@tipping/contract/sport'
import { successEnvelope } from '@tipping/contract/errors'
import { success } from '../../http/envelope.ts'
import { callerOf, type SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import { AppError } from '../../errors.ts'
import { styleNonce } from '../../http/app-page.ts'
import { readUnsubscribeToken } from '../mail/unsubscribe.ts'
import { toUserSession, type AuthService } from './service.ts'
import { askPage, donePage, invalidLinkPage } from './unsubscribe-page.ts'
import { addressKey, AttemptThrottle, LoginBackoff, WindowCounter } from './throttle.ts'

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

export interface AuthRouteLimits {
  /** Attempts a minute per address, and per account (email, reset token or user). */
  perMinute: number
  /** Password reset requests an hour per account from one address. */
  resetRequestsPerHour: number
  /** Failed sign-ins an account takes before the back-off holds back the addresses that failed. */
  loginFailuresBeforeBackoff: number
  /** "Email taken" answers an hour per address, and in all (decision 011). */
  emailTakenPerHour: number
  emailTakenGlobalPerHour: number
  /** The clock the back-off and budgets read (tests move it); default the real one. */
  now?: () => number
}

export function authRoutes(
  app: App,
  deps: { auth: AuthService; gate: SessionGate } & AuthRouteLimits,
): void {
  const { auth, gate } = deps
  const now = deps.now ?? Date.now
  const tags = ['account']
  // Brute-force protection (issue 6): per address by @fastify/rate-limit (each route its own
  // counter), and per account by an in-memory throttle keyed on what names the account, so
  // spreading attempts over many addresses does not help either. Sign-in and reset requests are
  // the exception (issue 26): a per-account count anyone can fill would lock the owner out, so
  // they are held back per account and address instead (below). Every check runs before any
  // password is hashed.
  const perAddress = { rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } }
  const throttle = (max: number, windowMs: number, what: string) => {
    const t = new AttemptThrottle(max, windowMs)
    return (key: string | number) => {
      if (!t.allow(String(key), Date.now()))
        throw new AppError('RATE_LIMITED', `Too many ${what}; try again later`)
    }
  }
  // Sign-in per account: a back-off for the addresses that failed, never a lockout (throttle.ts).
  const loginBackoff = new LoginBackoff({ freeFailures: deps.loginFailuresBeforeBackoff })
  const registerPerAccount = throttle(deps.perMinute, MINUTE_MS, 'registrations for this email')
  // Per account and address: others asking for the owner's email use up their quota, not the
  // owner's. The emails themselves are capped per account in the service (a flood sends nothing
  // new and leaves the newest link working).
  const resetRequestPerAccount = throttle(
    deps.resetRequestsPerHour,
    HOUR_MS,
    'password reset requests for this email',
  )
  // Registration says when an email is taken (friendly); how often is bounded (decision 011).
  const takenPerAddress = new WindowCounter(HOUR_MS)
  const takenInAll = new WindowCounter(HOUR_MS)
  const registrationAllowed = (address: string, reply: FastifyReply) => {
    const at = now()
    const spent =
      takenPerAddress.count(address, at) >= deps.emailTakenPerHour
        ? takenPerAddress.remainingMs(address, at)
        : takenInAll.count('', at) >= deps.emailTakenGlobalPerHour
          ? takenInAll.remainingMs('', at)
          : 0
    if (spent > 0) {
      void reply.header('retry-after', String(Math.ceil(spent / 1000)))
      throw new AppError(
        'RATE_LIMITED',
        'Too many registration attempts right now. If you already have an account, sign in or use Forgot password; otherwise try again later.',
      )
    }
  }
  const register = async <T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (err) {
      if (err instanceof AppError && err.code === 'EMAIL_TAKEN') {
        const at = now()
        takenPerAddress.add(addressKey(request.ip), at)
        takenInAll.add('', at)
        // Sign-ups are closed until the hour is out: operators should hear of it (decision 011).
        if (takenInAll.count('', at) === deps.emailTakenGlobalPerHour)
          request.log.warn('registration closed for the hour: the "email taken" budget is spent')
      }
      throw err
    }
  }
  const resetPerToken = throttle(deps.perMinute, MINUTE_MS, 'attempts with this reset link')
  const recoverPerUser = throttle(deps.perMinute, MINUTE_MS, 'recovery attempts')
  const passwordChangePerUser = throttle(deps.perMinute, MINUTE_MS, 'password change attempts')

  app.post(
    '/api/auth/register',
    {
      config: { policy: 'visitor', ...perAddress },
      schema: {
        tags,
        body: registerBodySchema,
        response: { 200: successEnvelope(userResponseSchema) },
      },
    },
    async (request, reply) => {
      registerPerAccount(request.body.email)
      registrationAllowed(addressKey(request.ip), reply)
      const { user, sessionId } = await register(request, () => auth.register(request.body))
      await auth.logout(gate.cookieValue(request))
      gate.setCookie(reply, sessionId)
      return success({ user })
    },
  )

  app.post(
    '/api/:sport/auth/register',
    {
      config: { policy: 'visitor', ...perAddress },
      schema: {
        tags,
        params: sportParamsSchema,
        body: sportRegisterBodySchema,
        response: { 200: successEnvelope(userResponseSchema) },
        description: "Registers and grants only this sport's game.",
      },
    },
    async (request, reply) => {
      registerPerAccount(request.body.email)
      registrationAllowed(addressKey(request.ip), reply)
      const { user, sessionId } = await register(request, () =>
        auth.register({ ...request.body, sport: request.params.sport }),
      )
      await auth.logout(gate.cookieValue(request))
      gate.setCookie(reply, sessionId)
      return success({ user })
    },
  )

  app.post(
    '/api/:sport/auth/register_for_game',
    {
      // Signed in, but not necessarily registered for this sport: that is what this does.
      config: { policy: 'user', anySport: true, ...perAddress },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(userResponseSchema) },
        description: "A signed-in user joins this sport's game (the answer to a 513).",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success({ user: await auth.registerForGame(row.id, request.params.sport) })
    },
  )

  for (const sport of SPORTS) {
    // Spec 7 names it `{sport}/{sport}/user/recover`: the sport twice.
    app.post(
      `/api/${sport}/${sport}/user/recover`,
      {
        config: { policy: 'user', ...perAddress },
        schema: {
          tags,
          response: { 200: successEnvelope(userResponseSchema) },
          description: "Brings an earlier season's account into this season's game.",
        },
      },
      async (request) => {
        const { row } = callerOf(request)
        recoverPerUser(row.id)
        return success({ user: await auth.recover(row.id, sport) })
      },
    )
  }

  app.post(
    '/api/auth/login',
    {
      config: { policy: 'visitor', ...perAddress },
      schema: {
        tags,
        body: loginBodySchema,
        response: { 200: successEnvelope(userResponseSchema) },
      },
    },
    async (request, reply) => {
      const { email } = request.body
      const address = addressKey(request.ip)
      const wait = loginBackoff.check(email, address, now())
      if (wait > 0) {
        void reply.header('retry-after', String(Math.ceil(wait / 1000)))
        throw new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later')
      }
      let signedIn
      try {
        signedIn = await auth.login(request.body)
      } catch (err) {
        if (err instanceof AppError && err.code === 'INVALID_CREDENTIALS')
          loginBackoff.failed(email, address, now())
        throw err
      }
      loginBackoff.succeeded(email, address)
      const { user, sessionId } = signedIn
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

  app.post(
    '/api/auth/password_reset/request',
    {
      config: { policy: 'visitor', ...perAddress },
      schema: {
        tags,
        body: passwordResetRequestBodySchema,
        response: { 200: successEnvelope(passwordResetRequestedSchema) },
        description: 'The same answer whether or not the account exists.',
      },
    },
    async (request) => {
      resetRequestPerAccount(`${request.body.email} ${addressKey(request.ip)}`)
      await auth.requestPasswordReset(request.body.email)
      return success({ message: PASSWORD_RESET_REQUESTED })
    },
  )

  app.post(
    '/api/auth/password_reset',
    {
      config: { policy: 'visitor', ...perAddress },
      schema: {
        tags,
        body: passwordResetBodySchema,
        response: { 200: successEnvelope(okResponseSchema) },
      },
    },
    async (request, reply) => {
      resetPerToken(request.body.token)
      await auth.resetPassword(request.body)
      // Every session of the account ended; this browser's too, if it had one.
      await auth.logout(gate.cookieValue(request))
      gate.clearCookie(reply)
      return success({ ok: true as const })
    },
  )

  app.get(
    '/api/session',
    {
      config: { policy: 'visitor' },
      schema: {
        tags,
        response: { 200: successEnvelope(sessionResponseSchema) },
        description:
          "The page's session check: the signed-in user, or null for a visitor (a 200 either way).",
      },
    },
    async (request, reply) => {
      // Per browser: a shared cache must never hand one person's answer to another.
      void reply.header('cache-control', 'private, no-store')
      const caller = await gate.optionalUser(request)
      return success({ user: caller ? toUserSession(caller.row) : null })
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
      const { row } = callerOf(request)
      return success({ user: toUserSession(row) })
    },
  )

  app.post(
    '/api/:sport/user',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: userUpdateBodySchema,
        response: { 200: successEnvelope(userUpdateResponseSchema) },
        description: 'Profile update: team name, team supported, notification settings.',
      },
    },
    async (request) => {
      const { sport } = request.params
      const { row } = callerOf(request)
      const user = await auth.updateProfile(row.id, sport, request.body)
      return success({ user, successMsg: request.body.successMsg ?? null })
    },
  )

  app.post(
    '/api/user/password',
    {
      config: { policy: 'user', ...perAddress },
      schema: {
        tags,
        body: passwordChangeBodySchema,
        response: { 200: successEnvelope(okResponseSchema) },
        description: 'Password change; signs out every other session of the account.',
      },
    },
    async (request) => {
      const user = callerOf(request)
      passwordChangePerUser(user.row.id)
      await auth.changePassword(user, request.body)
      return success({ ok: true as const })
    },
  )

  app.post(
    '/api/user/deactivate',
    {
      config: { policy: 'user' },
      schema: { tags, response: { 200: successEnvelope(okResponseSchema) } },
    },
    async (request, reply) => {
      const { row } = callerOf(request)
      await auth.deactivate(row.id)
      gate.clearCookie(reply)
      return success({ ok: true as const })
    },
  )
}

const unsubscribeParamsSchema = z.object({ token: z.string().max(100) })

/**
 * `/unsubscribe/{token}`, the link in a list email's List-Unsubscribe header (decision 043). POST
 * (RFC 8058 one-click, made by the mail provider, or by the page's button) turns the list off;
 * GET only asks, since link scanners and previews open links by GET.
 */
export async function unsubscribeRoutes(
  app: App,
  deps: { auth: AuthService; secret: string },
): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>()
    // RFC 8058: the provider posts `List-Unsubscribe=One-Click` as a form, urlencoded or
    // multipart. The token in the path is all this route reads, so the body is taken as text and
    // left alone (its size capped).
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, doneParsing) => doneParsing(null, body),
    )
    /** An HTML answer, never stored, its policy allowing the page's style: the nonce. */
    const html = (reply: FastifyReply): string | undefined => {
      const allowed = styleNonce(reply.getHeader('content-security-policy'))
      if (allowed) void reply.header('content-security-policy', allowed.csp)
      void reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
      return allowed?.nonce
    }

    scope.get(
      '/unsubscribe/:token',
      { config: { policy: 'visitor' }, schema: { hide: true, params: unsubscribeParamsSchema } },
      async (request, reply) => {
        const found = readUnsubscribeToken(deps.secret, request.params.token)
        const nonce = html(reply)
        return found ? askPage(found.list, nonce) : reply.status(404).send(invalidLinkPage(nonce))
      },
    )

    scope.post(
      '/unsubscribe/:token',
      { config: { policy: 'visitor' }, schema: { hide: true, params: unsubscribeParamsSchema } },
      async (request, reply) => {
        const found = readUnsubscribeToken(deps.secret, request.params.token)
        const nonce = html(reply)
        if (!found || !(await deps.auth.unsubscribe(found.userId, found.list))) {
          return reply.status(404).send(invalidLinkPage(nonce))
        }
        return donePage(found.list, nonce)
      },
    )
  })
}
