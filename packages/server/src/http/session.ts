import type { FastifyReply, FastifyRequest } from 'fastify'
import { roleForSport, sessionCookieName, type Sport } from '@tipping/contract/constants'
import { AppError } from '../errors.ts'
import {
  sessionMaxAgeSeconds,
  type AuthService,
  type SessionPolicy,
  type SessionUser,
} from '../modules/auth/service.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in user the route's policy let in, set before the input is read
     * (route-policy.ts authorizeRoutes); null on a visitor's route. Handlers read it through
     * callerOf.
     */
    caller: SessionUser | null
  }
}

/**
 * The caller of a route whose policy needs a signed-in user (user, member, commissioner, admin).
 * Throws on a visitor's route: reading a caller there means the route declares one policy and
 * needs another, which the route-policy test finds when it drives the route as a visitor.
 */
export function callerOf(request: FastifyRequest): SessionUser {
  if (!request.caller)
    throw new Error(
      `${request.method} ${request.routeOptions.url ?? ''} reads the caller but its policy lets visitors in`,
    )
  return request.caller
}

/** Reads and writes the session cookie; resolves the signed-in user once per request. */
export class SessionGate {
  private readonly cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>()
  /** `__Host-tip_session` when Secure; only a cookie of this name is read. */
  readonly cookieName: string

  constructor(
    private readonly auth: AuthService,
    private readonly policy: SessionPolicy,
    private readonly secureCookies: boolean,
  ) {
    this.cookieName = sessionCookieName(secureCookies)
  }

  cookieValue(request: FastifyRequest): string | undefined {
    return request.cookies[this.cookieName]
  }

  optionalUser(request: FastifyRequest): Promise<SessionUser | null> {
    let found = this.cache.get(request)
    if (!found) {
      found = this.auth.resolve(this.cookieValue(request))
      this.cache.set(request, found)
    }
    return found
  }

  /** 401 with no live session; 513 when the user is not registered for the sport's game. */
  async requireUser(request: FastifyRequest, sport?: Sport): Promise<SessionUser> {
    const user = await this.optionalUser(request)
    if (!user) throw new AppError('UNAUTHORIZED', 'Session expired. Please log in again.')
    if (sport && !user.row.roles.includes(roleForSport(sport))) {
      throw new AppError(
        'NOT_REGISTERED',
        `You are not registered for ${sport.toUpperCase()} tipping`,
      )
    }
    return user
  }

  /** 401 with no live session; 403 unless the user has ROLE_ADMIN. */
  async requireAdmin(request: FastifyRequest): Promise<SessionUser> {
    const user = await this.requireUser(request)
    if (!user.row.roles.includes('ROLE_ADMIN'))
      throw new AppError('FORBIDDEN', 'Only an admin can do this')
    return user
  }

  setCookie(reply: FastifyReply, sessionId: string): void {
    // Path=/ and no Domain: what the __Host- prefix requires of a Secure cookie.
    reply.setCookie(this.cookieName, sessionId, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookies,
      maxAge: sessionMaxAgeSeconds(this.policy),
    })
  }

  clearCookie(reply: FastifyReply): void {
    reply.clearCookie(this.cookieName, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookies,
    })
  }
}
