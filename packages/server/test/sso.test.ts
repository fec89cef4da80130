import { createHash, randomBytes } from 'node:crypto'
import net from 'node:net'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SSO_SCOPE, type SsoClientName } from '@tipping/contract/sso-clients'
import { loadConfig, testConfig } from '../src/config.ts'
import { redactUrl } from '../src/http/redact-url.ts'
import { DEV_SSO_PASSWORD } from '../src/idp/accounts.ts'
import { resolveSsoSettings } from '../src/modules/sso/settings.ts'
import { createTestApp, loadSeasons, registerUser, sessionCookie, type TestApp } from './helpers.ts'

// Single sign-on against the development provider (a real oidc-provider on the same app): the
// code exchange, the claims mapped to a user, and every refusal the issue names.

const ORIGIN = 'http://localhost:3000'
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'

const pkce = () => {
  const verifier = Array.from(randomBytes(128), (b) => ALPHABET[b % ALPHABET.length]).join('')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  return {
    verifier,
    challenge,
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
  }
}

/** Just enough of a browser: follows the provider's redirects and keeps its cookies. */
class Browser {
  private cookies = new Map<string, string>()

  constructor(
    private readonly app: FastifyInstance,
    private readonly host: string,
  ) {}

  private keep(res: LightMyRequestResponse) {
    for (const c of res.cookies) {
      const gone =
        c.value === '' ||
        c.maxAge === 0 ||
        (c.expires instanceof Date && c.expires.getTime() < Date.now())
      if (gone) this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
  }

  private get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async get(url: string) {
    const u = new URL(url, `http://${this.host}`)
    const res = await this.app.inject({
      method: 'GET',
      url: u.pathname + u.search,
      headers: { host: this.host, cookie: this.cookieHeader },
    })
    this.keep(res)
    return res
  }

  async postForm(url: string, form: Record<string, string>) {
    const u = new URL(url, `http://${this.host}`)
    const res = await this.app.inject({
      method: 'POST',
      url: u.pathname + u.search,
      headers: {
        host: this.host,
        cookie: this.cookieHeader,
        'content-type': 'application/x-www-form-urlencoded',
        origin: `http://${this.host}`,
        'sec-fetch-site': 'same-origin',
      },
      payload: new URLSearchParams(form).toString(),
    })
    this.keep(res)
    return res
  }
}

interface Authorized {
  code: string
  verifier: string
  nonce: string
  state: string
  callback: URL
}

/**
 * The browser's part of the flow: the authorize request as the web app builds it, the provider's
 * sign-in page, and the redirect back to the callback with a code.
 */
async function authorize(
  app: FastifyInstance,
  opts: {
    host?: string
    client?: SsoClientName
    email?: string
    browser?: Browser
  } = {},
): Promise<Authorized> {
  const host = opts.host ?? 'localhost:3000'
  const browser = opts.browser ?? new Browser(app, host)
  const config = (await app.inject({ url: '/api/auth/sso-config' })).json().success
  const client = config.clients[opts.client ?? 'web']
  const p = pkce()
  const url = new URL(config.authorizationEndpoint)
  url.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: SSO_SCOPE,
    state: p.state,
    nonce: p.nonce,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
  }).toString()
  let res = await browser.get(url.toString())
  for (let hops = 0; hops < 6; hops++) {
    const location = res.headers.location
    if (res.statusCode === 200 && /name="password"/.test(res.body)) {
      const action = /action="([^"]+)"/.exec(res.body)![1]!
      res = await browser.postForm(action, {
        email: opts.email ?? 'sso-demo@tipping.example',
        password: DEV_SSO_PASSWORD,
      })
      continue
    }
    if (typeof location !== 'string') break
    const next = new URL(location, `http://${host}`)
    if (next.pathname.endsWith('/callback')) {
      const code = next.searchParams.get('code')
      if (!code) throw new Error(`no code in callback ${next.search}`)
      expect(next.searchParams.get('state')).toBe(p.state)
      return { code, verifier: p.verifier, nonce: p.nonce, state: p.state, callback: next }
    }
    res = await browser.get(next.toString())
  }
  throw new Error(
    `authorize did not reach the callback: ${res.statusCode} ${res.body.slice(0, 300)}`,
  )
}

