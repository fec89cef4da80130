import type { Logger } from '../../logger.ts'
import * as oidc from 'openid-client'
import { z } from 'zod'
import { roleForSport, type Sport } from '@tipping/contract/constants'
import type { SsoConfig, ssoLoginBodySchema } from '@tipping/contract/sso'
import { SSO_SCOPE, ssoClientFor, type SsoClientName } from '@tipping/contract/sso-clients'
import type { Clock } from '../../clock.ts'
import type { Database, UserRow } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { accountByEmail, enterCurrentCompetitions } from '../auth/service.ts'
import { inPlacementTurn } from '../scoring/service.ts'
import * as q from './queries.ts'
import type { SsoClientSettings, SsoSettings } from './settings.ts'

export type SsoLogin = z.output<typeof ssoLoginBodySchema>
export type ProviderFetch = oidc.CustomFetch

/** How long discovered provider metadata is trusted before it is fetched again. */
const METADATA_TTL_MS = 60 * 60 * 1000
const PROVIDER_TIMEOUT_SECONDS = 10

/** The claims the product reads; profile claims that do not fit are dropped, not fatal. */
const claimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.email().max(254).optional().catch(undefined),
  email_verified: z.boolean().optional().catch(undefined),
  firstname: z.string().trim().max(60).optional().catch(undefined),
  lastname: z.string().trim().max(60).optional().catch(undefined),
  favteam: z
    .union([z.string().max(40), z.number()])
    .optional()
    .catch(undefined),
})
type Claims = z.infer<typeof claimsSchema>

const refused = (message: string, param: string | null = null) =>
  new AppError('SSO_REFUSED', message, param)
const providerError = (message: string) => new AppError('SSO_PROVIDER_ERROR', message)

/**
 * Turns whatever the code exchange threw into a refusal the browser can show, and a log line
 * with the reason only: never the code, the verifier, a token or the provider's response body.
 */
function refusal(err: unknown, log: Logger): AppError {
  if (err instanceof AppError) return err
  const reason = (e: AppError) => {
    log.warn(
      { sso: { code: (err as { code?: string }).code, error: (err as { error?: string }).error } },
      `single sign-on refused: ${e.message}`,
    )
    return e
  }
  if (err instanceof oidc.ResponseBodyError) {
    switch (err.error) {
      case 'invalid_grant':
        return reason(
          refused(
            'This sign-in code is invalid, expired or has already been used. Please sign in again.',
            'code',
          ),
        )
      case 'invalid_client':
      case 'unauthorized_client':
        return reason(providerError("The identity provider did not accept this app's client"))
      default:
        return reason(refused(`The identity provider refused the sign-in (${err.error})`))
    }
  }
  if (err instanceof oidc.WWWAuthenticateChallengeError) {
    // The token endpoint's 401 for failed client authentication (RFC 6749 5.2).
    const error = err.cause.map((c) => c.parameters.error).find(Boolean)
    log.warn({ sso: { status: err.status, error } }, 'single sign-on: client authentication failed')
    return providerError("The identity provider did not accept this app's client")
  }
  if (err instanceof oidc.ClientError) {
    const cause = err.cause as { message?: string; cause?: { claim?: string } } | undefined
    switch (err.code ?? '') {
      case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
        if (cause?.cause?.claim === 'nonce') {
          return reason(
            refused(
              'The ID token was issued for a different sign-in request (nonce mismatch)',
              'nonce',
            ),
          )
        }
        return reason(
          refused(`The ID token was not issued for this app (${cause?.cause?.claim ?? 'claim'})`),
        )
      case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
        return reason(refused('The ID token has expired or is not yet valid'))
      case 'OAUTH_INVALID_RESPONSE':
      case 'OAUTH_PARSE_ERROR':
      case 'OAUTH_KEY_SELECTION_FAILED':
        return reason(
          refused(
            /signature/i.test(cause?.message ?? '')
              ? "The ID token's signature is not valid"
              : 'The ID token failed verification',
          ),
        )
      case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
      case 'OAUTH_RESPONSE_IS_NOT_CONFORM':
      case 'OAUTH_RESPONSE_IS_NOT_JSON':
      case 'OAUTH_HTTP_REQUEST_FORBIDDEN':
      case 'OAUTH_MISSING_SERVER_METADATA':
      case 'OAUTH_INVALID_SERVER_METADATA':
        return reason(providerError('The identity provider answered in a way this app cannot use'))
      default:
        return reason(refused("The identity provider's response could not be verified"))
    }
  }
  // fetch failures and timeouts (their messages carry no request data)
  const e = err instanceof Error ? err : new Error(String(err))
  log.warn({ sso: { name: e.name, message: e.message } }, 'single sign-on: provider unreachable')
  return providerError('The identity provider could not be reached; try again soon')
}

