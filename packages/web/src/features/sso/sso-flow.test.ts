import { afterEach, describe, expect, it } from 'vitest'
import type { SsoConfig } from '@tipping/contract/sso'
import { s256Challenge } from './pkce.ts'
import {
  buildAuthorizeRequest,
  checkCallback,
  clearStoredRequest,
  clientForPath,
  externalLogoutUrl,
  externalProfileUrl,
  readStoredRequest,
  startSignIn,
} from './sso-flow.ts'

const config: SsoConfig = {
  enabled: true,
  issuer: 'https://id.example/oidc',
  authorizationEndpoint: 'https://id.example/oidc/auth',
  endSessionEndpoint: 'https://id.example/oidc/session/end',
  postLogoutRedirectUri: 'https://tipping.example/',
  profileUrl: 'https://id.example/profile',
  scope: 'openid email firstname lastname favteam',
  clients: {
    web: { clientId: 'web-id', redirectUri: 'https://tipping.example/login/callback' },
    wbblApp: { clientId: 'wbbl-id', redirectUri: 'https://tipping.example/login-app/callback' },
    bblApp: null,
  },
}

afterEach(() => localStorage.clear())

describe('the authorize request (spec 7)', () => {
  it('carries the client, callback, scope, code response type, state, nonce and S256 challenge', async () => {
    const { url, stored } = await buildAuthorizeRequest(config, 'web')
    const u = new URL(url)
    expect(`${u.origin}${u.pathname}`).toBe('https://id.example/oidc/auth')
    expect(Object.fromEntries(u.searchParams)).toEqual({
      client_id: 'web-id',
      redirect_uri: 'https://tipping.example/login/callback',
      response_type: 'code',
      scope: 'openid email firstname lastname favteam',
      state: stored.state,
      nonce: stored.nonce,
      code_challenge: await s256Challenge(stored.verifier),
      code_challenge_method: 'S256',
    })
    expect(stored.verifier).toMatch(/^[A-Za-z0-9\-._~]{128}$/)
    expect(u.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it("uses each app's own client and callback", async () => {
    const { url } = await buildAuthorizeRequest(config, 'wbblApp')
    expect(new URL(url).searchParams.get('client_id')).toBe('wbbl-id')
    await expect(buildAuthorizeRequest(config, 'bblApp')).rejects.toThrow(/not available/)
  })

  it("stores state, verifier and nonce under '-1' keys, then leaves for the provider", async () => {
    let went = ''
    await startSignIn(config, 'web', (url) => (went = url))
    const stored = readStoredRequest()
    expect(localStorage.getItem('ssoState-1')).toBe(stored.state)
    expect(localStorage.getItem('ssoVerifier-1')).toBe(stored.verifier)
    expect(localStorage.getItem('ssoNonce-1')).toBe(stored.nonce)
    expect(new URL(went).searchParams.get('state')).toBe(stored.state)
    // The verifier itself never travels to the provider.
    expect(went).not.toContain(stored.verifier!)
    clearStoredRequest()
    expect(readStoredRequest()).toEqual({ state: null, verifier: null, nonce: null })
  })
})

describe('the callback (spec 4)', () => {
  const stored = { state: 'state-1', verifier: 'v'.repeat(128), nonce: 'nonce-1' }
  const params = (q: Record<string, string>) => new URLSearchParams(q)

  it('goes on with the code when the state is the stored one', () => {
    expect(checkCallback(params({ code: 'c1', state: 'state-1' }), stored, null)).toEqual({
      ok: true,
      code: 'c1',
      verifier: stored.verifier,
      nonce: 'nonce-1',
    })
  })

  it('refuses a wrong or missing state, and keeps the stored request for the real callback', () => {
    const responses: Record<string, string>[] = [{ code: 'c1', state: 'other' }, { code: 'c1' }]
    for (const q of responses) {
      const r = checkCallback(params(q), stored, null)
      expect(r).toMatchObject({ ok: false, settled: false })
      expect(r.ok || r.reason).toMatch(/state mismatch/)
    }
  })

  it('refuses a callback nobody started here', () => {
    const none = { state: null, verifier: null, nonce: null }
    expect(checkCallback(params({ code: 'c', state: 's' }), none, null)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not started in this browser/),
    })
  })

  it('refuses a response naming another issuer (RFC 9207)', () => {
    const q = params({ code: 'c', state: 'state-1', iss: 'https://evil.example' })
    expect(checkCallback(q, stored, 'https://id.example/oidc')).toMatchObject({ ok: false })
    const good = params({ code: 'c', state: 'state-1', iss: 'https://id.example/oidc' })
    expect(checkCallback(good, stored, 'https://id.example/oidc')).toMatchObject({ ok: true })
  })

  it("reports the provider's error, and a missing code", () => {
    expect(
      checkCallback(params({ error: 'access_denied', state: 'state-1' }), stored, null),
    ).toEqual({ ok: false, reason: 'Sign-in was cancelled.', settled: true })
    expect(checkCallback(params({ state: 'state-1' }), stored, null)).toMatchObject({
      ok: false,
      settled: true,
    })
  })

  it("knows each page's client", () => {
    expect(clientForPath('/login/callback')).toBe('web')
    expect(clientForPath('/')).toBe('web')
    expect(clientForPath('/login-app/callback')).toBe('wbblApp')
    expect(clientForPath('/login-app')).toBe('wbblApp')
    expect(clientForPath('/login-bigbash-app/callback')).toBe('bblApp')
  })
})

describe('external redirects', () => {
  it('signs out at the provider with the client and the way back', () => {
    const u = new URL(externalLogoutUrl(config, 'web')!)
    expect(u.pathname).toBe('/oidc/session/end')
    expect(Object.fromEntries(u.searchParams)).toEqual({
      client_id: 'web-id',
      post_logout_redirect_uri: 'https://tipping.example/',
    })
    expect(externalLogoutUrl({ ...config, endSessionEndpoint: null })).toBeNull()
  })

  it('opens the profile page with a returnUrl', () => {
    const u = new URL(externalProfileUrl(config, 'https://tipping.example/bbl/account')!)
    expect(u.searchParams.get('returnUrl')).toBe('https://tipping.example/bbl/account')
    expect(externalProfileUrl({ ...config, profileUrl: null }, 'x')).toBeNull()
  })
})
