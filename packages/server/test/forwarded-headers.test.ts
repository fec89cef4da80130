import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Issue 26 items 1 and 10c: X-Forwarded-For, -Host and -Proto are believed only from the proxies
// TRUST_PROXY names (none by default), so a caller cannot pick its own address to dodge a
// per-address limit; absolute URLs and the origin check use the configured origin, never a
// Host or X-Forwarded-Host the caller wrote.

const LIMIT = 3
const limits = {
  AUTH_RATE_LIMIT_PER_MINUTE: LIMIT,
  CONTACT_PER_HOUR: LIMIT,
  PREREGISTRATIONS_PER_HOUR: LIMIT,
}
const unique = () => randomBytes(4).toString('hex')
const forged = (i: number) => `198.51.100.${i + 1}`

/** Every route with a per-address limit, each call with a fresh account so only the address counts. */
const limited: {
  name: string
  url: string
  payload: () => Record<string, unknown>
  max: number
}[] = [
  {
    name: 'sign-in',
    url: '/api/auth/login',
    payload: () => ({ email: `in-${unique()}@example.com`, password: 'wrong password' }),
    max: LIMIT,
  },
  {
    name: 'registration',
    url: '/api/auth/register',
    payload: () => ({
      email: `reg-${unique()}@example.com`,
      password: 'correct horse battery',
      firstName: 'R',
      lastName: 'G',
    }),
    max: LIMIT,
  },
  {
    name: 'password reset request',
    url: '/api/auth/password_reset/request',
    payload: () => ({ email: `reset-${unique()}@example.com` }),
    max: LIMIT,
  },
  {
    name: 'password reset',
    url: '/api/auth/password_reset',
    payload: () => ({ token: unique().repeat(8), password: 'a new long password' }),
    max: LIMIT,
  },
  {
    name: 'contact',
    url: '/api/contact',
    payload: () => ({
      name: 'Cal',
      email: `contact-${unique()}@example.com`,
      message: 'Hello there',
    }),
    max: LIMIT,
  },
  {
    name: 'pre-registration',
    url: '/api/preregistration',
    payload: () => ({ name: 'Pre', email: `pre-${unique()}@example.com` }),
    max: LIMIT,
  },
  {
    name: 'SSO sign-in',
    url: '/api/bbl/auth/login',
    payload: () => ({ code: unique(), verifier: 'a'.repeat(64), nonce: 'n'.repeat(16) }),
    max: LIMIT,
  },
  {
    name: "the development provider's sign-in",
    url: '/oidc/interaction/nope/login',
    payload: () => ({}),
    max: LIMIT,
  },
]

describe('with no trusted proxy (the default)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ config: limits })
  })
  afterAll(() => t.close())

  it('keeps 21 sign-ins with 21 forged X-Forwarded-For addresses under the per-address limit', async () => {
    const app = await createTestApp({ config: { AUTH_RATE_LIMIT_PER_MINUTE: 20 } })
    try {
      const statuses = []
      for (let i = 0; i < 21; i++) {
        const res = await app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '203.0.113.10',
          headers: { 'x-forwarded-for': forged(i) },
          payload: { email: `spray-${i}@example.com`, password: 'wrong password' },
        })
        statuses.push(res.statusCode)
      }
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401))
      expect(statuses[20]).toBe(429)
    } finally {
      await app.close()
    }
  })

  for (const route of limited) {
    it(`counts ${route.name} by the peer's address, whatever X-Forwarded-For says`, async () => {
      const peer = `203.0.113.${20 + limited.indexOf(route)}`
      const statuses = []
      for (let i = 0; i <= route.max; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: route.url,
          remoteAddress: peer,
          headers: { 'x-forwarded-for': forged(i), 'x-real-ip': forged(i) },
          payload: route.payload(),
        })
        statuses.push(res.statusCode)
      }
      expect(statuses.slice(0, route.max), route.name).not.toContain(429)
      expect(statuses[route.max], route.name).toBe(429)
    })
  }

  it('builds the share page from the configured origin, never a forged X-Forwarded-Host or Host', async () => {
    const res = await t.app.inject({
      url: '/share/bbl/general/abc',
      headers: {
        host: 'evil-host.example',
        'x-forwarded-host': 'evil-forwarded.example',
        'x-forwarded-proto': 'https',
      },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<meta property="og:url" content="http://localhost:3000/share/bbl/')
    expect(res.body).toContain('content="http://localhost:3000/share-card.png"')
    expect(res.body).not.toMatch(/evil/)
  })

  it('sends no HSTS on a forged X-Forwarded-Proto', async () => {
    const res = await t.app.inject({
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })
})

describe('the origin check with APP_ORIGIN unset', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ config: { PORT: 3123 } })
  })
  afterAll(() => t.close())

  const signIn = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers,
      payload: { email: 'nobody@example.com', password: 'whatever it is' },
    })

  it('refuses an Origin that matches a forged Host (or X-Forwarded-Host)', async () => {
    const forgedHosts: Record<string, string>[] = [
      { host: 'evil.example', origin: 'http://evil.example' },
      { host: 'evil.example:3123', origin: 'http://evil.example:3123' },
      {
        host: 'localhost:3123',
        'x-forwarded-host': 'evil.example',
        origin: 'http://evil.example',
      },
      { host: 'localhost:3000', origin: 'http://localhost:3000' },
    ]
    for (const headers of forgedHosts) {
      const res = await signIn(headers)
      expect(res.statusCode, JSON.stringify(headers)).toBe(403)
      expect(res.json().errors[0].code).toBe('CROSS_ORIGIN')
    }
  })

  it('lets this server on localhost through, by either name', async () => {
    for (const origin of ['http://localhost:3123', 'http://127.0.0.1:3123']) {
      const res = await signIn({ host: 'evil.example', origin })
      expect(res.statusCode, origin).toBe(401)
    }
  })
})