const exchange = (
  app: FastifyInstance,
  a: Pick<Authorized, 'code' | 'verifier' | 'nonce'>,
  extra: Record<string, unknown> = {},
  sport = 'bbl',
) =>
  app.inject({
    method: 'POST',
    url: `/api/${sport}/auth/login`,
    payload: {
      code: a.code,
      verifier: a.verifier,
      nonce: a.nonce,
      mobile_app: 0,
      big_bash_app: 0,
      ...extra,
    },
  })

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
})
afterAll(() => t.close())

describe('public settings', () => {
  it('publishes the endpoints and the three clients, and nothing secret', async () => {
    const res = await t.app.inject({ url: '/api/auth/sso-config' })
    expect(res.statusCode).toBe(200)
    const config = res.json().success
    expect(config).toEqual({
      enabled: true,
      issuer: `${ORIGIN}/oidc`,
      authorizationEndpoint: `${ORIGIN}/oidc/auth`,
      endSessionEndpoint: `${ORIGIN}/oidc/session/end`,
      postLogoutRedirectUri: `${ORIGIN}/`,
      profileUrl: null,
      scope: 'openid email firstname lastname favteam',
      clients: {
        web: { clientId: 'tipping-web', redirectUri: `${ORIGIN}/login/callback` },
        wbblApp: { clientId: 'tipping-wbbl-app', redirectUri: `${ORIGIN}/login-app/callback` },
        bblApp: {
          clientId: 'tipping-bbl-app',
          redirectUri: `${ORIGIN}/login-bigbash-app/callback`,
        },
      },
    })
    expect(res.body).not.toMatch(/secret/i)
  })

  it('reports single sign-on off when no provider is configured and the dev one is off', async () => {
    const off = await createTestApp({ config: { SSO_DEV_PROVIDER: false } })
    try {
      const res = await off.app.inject({ url: '/api/auth/sso-config' })
      expect(res.json().success).toMatchObject({ enabled: false, authorizationEndpoint: null })
      const login = await exchange(off.app, {
        code: 'x',
        verifier: 'a'.repeat(128),
        nonce: 'n'.repeat(16),
      })
      expect(login.statusCode).toBe(404)
      expect(
        (await off.app.inject({ url: '/oidc/.well-known/openid-configuration' })).statusCode,
      ).toBe(404)
    } finally {
      await off.close()
    }
  })
})

