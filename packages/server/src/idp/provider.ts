import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider'
import { z } from 'zod'
import { SSO_SCOPE } from '@tipping/contract/sso-clients'
import type { App } from '../http/types.ts'
import type { SsoClientSettings } from '../modules/sso/settings.ts'
import { verifyDevAccount, type DevAccount } from './accounts.ts'
import { memoryStore } from './memory-store.ts'
import { errorPage, IDP_STYLESHEET, loggedOutPage, logoutPage, signInPage } from './pages.ts'

// The development identity provider (ARCHITECTURE.md "Identity"): a real OpenID Connect provider
// built on oidc-provider, mounted on the app's own Fastify server, so sign-in runs end to end on a
// fresh machine and in tests. Authorization code only, PKCE always required (S256 is the only
// method oidc-provider implements), signed ID tokens, seeded accounts, in-memory state.

export interface DevProviderOptions {
  /** `{origin}/oidc`; its path is where the provider is mounted. */
  issuer: string
  clients: SsoClientSettings[]
  postLogoutRedirectUri: string
  accounts: readonly DevAccount[]
  log: FastifyBaseLogger
}

const CLIENT_NAME = 'Big Bash Tipping'

function signingKey() {
  // A fresh key each start: tokens from a previous run are worthless, which suits development.
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'ES256', use: 'sig' }
}

export function createDevProvider(opts: DevProviderOptions): Provider {
  const mountPath = new URL(opts.issuer).pathname.replace(/\/$/, '')
  const stylesheet = `${mountPath}/assets/idp.css`
  const byId = new Map(opts.accounts.map((a) => [a.sub, a]))

  const configuration: Configuration = {
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      ...(c.clientSecret
        ? { client_secret: c.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
      client_name: CLIENT_NAME,
      redirect_uris: [c.redirectUri],
      post_logout_redirect_uris: [opts.postLogoutRedirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    })),
    adapter: memoryStore(),
    jwks: { keys: [signingKey()] },
    // Seconds. A code is good for one minute (RFC 9700 4.2.1 says short); the rest for a session.
    ttl: {
      AuthorizationCode: 60,
      IdToken: 600,
      AccessToken: 600,
      Interaction: 600,
      Session: 86_400,
      Grant: 86_400,
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // RFC 9700 2.1.1: PKCE for every client, confidential ones too.
    pkce: { required: () => true },
    responseTypes: ['code'],
    allowOmittingSingleRegisteredRedirectUri: false,
    scopes: ['openid'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      firstname: ['firstname'],
      lastname: ['lastname'],
      favteam: ['favteam'],
    },
    // The app reads the profile from the ID token; no userinfo round trip needed.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => {
      const account = byId.get(sub)
      if (!account) return undefined
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: account.email,
          ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
          firstname: account.firstname,
          lastname: account.lastname,
          favteam: account.favteam,
        }),
      }
    },
    // Every client here is the product itself: consent is implied, as for any first-party app.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const clientId = ctx.oidc.client?.clientId
      const session = ctx.oidc.session
      if (!clientId || !session?.accountId) return undefined
      const grantId =
        (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId ??
        session.grantIdFor(clientId)
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId)
        if (existing) return existing
      }
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId })
      grant.addOIDCScope(SSO_SCOPE)
      await grant.save()
      return grant
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html'
          ctx.set('referrer-policy', 'same-origin')
          ctx.body = logoutPage(stylesheet, form)
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html'
          ctx.body = loggedOutPage(stylesheet)
        },
      },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html'
      ctx.body = errorPage(stylesheet, {
        error: out.error,
        ...(out.error_description ? { error_description: out.error_description } : {}),
      })
    },
  }
  const provider = new Provider(opts.issuer, configuration)
  // X-Forwarded-Proto for an https issuer: injectFetch sets it on the app's in-process requests.
  // A caller forging it changes only the URLs in its own answers; the app's settings come from the
  // issuer (the configured origin), and production refuses this provider (config.ts).
  provider.proxy = true
  // Only the error's name and message: a request's parameters may carry codes or tokens.
  provider.on('server_error', (_ctx: unknown, err: Error) =>
    opts.log.error({ err: { name: err.name, message: err.message } }, 'development provider error'),
  )
  return provider
}

/**
 * The headers of every page under the provider's path. oidc-provider writes its own answers
 * (authorize, logout, errors) straight to the Node response, past the app's hooks, so they went
 * out with no CSP and could be framed. Its forms post to the provider itself, or (form_post) to a
 * client's callback, so those origins are the form targets; its one inline script (the form it
 * submits itself) is allowed by oidc-provider adding that script's hash to script-src.
 */
