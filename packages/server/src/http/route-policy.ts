// Who may call a route (issue 9, item 1). Every route states it in its options as
// `config: { policy }`; the route-policy test enumerates the registered routes and fails on any
// route without one. The check itself stays in the handler (gate.requireUser, requireAdmin,
// the league service's membership checks): the policy is the route's promise, tested from outside.
export const ROUTE_POLICIES = [
  /** Anyone, signed in or not. */
  'visitor',
  /** A signed-in user (registered for the sport when the route has one). */
  'user',
  /** A member of the league named in the route. */
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
