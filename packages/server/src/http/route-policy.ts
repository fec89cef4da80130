import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify'
import { SPORTS, type Sport } from '@tipping/contract/constants'
import type { SessionGate } from './session.ts'

// Who may call a route (issue 9, item 1; issue 28). Every route states it in its options as
// `config: { policy }`; the server refuses to start when a route has none (enforceRoutePolicies).
// One hook enforces it (authorizeRoutes): before the body is parsed or any input validated, a
// 'user', 'member' or 'commissioner' route refuses a caller who is not signed in (or not
// registered for the route's sport) and an 'admin' route anyone but an admin, then leaves the
// caller on the request for the handler (session.ts callerOf). Whether a user belongs to or owns
// the league a route names is the league service's check, since only it reads the league. The
// route-policy test drives every registered route with every kind of caller.
export const ROUTE_POLICIES = [
  /** Anyone, signed in or not. */
  'visitor',
  /** A signed-in user (registered for the sport when the route has one). */
  'user',
  /** A member of the league named in the route (a public league: any signed-in user may read it). */
  'member',
  /** The league's commissioner (its owner). */
  'commissioner',
  /** ROLE_ADMIN. */
  'admin',
] as const
export type RoutePolicy = (typeof ROUTE_POLICIES)[number]

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy
    /**
     * A 'user' route under `:sport` that a user not yet registered for the sport may call: the
     * registration itself (the answer to a 513).
     */
    anySport?: boolean
  }
}

/** One registered route as the policy table sees it. */
export interface PolicedRoute {
  method: string
  url: string
  policy: RoutePolicy | undefined
  /** The route's zod schemas (params, querystring, body), for test drivers. */
  schema: FastifySchema | undefined
}

const registries = new WeakMap<object, RouteOptions[]>()

const isPolicy = (value: unknown): value is RoutePolicy =>
  (ROUTE_POLICIES as readonly unknown[]).includes(value)

const describe = (r: RouteOptions) =>
  `${Array.isArray(r.method) ? r.method.join('|') : r.method} ${r.url}`

/**
 * Records every route registered after this call and refuses to start (app.ready() rejects,
 * naming each route) when one has no valid `config.policy`. Call it first in buildApp. The
 * options are read when the app is ready, so a scope's grantPolicy hook (which runs after this
 * one) counts.
 */
export function enforceRoutePolicies(app: FastifyInstance): void {
  const routes: RouteOptions[] = []
  registries.set(app, routes)
  app.addHook('onRoute', (options) => {
    routes.push(options)
  })
  app.addHook('onReady', async () => {
    const missing = routes.filter((r) => !isPolicy(r.config?.policy))
    if (missing.length > 0) {
      throw new Error(
        `Route without an access policy: ${missing.map(describe).join(', ')}. ` +
          `Declare who may call it in its options: config: { policy: ${ROUTE_POLICIES.map((p) => `'${p}'`).join(' | ')} } ` +
          '(packages/server/src/http/route-policy.ts); authorizeRoutes enforces it.',
      )
    }
  })
}

/**
 * For routes a plugin registers (static files): every route in this scope that states no policy
 * gets this one. Register the plugin inside the scope.
 */
export function grantPolicy(scope: FastifyInstance, policy: RoutePolicy): void {
  scope.addHook('onRoute', (options) => {
    if (!options.config?.policy) options.config = { ...options.config, policy }
  })
}

/** Every route registered on an app that enforceRoutePolicies watches, with its policy. */
export function routeTable(app: FastifyInstance): PolicedRoute[] {
  const routes = registries.get(app)
  if (!routes) throw new Error('enforceRoutePolicies was not called on this app')
  return routes.flatMap((r) =>
    (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({
      method,
      url: r.url,
      policy: isPolicy(r.config?.policy) ? r.config.policy : undefined,
      schema: r.schema,
    })),
  )
}

const isSport = (value: unknown): value is Sport => (SPORTS as readonly unknown[]).includes(value)

/**
 * Enforces every route's policy before anything of the request is read: a preParsing hook, so it
 * runs before the body is parsed and before params, query and body are validated. A caller below
 * the policy gets 401, 403 or 513, never a 400 that would describe the input the route expects.
 * It runs after the onRequest hooks (security headers, load shedding, origin check and the
 * per-route rate limits), as the handlers' own checks did. Call it before any route is
 * registered.
 */
export function authorizeRoutes(
  app: FastifyInstance,
  gate: Pick<SessionGate, 'requireUser' | 'requireAdmin'>,
): void {
  app.decorateRequest('caller', null)
  const admin = async (request: FastifyRequest) => {
    request.caller = await gate.requireAdmin(request)
    return undefined
  }
  const signedIn = async (request: FastifyRequest) => {
    request.caller = await gate.requireUser(request)
    return undefined
  }
  // A sport that is not one is left to validation (400) once the session is known to be live.
  const registered = async (request: FastifyRequest) => {
    const { sport } = request.params as { sport?: unknown }
    request.caller = await gate.requireUser(request, isSport(sport) ? sport : undefined)
    return undefined
  }
  // Attached to each route as it is registered: a hook on every request would cost the hot read
  // routes a look at routeOptions, which Fastify builds anew on each call.
  app.addHook('onRoute', (route) => {
    const config = route.config as { policy?: unknown; anySport?: boolean } | undefined
    const policy = config?.policy
    if (!isPolicy(policy) || policy === 'visitor') return
    const check =
      policy === 'admin'
        ? admin
        : route.url.includes(':sport') && !config?.anySport
          ? registered
          : signedIn
    const own = route.preParsing
    route.preParsing = own === undefined ? [check] : [check, ...(Array.isArray(own) ? own : [own])]
  })
}

/** Routes the public OpenAPI document leaves out: the admin API and test-only routes. */
export const isPrivateRoute = (route: { url: string; config?: unknown }): boolean =>
  (route.config as { policy?: unknown } | undefined)?.policy === 'admin' ||
  route.url.startsWith('/api/admin/') ||
  route.url.startsWith('/api/test/')