export interface SsoServiceDeps {
  db: Database
  clock: Clock
  settings: SsoSettings
  log: Logger
  /** How requests reach the provider; the development provider is called in-process. */
  fetch?: ProviderFetch
}

/**
 * Single sign-on (spec 7): publishes the public client settings, and signs a user in from an
 * authorization code: exchange at the token endpoint with the PKCE verifier (and the client's
 * secret), ID token checks (signature, issuer, audience, expiry, nonce), claims mapped to a user.
 */
export class SsoService {
  private metadata: { at: number; value: Promise<oidc.ServerMetadata> } | null = null
  private readonly configs = new Map<
    string,
    { as: oidc.ServerMetadata; config: oidc.Configuration }
  >()

  constructor(private readonly deps: SsoServiceDeps) {}

  async publicConfig(): Promise<SsoConfig> {
    const { settings } = this.deps
    const as = await this.serverMetadata()
    const pub = (c: SsoClientSettings | null) =>
      c ? { clientId: c.clientId, redirectUri: c.redirectUri } : null
    return {
      enabled: true,
      issuer: as.issuer,
      authorizationEndpoint: as.authorization_endpoint ?? null,
      endSessionEndpoint: as.end_session_endpoint ?? null,
      postLogoutRedirectUri: as.end_session_endpoint ? settings.postLogoutRedirectUri : null,
      profileUrl: settings.profileUrl,
      scope: SSO_SCOPE,
      clients: {
        web: pub(settings.clients.web),
        wbblApp: pub(settings.clients.wbblApp),
        bblApp: pub(settings.clients.bblApp),
      },
    }
  }

  /** Exchanges the code and returns the signed-in user's row; the route starts the session. */
  async signIn(body: SsoLogin, sport: Sport): Promise<UserRow> {
    const clientName = ssoClientFor(body)
    const client = this.deps.settings.clients[clientName]
    if (!client) {
      throw new AppError(
        'VALIDATION',
        `Sign-in through the ${APP_NAMES[clientName]} is not set up`,
        clientName === 'bblApp' ? 'big_bash_app' : 'mobile_app',
      )
    }
    let claims: Claims
    try {
      claims = await this.exchange(client, body)
    } catch (err) {
      throw refusal(err, this.deps.log)
    }
    return this.userFor(claims, sport)
  }