describe('behind trusted proxies', () => {
  let listed: TestApp
  let hops: TestApp
  beforeAll(async () => {
    listed = await createTestApp({ config: { ...limits, TRUST_PROXY: ['10.0.0.0/8'] } })
    hops = await createTestApp({ config: { ...limits, TRUST_PROXY: 1 } })
  })
  afterAll(async () => {
    await listed.close()
    await hops.close()
  })

  const login = (t: TestApp, remoteAddress: string, xff: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: { 'x-forwarded-for': xff },
      payload: { email: `p-${unique()}@example.com`, password: 'wrong password' },
    })

  it("honours a listed proxy's X-Forwarded-For: each client has its own count", async () => {
    const spread = []
    for (let i = 0; i <= LIMIT; i++)
      spread.push((await login(listed, '10.1.2.3', forged(10 + i))).statusCode)
    expect(spread).not.toContain(429)
    const one = []
    for (let i = 0; i <= LIMIT; i++)
      one.push((await login(listed, '10.1.2.4', '192.0.2.77')).statusCode)
    expect(one.at(-1)).toBe(429)
  })

  it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
    const statuses = []
    for (let i = 0; i <= LIMIT; i++)
      statuses.push((await login(listed, '203.0.113.99', forged(20 + i))).statusCode)
    expect(statuses.at(-1)).toBe(429)
  })

  it('with a hop count, takes the address the nearest proxy saw, not what the caller prepended', async () => {
    const statuses = []
    for (let i = 0; i <= LIMIT; i++)
      statuses.push((await login(hops, '127.0.0.1', `${forged(30 + i)}, 192.0.2.55`)).statusCode)
    expect(statuses.at(-1)).toBe(429)
    expect((await login(hops, '127.0.0.1', '192.0.2.56')).statusCode).toBe(401)
  })

  it("sends HSTS on a trusted proxy's X-Forwarded-Proto", async () => {
    const via = await listed.app.inject({
      url: '/api/health',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(via.headers['strict-transport-security']).toMatch(/max-age=31536000/)
    const direct = await listed.app.inject({
      url: '/api/health',
      remoteAddress: '203.0.113.1',
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(direct.headers['strict-transport-security']).toBeUndefined()
  })

  it("keeps even a trusted proxy's X-Forwarded-Host out of share pages and email links", async () => {
    const t = await createTestApp({
      config: { APP_ORIGIN: 'https://tips.example', TRUST_PROXY: ['127.0.0.1'] },
    })
    try {
      await loadSeasons(t.db)
      const headers = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }
      const share = await t.app.inject({ url: '/share/wbbl/general/abc', headers })
      expect(share.body).toContain(
        '<meta property="og:url" content="https://tips.example/share/wbbl/',
      )
      expect(share.body).not.toContain('evil')
      const { email } = await registerUser(t.app)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password_reset/request',
        headers: { ...headers, host: 'evil.example' },
        payload: { email },
      })
      expect(res.statusCode).toBe(200)
      const mail = await t.db
        .selectFrom('email_outbox')
        .select('text_body')
        .where('to_address', '=', email)
        .executeTakeFirstOrThrow()
      expect(mail.text_body).toContain('https://tips.example/reset-password?token=')
      expect(mail.text_body).not.toContain('evil')
    } finally {
      await t.close()
    }
  })
})

describe('TRUST_PROXY', () => {
  it('is none when unset or empty, a hop count, or a list of addresses and CIDRs', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ])
  })

  it('refuses "true" (every peer) and anything that is not an address, naming the setting', () => {
    for (const value of ['true', '10.0.0.0/33', 'proxy.example', '1,2']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/)
    }
  })
})

describe('APP_ORIGIN', () => {
  it('is kept as a browser writes an Origin, and must be an origin', () => {
    expect(loadConfig({ APP_ORIGIN: 'https://Tips.Example/' }).APP_ORIGIN).toBe(
      'https://tips.example',
    )
    expect(loadConfig({ APP_ORIGIN: 'https://tips.example:443' }).APP_ORIGIN).toBe(
      'https://tips.example',
    )
    for (const value of ['https://tips.example/app', 'ftp://tips.example', 'https://a@b.example']) {
      expect(() => loadConfig({ APP_ORIGIN: value }), value).toThrow(/APP_ORIGIN/)
    }
  })
})