describe('development provider', () => {
  it('offers the authorization code flow with PKCE S256 only', async () => {
    const res = await t.app.inject({
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: 'localhost:3000' },
    })
    expect(res.statusCode).toBe(200)
    const meta = res.json()
    expect(meta.issuer).toBe(`${ORIGIN}/oidc`)
    expect(meta.response_types_supported).toEqual(['code'])
    expect(meta.code_challenge_methods_supported).toEqual(['S256'])
    expect(meta.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'email', 'firstname', 'lastname', 'favteam']),
    )
  })

  it('refuses an authorize request without a code challenge, or with the plain method', async () => {
    const config = (await t.app.inject({ url: '/api/auth/sso-config' })).json().success
    const base = {
      client_id: 'tipping-web',
      redirect_uri: config.clients.web.redirectUri,
      response_type: 'code',
      scope: SSO_SCOPE,
      state: 'state-123',
      nonce: 'nonce-1234567890',
    }
    const variants: Record<string, string>[] = [
      {},
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
    ]
    for (const extra of variants) {
      const res = await t.app.inject({
        url: `/oidc/auth?${String(new URLSearchParams({ ...base, ...extra }))}`,
        headers: { host: 'localhost:3000' },
      })
      // The error goes back to the (registered) callback, as OAuth prescribes; no code is issued.
      expect(res.statusCode).toBe(303)
      const back = new URL(res.headers.location as string)
      expect(back.searchParams.get('error')).toBe('invalid_request')
      expect(back.searchParams.get('code')).toBeNull()
    }
  })

  it('never redirects to an unregistered callback', async () => {
    const res = await t.app.inject({
      url: `/oidc/auth?${String(
        new URLSearchParams({
          client_id: 'tipping-web',
          redirect_uri: 'https://attacker.example/cb',
          response_type: 'code',
          scope: SSO_SCOPE,
          code_challenge: 'a'.repeat(43),
          code_challenge_method: 'S256',
        }),
      )}`,
      headers: { host: 'localhost:3000' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.headers['content-type']).toMatch(/text\/html/)
  })

  it('serves a sign-in page that fits the Content-Security-Policy, and refuses a wrong password', async () => {
    const browser = new Browser(t.app, 'localhost:3000')
    const config = (await t.app.inject({ url: '/api/auth/sso-config' })).json().success
    const p = pkce()
    const start = await browser.get(
      `/oidc/auth?${String(
        new URLSearchParams({
          client_id: 'tipping-web',
          redirect_uri: config.clients.web.redirectUri,
          response_type: 'code',
          scope: SSO_SCOPE,
          state: p.state,
          nonce: p.nonce,
          code_challenge: p.challenge,
          code_challenge_method: 'S256',
        }),
      )}`,
    )
    expect(start.statusCode).toBe(303)
    const page = await browser.get(start.headers.location as string)
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/)
    // Same-origin referrer policy, so the form post carries its Origin for the app's check.
    expect(page.headers['referrer-policy']).toBe('same-origin')
    expect(page.body).not.toMatch(/<script|<style|style=/)
    expect(page.body).toMatch(/<link rel="stylesheet" href="\/oidc\/assets\/idp.css">/)
    const css = await t.app.inject({ url: '/oidc/assets/idp.css' })
    expect(css.headers['content-type']).toMatch(/text\/css/)

    const action = /action="([^"]+)"/.exec(page.body)![1]!
    const wrong = await browser.postForm(action, {
      email: 'sso-demo@tipping.example',
      password: 'not the password',
    })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.body).toMatch(/Email or password is incorrect/)
    expect(wrong.headers.location).toBeUndefined()
  })
})