  private async exchange(client: SsoClientSettings, body: SsoLogin): Promise<Claims> {
    const config = await this.configuration(client)
    const as = config.serverMetadata()
    // The browser checked `state` (and `iss`) on the callback and sends only the code: the
    // response is rebuilt on the registered redirect URI, which the token request repeats.
    const callback = new URL(client.redirectUri)
    callback.searchParams.set('code', body.code)
    if (as.authorization_response_iss_parameter_supported) {
      callback.searchParams.set('iss', as.issuer)
    }
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: body.verifier,
      expectedNonce: body.nonce,
      idTokenExpected: true,
    })
    const idToken = tokens.claims()
    if (!idToken) throw refused('The identity provider sent no ID token')
    let raw: Record<string, unknown> = { ...idToken }
    // Some providers keep profile claims for the userinfo endpoint only.
    if (raw.email === undefined && as.userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)
      raw = { ...info, ...raw }
    }
    const parsed = claimsSchema.safeParse(raw)
    if (!parsed.success) throw refused('The ID token has no usable subject')
    return parsed.data
  }

  private async userFor(claims: Claims, sport: Sport): Promise<UserRow> {
    const { db, clock } = this.deps
    if (!claims.email) {
      throw refused('The identity provider did not share an email address for this account')
    }
    const email = claims.email.toLowerCase()
    const now = clock.now()
    const profile = {
      externalId: claims.sub,
      firstName: claims.firstname ?? '',
      lastName: claims.lastname ?? '',
      teamSupported: await this.teamSupported(claims.favteam, sport),
    }
    const bySubject = await q.findUserByExternalId(db, claims.sub)
    const existing = bySubject ?? (await accountByEmail(db, email))
    if (existing) {
      if (!bySubject) {
        if (existing.external_id && existing.external_id !== claims.sub) {
          throw new AppError(
            'CONFLICT',
            'This email belongs to an account linked to a different Big Bash Account',
          )
        }
        // Linking by email trusts the provider's word that the address is the user's, so only
        // an explicit `email_verified: true` links: a provider that leaves the claim out has
        // not said so, and linking anyway would hand the account to whoever typed its address.
        if (claims.email_verified !== true) {
          throw refused(
            'Verify your email address with your Big Bash Account first, then sign in again',
          )
        }
      }
      if (existing.deactivated_at) {
        throw new AppError('FORBIDDEN', 'This account has been deactivated')
      }
      const linked = await q.linkSsoUser(db, existing.id, { ...profile, at: now })
      if (!linked) {
        throw new AppError(
          'CONFLICT',
          'This email belongs to an account linked to a different Big Bash Account',
        )
      }
      return linked
    }
    // First sign-in: a new account registered for this sport's game (as `{sport}/auth/register`).
    const created = await inPlacementTurn(db, async (trx) => {
      const row = await q.insertSsoUser(trx, {
        ...profile,
        email,
        roles: [roleForSport(sport)],
        registeredAt: now,
      })
      if (!row) return undefined
      await enterCurrentCompetitions(trx, row.id, [sport], now)
      return row
    })
    // Lost a race with another first sign-in (or a registration) for the same email: link instead.
    return created ?? this.userFor(claims, sport)
  }

  /** `favteam` as a squad id or a squad code of the sport; 0 (none) for anything else. */
  private async teamSupported(favteam: string | number | undefined, sport: Sport): Promise<number> {
    if (favteam === undefined || favteam === '') return 0
    const asNumber = typeof favteam === 'number' ? favteam : Number(favteam)
    const key =
      Number.isSafeInteger(asNumber) && asNumber > 0
        ? { id: asNumber }
        : typeof favteam === 'string' && /^[A-Za-z]{2,5}$/.test(favteam)
          ? { code: favteam }
          : null
    if (!key) return 0
    return (await q.findSquad(this.deps.db, sport, key))?.id ?? 0
  }

  private serverMetadata(): Promise<oidc.ServerMetadata> {
    const now = Date.now()
    if (!this.metadata || now - this.metadata.at > METADATA_TTL_MS) {
      const value = this.discover()
      this.metadata = { at: now, value }
      // A failed discovery is not remembered: the next request tries again.
      value.catch(() => {
        if (this.metadata?.value === value) this.metadata = null
      })
    }
    return this.metadata.value
  }

  private async discover(): Promise<oidc.ServerMetadata> {
    const { settings, fetch } = this.deps
    try {
      // Discovery needs a client id; the metadata is the same for all three clients.
      const config = await oidc.discovery(
        new URL(settings.issuer),
        'metadata',
        undefined,
        undefined,
        {
          ...(fetch ? { [oidc.customFetch]: fetch } : {}),
          execute: settings.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
          timeout: PROVIDER_TIMEOUT_SECONDS,
        },
      )
      return config.serverMetadata()
    } catch (err) {
      throw refusal(err, this.deps.log)
    }
  }

  private async configuration(client: SsoClientSettings): Promise<oidc.Configuration> {
    const { settings, fetch } = this.deps
    const as = await this.serverMetadata()
    const cached = this.configs.get(client.clientId)
    // Kept per client while the metadata lasts, so the provider's signing keys stay cached.
    if (cached?.as === as) return cached.config
    const config = new oidc.Configuration(
      as,
      client.clientId,
      undefined,
      client.clientSecret ? oidc.ClientSecretBasic(client.clientSecret) : oidc.None(),
    )
    if (fetch) config[oidc.customFetch] = fetch
    config.timeout = PROVIDER_TIMEOUT_SECONDS
    if (settings.issuer.startsWith('http:')) oidc.allowInsecureRequests(config)
    // Verify the ID token's signature against the provider's published keys, not only TLS.
    oidc.enableNonRepudiationChecks(config)
    this.configs.set(client.clientId, { as, config })
    return config
  }
}

const APP_NAMES: Record<SsoClientName, string> = {
  web: 'website',
  wbblApp: "women's app",
  bblApp: "men's app",
}
