import { successEnvelope } from '@tipping/contract/errors'
import {
  canadaStatesResponseSchema,
  contactBodySchema,
  contactResponseSchema,
  countryResponseSchema,
  preregistrationBodySchema,
  preregistrationResponseSchema,
} from '@tipping/contract/site'
import { AppError } from '../../errors.ts'
import { success } from '../../http/envelope.ts'
import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { SiteService } from './service.ts'

export interface SiteRouteOptions {
  site: SiteService
  gate: SessionGate
  contactPerHour: number
  preregistrationsPerHour: number
  /** Lower-case header name set by the proxy or CDN with the caller's country; unset: unknown. */
  geoCountryHeader: string | undefined
}

/** Per address, counted in this process (like the sign-in limits); the envelope on refusal. */
const perAddressPerHour = (max: number, what: string) => ({
  max,
  timeWindow: '1 hour',
  errorResponseBuilder: () =>
    new AppError('RATE_LIMITED', `Too many ${what} from your address; try again later`),
})

export function siteRoutes(app: App, deps: SiteRouteOptions): void {
  const { site, gate } = deps
  const tags = ['site']

  app.post(
    '/api/contact',
    {
      config: {
        policy: 'visitor',
        rateLimit: perAddressPerHour(deps.contactPerHour, 'messages'),
      },
      schema: {
        tags,
        body: contactBodySchema,
        response: { 200: successEnvelope(contactResponseSchema) },
        description: 'The contact form: stored, and emailed to the support address.',
      },
    },
    async (request) => {
      // Visitors and signed-in users alike; a signed-in sender is noted on the message.
      const user = await gate.optionalUser(request)
      await site.contact(request.body, user?.row.id ?? null)
      return success({ sent: true as const })
    },
  )

  app.post(
    '/api/preregistration',
    {
      config: {
        policy: 'visitor',
        rateLimit: perAddressPerHour(deps.preregistrationsPerHour, 'pre-registrations'),
      },
      schema: {
        tags,
        body: preregistrationBodySchema,
        response: { 200: successEnvelope(preregistrationResponseSchema) },
        description: 'Register interest in the coming season; the same answer for a repeat.',
      },
    },
    async (request) => success(await site.preregister(request.body)),
  )

  app.get(
    '/.well-known/security.txt',
    { config: { policy: 'visitor' }, schema: { hide: true } },
    async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(site.securityTxt()),
  )

  // A Well-Known URL for Changing Passwords (W3C): a password manager sends a player here to change
  // a password it holds. The form is on the account page of a sport, which only the browser knows
  // (the sport it remembers), so the app's sport-neutral /account page picks it.
  app.get(
    '/.well-known/change-password',
    { config: { policy: 'visitor' }, schema: { hide: true } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').redirect('/account', 302),
  )

  app.get(
    '/api/country',
    {
      config: { policy: 'visitor' },
      schema: {
        tags,
        response: { 200: successEnvelope(countryResponseSchema) },
        description: "The caller's country (ISO code) from the proxy's geo header, or null.",
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store')
      const header = deps.geoCountryHeader
      return success(site.country(header ? request.headers[header] : undefined))
    },
  )

  app.get(
    '/api/country/canada_state',
    {
      config: { policy: 'visitor' },
      schema: { tags, response: { 200: successEnvelope(canadaStatesResponseSchema) } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=86400')
      return success(site.canadaStates())
    },
  )
}
