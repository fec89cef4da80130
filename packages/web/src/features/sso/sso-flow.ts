import { SSO_CALLBACK_PATHS, SSO_CLIENTS, type SsoClientName } from '@tipping/contract/sso-clients'
import type { SsoConfig } from '@tipping/contract/sso'
import { readStored, removeStored, writeStored } from '../../lib/storage.ts'
import { createCodeVerifier, randomToken, s256Challenge } from './pkce.ts'

// The browser's half of single sign-on (spec 7 "Single sign-on", spec 4 "Sign-in callback").

/** Local storage names (the storage helper adds the '-1' suffix). */
export const SSO_KEYS = {
  state: 'ssoState',
  verifier: 'ssoVerifier',
  nonce: 'ssoNonce',
  /** The client of a single sign-on, so logout also ends the provider's session. */
  signedIn: 'ssoSignedIn',
  /** Spec 4: app users are flagged locally. */
  appUser: 'appUser',
} as const

export interface StoredRequest {
  state: string | null
  verifier: string | null
  nonce: string | null
}

export const readStoredRequest = (): StoredRequest => ({
  state: readStored(SSO_KEYS.state),
  verifier: readStored(SSO_KEYS.verifier),
  nonce: readStored(SSO_KEYS.nonce),
})

export function clearStoredRequest(): void {
  removeStored(SSO_KEYS.state)
  removeStored(SSO_KEYS.verifier)
  removeStored(SSO_KEYS.nonce)
}

/** Which client a page belongs to: `/login-app...` the women's app, `/login-bigbash-app...` the men's. */
export function clientForPath(pathname: string): SsoClientName {
  if (pathname.startsWith('/login-bigbash-app')) return 'bblApp'
  if (pathname.startsWith('/login-app')) return 'wbblApp'
  return 'web'
}

export const isCallbackPath = (pathname: string): boolean =>
  SSO_CLIENTS.some((c) => SSO_CALLBACK_PATHS[c] === pathname)

/**
 * The authorize URL, exactly as spec 7 lists it: client id and redirect uri from configuration,
 * S256 challenge of a fresh 128-character verifier, random state and nonce (kept locally for the
 * callback), the scope, and response type `code`.
 */
export async function buildAuthorizeRequest(
  config: SsoConfig,
  client: SsoClientName,
): Promise<{ url: string; stored: Required<{ [K in keyof StoredRequest]: string }> }> {
  const settings = config.clients[client]
  if (!config.enabled || !config.authorizationEndpoint || !settings) {
    throw new Error('Single sign-on is not available for this app')
  }
  const verifier = createCodeVerifier()
  const state = randomToken()
  const nonce = randomToken()
  const url = new URL(config.authorizationEndpoint)
  url.searchParams.set('client_id', settings.clientId)
  url.searchParams.set('redirect_uri', settings.redirectUri)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', config.scope)
  url.searchParams.set('state', state)
  url.searchParams.set('nonce', nonce)
  url.searchParams.set('code_challenge', await s256Challenge(verifier))
  url.searchParams.set('code_challenge_method', 'S256')
  return { url: url.toString(), stored: { state, verifier, nonce } }
}

/** Stores the request's secrets, then leaves for the provider. */
export async function startSignIn(
  config: SsoConfig,
  client: SsoClientName,
  go: (url: string) => void = (url) => window.location.assign(url),
): Promise<void> {
  const { url, stored } = await buildAuthorizeRequest(config, client)
  writeStored(SSO_KEYS.state, stored.state)
  writeStored(SSO_KEYS.verifier, stored.verifier)
  writeStored(SSO_KEYS.nonce, stored.nonce)
  go(url)
}

export type CallbackResult =
  | { ok: true; code: string; verifier: string; nonce: string }
  /** `settled`: the state matched, so this sign-in attempt is over and its secrets can go. */
  | { ok: false; reason: string; settled: boolean }

const PROVIDER_ERRORS: Record<string, string> = {
  access_denied: 'Sign-in was cancelled.',
  login_required: 'Please sign in to your Big Bash Account.',
}

/**
 * Spec 4: the callback proceeds only with a code and a state equal to the stored one. RFC 9207:
 * when the provider names itself (`iss`), it must be the configured issuer.
 */
export function checkCallback(
  params: URLSearchParams,
  stored: StoredRequest,
  expectedIssuer: string | null,
): CallbackResult {
  const state = params.get('state')
  if (!stored.state || !stored.verifier || !stored.nonce) {
    return {
      ok: false,
      reason: 'This sign-in was not started in this browser, or has already been used.',
      settled: false,
    }
  }
  if (!state || state !== stored.state) {
    return {
      ok: false,
      reason: 'This sign-in response does not match the sign-in you started (state mismatch).',
      settled: false,
    }
  }
  const iss = params.get('iss')
  if (iss !== null && expectedIssuer !== null && iss !== expectedIssuer) {
    return {
      ok: false,
      reason: 'This sign-in response came from an unexpected provider.',
      settled: false,
    }
  }
  const error = params.get('error')
  if (error) {
    return {
      ok: false,
      reason: PROVIDER_ERRORS[error] ?? `The identity provider refused the sign-in (${error}).`,
      settled: true,
    }
  }
  const code = params.get('code')
  if (!code) {
    return { ok: false, reason: 'The identity provider sent no sign-in code.', settled: true }
  }
  return { ok: true, code, verifier: stored.verifier, nonce: stored.nonce }
}

export function markSignedIn(client: SsoClientName): void {
  writeStored(SSO_KEYS.signedIn, client)
  if (client !== 'web') writeStored(SSO_KEYS.appUser, client === 'bblApp' ? 'bbl' : 'wbbl')
}

/** The provider's logout (RP-initiated logout), back to the app; null when not offered. */
export function externalLogoutUrl(config: SsoConfig, client: SsoClientName = 'web'): string | null {
  const settings = config.clients[client] ?? config.clients.web
  if (!config.endSessionEndpoint || !settings) return null
  const url = new URL(config.endSessionEndpoint)
  url.searchParams.set('client_id', settings.clientId)
  if (config.postLogoutRedirectUri) {
    url.searchParams.set('post_logout_redirect_uri', config.postLogoutRedirectUri)
  }
  return url.toString()
}

/** The provider's profile page with a `returnUrl` back to where the user is. */
export function externalProfileUrl(config: SsoConfig, returnUrl: string): string | null {
  if (!config.profileUrl) return null
  const url = new URL(config.profileUrl)
  url.searchParams.set('returnUrl', returnUrl)
  return url.toString()
}

/** The client of the last single sign-on, until logout; null after a password sign-in. */
export function ssoSignInClient(): SsoClientName | null {
  const value = readStored(SSO_KEYS.signedIn)
  return SSO_CLIENTS.find((c) => c === value) ?? null
}

export function forgetSsoSignIn(): void {
  removeStored(SSO_KEYS.signedIn)
}