describe("the development provider's own pages (issue 26, item 10b)", () => {
  const framingHeaders = (res: LightMyRequestResponse, what: string) => {
    const csp = String(res.headers['content-security-policy'] ?? '')
    expect(csp, what).toMatch(/frame-ancestors 'none'/)
    expect(csp, what).toMatch(/default-src 'self'/)
    expect(csp, what).toMatch(/form-action 'self'/)
    expect(csp, what).not.toMatch(/unsafe-inline/)
    expect(res.headers['x-frame-options'], what).toBe('DENY')
    expect(res.headers['x-content-type-options'], what).toBe('nosniff')
    return csp
  }

  it('sends a CSP, X-Frame-Options and nosniff on its sign-in and logout pages', async () => {
    const browser = new Browser(t.app, 'localhost:3000')
    const config = (await t.app.inject({ url: '/api/auth/sso-config' })).json().success
    const p = pkce()
    const start = await browser.get(
      `/oidc/auth?${String(
        new URLSearchParams({
          client_id: 'tipping-web',
          redirect_uri: config.clients.web.redirectUri,
          response_type: 'code',
          scope: SSO_SCOPE,
          state: p.state,
          nonce: p.nonce,
          code_challenge: p.challenge,
          code_challenge_method: 'S256',
        }),
      )}`,
    )
    framingHeaders(start, 'the authorize redirect')
    const login = await browser.get(start.headers.location as string)
    expect(login.body).toMatch(/name="password"/)
    framingHeaders(login, 'the sign-in page')

    // Signed in at the provider, its logout page asks first: the form that could be framed.
    await authorize(t.app, { browser })
    const logout = await browser.get(config.endSessionEndpoint)
    expect(logout.statusCode).toBe(200)
    expect(logout.body).toMatch(/Sign out of Big Bash Account\?/)
    framingHeaders(logout, 'the logout page')
    // Its form still posts to the provider itself, which the CSP allows.
    const action = /<form[^>]*action="([^"]+)"/.exec(logout.body)![1]!
    expect(new URL(action).origin).toBe('http://localhost:3000')
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(logout.body)![1]!
    const confirmed = await browser.postForm(action, { xsrf, logout: 'yes' })
    expect(confirmed.statusCode).toBe(303)
    const done = await browser.get(confirmed.headers.location as string)
    expect(done.body).toMatch(/Signed out/)
    framingHeaders(done, 'the signed-out page')
  })

  it("allows the provider's one inline script (its auto-submitted form) by hash only", async () => {
    // With no provider session the logout form submits itself: oidc-provider adds its script's
    // hash to script-src when a CSP is present, so the page works without 'unsafe-inline'.
    const res = await t.app.inject({
      url: '/oidc/session/end',
      headers: { host: 'localhost:3000' },
    })
    expect(res.statusCode).toBe(200)
    const csp = framingHeaders(res, 'the auto-submitted logout form')
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)![1]!
    const hash = createHash('sha256').update(script).digest('base64')
    expect(csp).toContain(`'sha256-${hash}'`)
  })
})