export function devProviderHeaders(formOrigins: readonly string[]): Record<string, string> {
  const targets = [...new Set(formOrigins)].filter((o) => o !== 'null')
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "object-src 'none'",
      "base-uri 'none'",
      `form-action 'self'${targets.map((o) => ` ${o}`).join('')}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
  }
}

const signInBody = z.object({
  email: z.string().trim().max(254).default(''),
  password: z.string().max(200).default(''),
})

/** Mounts the provider at its issuer path, with its sign-in pages and stylesheet. */
export async function devProviderRoutes(
  app: App,
  deps: {
    provider: Provider
    accounts: readonly DevAccount[]
    perMinute: number
    /** Where the provider's forms may post besides itself: the clients' callback origins. */
    formOrigins?: readonly string[]
  },
): Promise<void> {
  const { provider, accounts } = deps
  const mountPath = new URL(provider.issuer).pathname.replace(/\/$/, '')
  const stylesheet = `${mountPath}/assets/idp.css`
  const handle = provider.callback()
  const headers = devProviderHeaders(deps.formOrigins ?? [])

  // The provider itself: oidc-provider is a Koa app, run on the raw Node request. Its own body
  // parser reads the stream, so this scope parses nothing.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
    scope.all(
      `${mountPath}/*`,
      { config: { policy: 'visitor' }, schema: { hide: true } },
      async (request, reply) => {
        const raw = request.raw as IncomingMessage & { originalUrl?: string }
        raw.originalUrl = raw.url
        raw.url = (raw.url ?? '/').slice(mountPath.length) || '/'
        reply.hijack()
        // Hijacked, the app's headers are not sent: these go on the Node response itself, where
        // oidc-provider finds the CSP (and adds its inline script's hash).
        for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value)
        await handle(raw, reply.raw)
        // Back to the full path, for the request log.
        raw.url = raw.originalUrl
      },
    )
  })

  // The sign-in pages, which the provider leaves to the deployment.
  await app.register(async (scope) => {
    // The same headers as the provider's own pages (the app's CSP is replaced, not added to).
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers)
    })
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    )

    scope.get(
      `${mountPath}/assets/idp.css`,
      { config: { policy: 'visitor' }, schema: { hide: true } },
      async (_request, reply) =>
        reply.type('text/css').header('cache-control', 'no-cache').send(IDP_STYLESHEET),
    )

    const html = (status: number, body: string) => ({ status, body })
    const interaction = async (
      request: { raw: IncomingMessage; params: unknown },
      raw: Parameters<Provider['interactionDetails']>[1],
    ) => {
      const { uid } = request.params as { uid: string }
      try {
        const details = await provider.interactionDetails(request.raw, raw)
        return details.uid === uid ? details : null
      } catch {
        return null
      }
    }
    const expired = html(
      400,
      errorPage(stylesheet, {
        error: 'invalid_request',
        error_description: 'This sign-in has expired. Go back to the app and start again.',
      }),
    )

    scope.get(
      `${mountPath}/interaction/:uid`,
      { config: { policy: 'visitor' }, schema: { hide: true } },
      async (request, reply) => {
        const details = await interaction(request, reply.raw)
        const page =
          details?.prompt.name === 'login'
            ? html(
                200,
                signInPage({
                  stylesheet,
                  action: `${mountPath}/interaction/${details.uid}/login`,
                  clientName: CLIENT_NAME,
                }),
              )
            : expired
        return reply
          .status(page.status)
          .type('text/html')
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'same-origin')
          .send(page.body)
      },
    )

    scope.post(
      `${mountPath}/interaction/:uid/login`,
      {
        schema: { hide: true },
        config: { policy: 'visitor', rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        const details = await interaction(request, reply.raw)
        const send = (status: number, body: string) =>
          reply
            .status(status)
            .type('text/html')
            .header('cache-control', 'no-store')
            .header('referrer-policy', 'same-origin')
            .send(body)
        if (!details || details.prompt.name !== 'login') return send(expired.status, expired.body)
        const form = signInBody.safeParse(request.body ?? {})
        const { email, password } = form.success ? form.data : { email: '', password: '' }
        const account = verifyDevAccount(accounts, email, password)
        if (!account) {
          return send(
            401,
            signInPage({
              stylesheet,
              action: `${mountPath}/interaction/${details.uid}/login`,
              clientName: CLIENT_NAME,
              email,
              error: 'Email or password is incorrect',
            }),
          )
        }
        const returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: account.sub } },
          { mergeWithLastSubmission: false },
        )
        return reply.redirect(returnTo, 303)
      },
    )
  })
}
