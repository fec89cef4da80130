import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify'

// Who may call a route (issue 9, item 1). Every route states it in its options as
// `config: { policy }`; the server refuses to start when a route has none (enforceRoutePolicies),
// and the route-policy test drives every registered route with every kind of caller. The check
// itself stays in the handler (gate.requireUser, requireAdmin, the league service's membership
// checks): the policy is the route's promise, tested from outside.
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
          '(packages/server/src/http/route-policy.ts), and enforce it in the handler.',
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

/**
 * Admin routes refuse everyone else before anything of the request is read: an onRequest hook,
 * so it runs before the body is parsed and before params, query and body are validated. A
 * visitor or user posting anything to an admin route gets 401 or 403, never a 400 that would
 * describe the input the route expects. The handlers still check for themselves.
 */
export function refuseBeforeInput(
  app: FastifyInstance,
  requireAdmin: (request: FastifyRequest) => Promise<unknown>,
): void {
  // Attached to the admin routes alone as they are registered: a hook on every request would
  // cost the hot read routes a look at routeOptions, which Fastify builds anew on each call.
  const refuse = async (request: FastifyRequest) => {
    await requireAdmin(request)
  }
  app.addHook('onRoute', (route) => {
    if ((route.config as { policy?: unknown } | undefined)?.policy !== 'admin') return
    const own = route.onRequest
    route.onRequest = own === undefined ? [refuse] : [refuse, ...(Array.isArray(own) ? own : [own])]
  })
}

/** Routes the public OpenAPI document leaves out: the admin API and test-only routes. */
export const isPrivateRoute = (route: { url: string; config?: unknown }): boolean =>
  (route.config as { policy?: unknown } | undefined)?.policy === 'admin' ||
  route.url.startsWith('/api/admin/') ||
  route.url.startsWith('/api/test/')