describe('POST /api/{sport}/auth/login', () => {
  it('signs a new user in: account created from the claims, session started', async () => {
    const a = await authorize(t.app)
    const res = await exchange(t.app, a)
    expect(res.statusCode).toBe(200)
    const { user } = res.json().success
    const heat = await t.db
      .selectFrom('squads')
      .select('id')
      .where('sport', '=', 'bbl')
      .where('code', '=', 'HEA')
      .executeTakeFirstOrThrow()
    expect(user).toMatchObject({
      email: 'sso-demo@tipping.example',
      first_name: 'Sam',
      last_name: 'Sixes',
      team_supported: heat.id,
      roles: ['ROLE_USER_BBL'],
    })
    const row = await t.db
      .selectFrom('users')
      .select(['external_id', 'password_hash'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ external_id: 'dev-0001', password_hash: null })
    const regs = await t.db
      .selectFrom('competition_registrations')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute()
    expect(regs).toHaveLength(1)

    const cookie = res.cookies.find((c) => c.name === 'tip_session')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    const me = await t.app.inject({ url: '/api/bbl/user', headers: { cookie: sessionCookie(res) } })
    expect(me.json().success.user.id).toBe(user.id)
    // Nothing of the exchange comes back: no token, code or verifier.
    expect(res.body).not.toContain(a.code)
    expect(res.body).not.toContain(a.verifier)
    expect(res.body).not.toMatch(/token/i)
  })

  it('signs the same account in again without a second user, rotating the session', async () => {
    const first = await exchange(t.app, await authorize(t.app))
    const firstCookie = sessionCookie(first)
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/auth/login',
      headers: { cookie: firstCookie },
      payload: await authorize(t.app).then((a) => ({
        code: a.code,
        verifier: a.verifier,
        nonce: a.nonce,
        mobile_app: 0,
        big_bash_app: 0,
      })),
    })
    expect(again.statusCode).toBe(200)
    expect(again.json().success.user.id).toBe(first.json().success.user.id)
    expect(sessionCookie(again)).not.toBe(firstCookie)
    const old = await t.app.inject({ url: '/api/bbl/user', headers: { cookie: firstCookie } })
    expect(old.statusCode).toBe(401)
    const count = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', 'sso-demo@tipping.example')
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(1)
  })

  it('links to an existing account by email, keeping what the user set', async () => {
    const existing = await registerUser(t.app, {
      email: 'sso-fan@tipping.example',
      firstName: 'Already',
      lastName: 'Here',
    })
    const res = await exchange(
      t.app,
      await authorize(t.app, { email: 'sso-fan@tipping.example' }),
      {},
      'wbbl',
    )
    expect(res.statusCode).toBe(200)
    const { user } = res.json().success
    expect(user.id).toBe(existing.id)
    expect(user.first_name).toBe('Already')
    // Both roles from the in-product registration stay.
    expect(user.roles).toEqual(['ROLE_USER_BBL', 'ROLE_USER_WBBL'])
    const stars = await t.db
      .selectFrom('squads')
      .select('id')
      .where('sport', '=', 'wbbl')
      .where('code', '=', 'STA')
      .executeTakeFirstOrThrow()
    expect(user.team_supported).toBe(stars.id)
    // The password still works too.
    const pw = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'sso-fan@tipping.example', password: 'correct horse battery' },
    })
    expect(pw.statusCode).toBe(200)
  })

  it('signs in through the app clients, whose flags choose the client', async () => {
    const women = await authorize(t.app, { client: 'wbblApp', email: 'demo@tipping.example' })
    expect(women.callback.pathname).toBe('/login-app/callback')
    const res = await exchange(t.app, women, { mobile_app: 1 }, 'wbbl')
    expect(res.statusCode).toBe(200)
    const men = await authorize(t.app, { client: 'bblApp', email: 'demo@tipping.example' })
    expect(men.callback.pathname).toBe('/login-bigbash-app/callback')
    expect((await exchange(t.app, men, { big_bash_app: 1 })).statusCode).toBe(200)
  })

  it('refuses a replayed code', async () => {
    const a = await authorize(t.app)
    expect((await exchange(t.app, a)).statusCode).toBe(200)
    const replay = await exchange(t.app, a)
    expect(replay.statusCode).toBe(401)
    expect(replay.json()).toEqual({
      errors: [
        {
          code: 'SSO_REFUSED',
          message:
            'This sign-in code is invalid, expired or has already been used. Please sign in again.',
          param: 'code',
        },
      ],
    })
    expect(replay.cookies.find((c) => c.name === 'tip_session')).toBeUndefined()
  })

  it('refuses a wrong nonce', async () => {
    const a = await authorize(t.app)
    const res = await exchange(t.app, { ...a, nonce: randomBytes(16).toString('base64url') })
    expect(res.statusCode).toBe(401)
    expect(res.json().errors[0]).toEqual({
      code: 'SSO_REFUSED',
      message: 'The ID token was issued for a different sign-in request (nonce mismatch)',
      param: 'nonce',
    })
    expect(res.cookies.find((c) => c.name === 'tip_session')).toBeUndefined()
  })

  it('refuses a verifier that does not match the challenge (a stolen code)', async () => {
    const a = await authorize(t.app)
    const other = pkce().verifier
    const res = await exchange(t.app, { ...a, verifier: other })
    expect(res.statusCode).toBe(401)
    expect(res.json().errors[0]).toMatchObject({ code: 'SSO_REFUSED', param: 'code' })
    expect(res.cookies.find((c) => c.name === 'tip_session')).toBeUndefined()
  })

  it("refuses a code issued to another client (the web code sent as the women's app)", async () => {
    const a = await authorize(t.app)
    const res = await exchange(t.app, a, { mobile_app: 1 })
    expect(res.statusCode).toBe(401)
    expect(res.json().errors[0]).toMatchObject({ code: 'SSO_REFUSED', param: 'code' })
  })

  it('refuses a deactivated account', async () => {
    const a = await authorize(t.app, { email: 'sso-demo@tipping.example' })
    await t.db
      .updateTable('users')
      .set({ deactivated_at: new Date() })
      .where('email', '=', 'sso-demo@tipping.example')
      .execute()
    try {
      const res = await exchange(t.app, a)
      expect(res.statusCode).toBe(403)
      expect(res.json().errors[0]).toMatchObject({
        code: 'FORBIDDEN',
        message: 'This account has been deactivated',
      })
    } finally {
      await t.db
        .updateTable('users')
        .set({ deactivated_at: null })
        .where('email', '=', 'sso-demo@tipping.example')
        .execute()
    }
  })

  it('validates the body: verifier length and alphabet, one app flag at a time', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ verifier: 'a'.repeat(127) }, 'verifier'],
      [{ verifier: `${'a'.repeat(127)}+` }, 'verifier'],
      [{ code: '' }, 'code'],
      [{ nonce: 'short' }, 'nonce'],
      [{ mobile_app: 2 }, 'mobile_app'],
      [{ mobile_app: 1, big_bash_app: 1 }, 'big_bash_app'],
    ]
    for (const [extra, param] of cases) {
      const res = await exchange(
        t.app,
        { code: 'c', verifier: 'a'.repeat(128), nonce: 'n'.repeat(16) },
        extra,
      )
      expect(res.statusCode, JSON.stringify(extra)).toBe(400)
      expect(res.json().errors[0]).toMatchObject({ code: 'VALIDATION', param })
    }
    expect(
      (
        await exchange(
          t.app,
          { code: 'c', verifier: 'a'.repeat(128), nonce: 'n'.repeat(16) },
          {},
          'afl',
        )
      ).statusCode,
    ).toBe(400)
  })

  it('refuses a sign-in posted from another site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/auth/login',
      headers: { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
      payload: { code: 'c', verifier: 'a'.repeat(128), nonce: 'n'.repeat(16) },
    })
    expect(res.statusCode).toBe(403)
  })
})

describe('linking an existing account by email (issue 26, item 9)', () => {
  // The provider's accounts for these tests: one that says the address is verified, one that
  // says it is not, and one that leaves the claim out (as some providers do).
  const accounts = [
    {
      sub: 'link-true',
      email: 'verified@example.com',
      firstname: 'Vera',
      lastname: 'Fied',
      favteam: '',
      emailVerified: true,
    },
    {
      sub: 'link-false',
      email: 'unverified@example.com',
      firstname: 'Una',
      lastname: 'Verified',
      favteam: '',
      emailVerified: false,
    },
    {
      sub: 'link-absent',
      email: 'silent@example.com',
      firstname: 'Sy',
      lastname: 'Lent',
      favteam: '',
    },
  ]
  let l: TestApp
  beforeAll(async () => {
    l = await createTestApp({ devSsoAccounts: accounts })
    await loadSeasons(l.db)
  })
  afterAll(() => l.close())

  const rowsFor = (email: string) =>
    l.db.selectFrom('users').select(['id', 'external_id']).where('email', '=', email).execute()

  it.each([
    ['leaves the email_verified claim out', 'silent@example.com'],
    ['says email_verified is false', 'unverified@example.com'],
  ])('does not link when the provider %s: a clear refusal, no second account', async (_, email) => {
    const existing = await registerUser(l.app, { email })
    const res = await exchange(l.app, await authorize(l.app, { email }))
    expect(res.statusCode, res.body).toBe(401)
    expect(res.json().errors[0]).toMatchObject({
      code: 'SSO_REFUSED',
      message: 'Verify your email address with your Big Bash Account first, then sign in again',
    })
    expect(res.cookies.find((c) => c.name === 'tip_session')).toBeUndefined()
    // Still one account for the address, not linked to the provider's subject.
    expect(await rowsFor(email)).toEqual([{ id: existing.id, external_id: null }])
  })

  it('links when the provider says email_verified is true', async () => {
    const existing = await registerUser(l.app, { email: 'verified@example.com' })
    const res = await exchange(l.app, await authorize(l.app, { email: 'verified@example.com' }))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().success.user.id).toBe(existing.id)
    expect(await rowsFor('verified@example.com')).toEqual([
      { id: existing.id, external_id: 'link-true' },
    ])
  })
})

describe('with the provider on another server (a configured SSO_ISSUER)', () => {
  // App `idp` plays the external provider over real HTTP; app `rp` is configured to use it.
  let idp: TestApp
  let rp: TestApp
  let idpOrigin: string
  const secret = randomBytes(24).toString('base64url')

  beforeAll(async () => {
    const port = await freePort()
    idpOrigin = `http://127.0.0.1:${port}`
    idp = await createTestApp({
      config: { PORT: port, APP_ORIGIN: idpOrigin, SSO_CLIENT_SECRET: secret },
    })
    await idp.app.listen({ port, host: '127.0.0.1' })
    rp = await createTestApp({
      config: {
        SSO_ISSUER: `${idpOrigin}/oidc`,
        SSO_CLIENT_ID: 'tipping-web',
        SSO_CLIENT_SECRET: secret,
        SSO_REDIRECT_URI: `${idpOrigin}/login/callback`,
        SSO_PROFILE_URL: 'https://account.example/profile',
      },
    })
  })
  afterAll(async () => {
    await rp?.close()
    await idp?.close()
  })
  afterEach(() => vi.restoreAllMocks())

  const host = () => new URL(idpOrigin).host

  it('publishes the discovered endpoints and only the configured client', async () => {
    const config = (await rp.app.inject({ url: '/api/auth/sso-config' })).json().success
    expect(config).toMatchObject({
      issuer: `${idpOrigin}/oidc`,
      authorizationEndpoint: `${idpOrigin}/oidc/auth`,
      endSessionEndpoint: `${idpOrigin}/oidc/session/end`,
      profileUrl: 'https://account.example/profile',
      clients: { web: { clientId: 'tipping-web' }, wbblApp: null, bblApp: null },
    })
    // The configured server mounts no provider of its own.
    expect(
      (await rp.app.inject({ url: '/oidc/.well-known/openid-configuration' })).statusCode,
    ).toBe(404)
  })

  it('exchanges the code over HTTP and signs the user in', async () => {
    const a = await authorize(idp.app, { host: host() })
    const res = await exchange(rp.app, a)
    expect(res.statusCode).toBe(200)
    expect(res.json().success.user.email).toBe('sso-demo@tipping.example')
  })

  it('refuses a tampered ID token (claims changed, signature kept)', async () => {
    const a = await authorize(idp.app, { host: host() })
    const realFetch = globalThis.fetch
    let tampered = false
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const res = await realFetch(input, init)
      if (!String(input instanceof Request ? input.url : input).endsWith('/oidc/token')) return res
      const body = (await res.json()) as { id_token: string }
      const [header, payload, signature] = body.id_token.split('.')
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
      claims.email = 'demo@tipping.example'
      claims.sub = 'dev-0003'
      const forged = Buffer.from(JSON.stringify(claims)).toString('base64url')
      tampered = true
      return new Response(
        JSON.stringify({ ...body, id_token: `${header}.${forged}.${signature}` }),
        {
          status: res.status,
          headers: res.headers,
        },
      )
    })
    const res = await exchange(rp.app, a)
    expect(tampered).toBe(true)
    expect(res.statusCode).toBe(401)
    expect(res.json().errors[0]).toEqual({
      code: 'SSO_REFUSED',
      message: "The ID token's signature is not valid",
      param: null,
    })
    expect(res.cookies.find((c) => c.name === 'tip_session')).toBeUndefined()
    const forgedUser = await rp.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'demo@tipping.example')
      .executeTakeFirst()
    expect(forgedUser).toBeUndefined()
  })

  it('refuses an unknown client: the provider rejects its credentials', async () => {
    const unknown = await createTestApp({
      config: {
        SSO_ISSUER: `${idpOrigin}/oidc`,
        SSO_CLIENT_ID: 'not-registered',
        SSO_CLIENT_SECRET: secret,
        SSO_REDIRECT_URI: `${idpOrigin}/login/callback`,
      },
    })
    try {
      const a = await authorize(idp.app, { host: host() })
      const res = await exchange(unknown.app, a)
      expect(res.statusCode).toBe(502)
      expect(res.json().errors[0]).toEqual({
        code: 'SSO_PROVIDER_ERROR',
        message: "The identity provider did not accept this app's client",
        param: null,
      })
    } finally {
      await unknown.close()
    }
  })

  it('refuses a wrong client secret the same way', async () => {
    const wrong = await createTestApp({
      config: {
        SSO_ISSUER: `${idpOrigin}/oidc`,
        SSO_CLIENT_ID: 'tipping-web',
        SSO_CLIENT_SECRET: 'not-the-secret',
        SSO_REDIRECT_URI: `${idpOrigin}/login/callback`,
      },
    })
    try {
      const res = await exchange(wrong.app, await authorize(idp.app, { host: host() }))
      expect(res.statusCode).toBe(502)
      expect(res.json().errors[0].code).toBe('SSO_PROVIDER_ERROR')
    } finally {
      await wrong.close()
    }
  })

  it("refuses an app sign-in when that app's client is not configured", async () => {
    const res = await exchange(
      rp.app,
      { code: 'c', verifier: 'a'.repeat(128), nonce: 'n'.repeat(16) },
      { mobile_app: 1 },
    )
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toEqual({
      code: 'VALIDATION',
      message: "Sign-in through the women's app is not set up",
      param: 'mobile_app',
    })
  })

  it('answers 502, not 500, when the provider cannot be reached', async () => {
    const down = await createTestApp({
      config: { SSO_ISSUER: `http://127.0.0.1:${await freePort()}/oidc`, SSO_CLIENT_ID: 'x' },
    })
    try {
      const res = await exchange(down.app, {
        code: 'c',
        verifier: 'a'.repeat(128),
        nonce: 'n'.repeat(16),
      })
      expect(res.statusCode).toBe(502)
      expect(res.json().errors[0].code).toBe('SSO_PROVIDER_ERROR')
      expect((await down.app.inject({ url: '/api/auth/sso-config' })).statusCode).toBe(502)
    } finally {
      await down.close()
    }
  })
})

describe('configuration', () => {
  it('requires a client id with a configured issuer, naming the setting', () => {
    expect(() => resolveSsoSettings(testConfig({ SSO_ISSUER: 'https://login.example/' }))).toThrow(
      /SSO_CLIENT_ID/,
    )
  })

  it('takes an https issuer, or plain http on localhost only', () => {
    expect(() => loadConfig({ SSO_ISSUER: 'http://login.example/' })).toThrow(/SSO_ISSUER/)
    expect(loadConfig({ SSO_ISSUER: 'http://localhost:8080/realms/x' }).SSO_ISSUER).toBeDefined()
    expect(loadConfig({ SSO_ISSUER: 'https://login.example/' }).SSO_ISSUER).toBeDefined()
  })
})

describe('logging', () => {
  it('redacts codes and tokens from logged URLs', () => {
    expect(redactUrl('/login/callback?code=abc123&state=xyz')).toBe(
      '/login/callback?code=%5Bredacted%5D&state=xyz',
    )
    expect(redactUrl('/oidc/session/end?id_token_hint=eyJ&client_id=web')).toBe(
      '/oidc/session/end?id_token_hint=%5Bredacted%5D&client_id=web',
    )
    expect(redactUrl('/bbl/tipping?round=3')).toBe('/bbl/tipping?round=3')
  })
})
