import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'
import { changedTables, drivenRoutes, fingerprint } from './route-driver.ts'

// Issue 9 item 7 on the server: security headers, HSTS over HTTPS only, cookie flags, the
// same-origin rule for every state-changing method, share-page redirects kept in the app, and a
// sign-in and password-reset answers that do not tell whether an account exists. (Rate limits on sign-in and
// registration: rate-limit.test.ts.)

const ORIGIN = 'https://tipping.example'
let t: TestApp
let secure: TestApp
beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: ORIGIN } })
  await loadSeasons(t.db)
  secure = await createTestApp({ config: { APP_ORIGIN: ORIGIN, COOKIE_SECURE: true } })
})
afterAll(async () => {
  await t.close()
  await secure.close()
})

const csp = (header: string | string[] | number | undefined) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  )

describe('security headers', () => {
  it('sends a strict CSP: no inline script or style, no framing, no plugins', async () => {
    for (const url of ['/api/health', '/share/bbl/general/abc', '/api/nope']) {
      const res = await t.app.inject({ url })
      const policy = csp(res.headers['content-security-policy'])
      expect(policy['default-src'], url).toBe("'self'")
      expect(policy['script-src'], url).toBe("'self'")
      expect(policy['style-src'], url).toBe("'self'")
      expect(policy['frame-ancestors'], url).toBe("'none'")
      expect(policy['object-src'], url).toBe("'none'")
      expect(res.headers['content-security-policy'], url).not.toMatch(/unsafe-inline|unsafe-eval/)
      expect(res.headers['x-content-type-options'], url).toBe('nosniff')
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN')
      expect(res.headers['referrer-policy'], url).toBe('no-referrer')
    }
  })

  it('allows styles by a fresh nonce on the app page only, shared with the page through a meta tag', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-web-'))
    fs.writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><html><head></head><body></body></html>',
    )
    const app = await createTestApp({ config: { WEB_DIST_DIR: web } })
    try {
      const nonces = []
      for (let i = 0; i < 2; i++) {
        const res = await app.app.inject({ url: '/bbl/tipping' })
        const policy = csp(res.headers['content-security-policy'])
        const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(res.body)?.[1]
        expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
        expect(policy['style-src']).toBe(`'self' 'nonce-${nonce}'`)
        expect(policy['script-src']).toBe("'self'")
        nonces.push(nonce)
      }
      expect(nonces[0]).not.toBe(nonces[1])
      // Everything else keeps the plain policy.
      const api = await app.app.inject({ url: '/api/health' })
      expect(csp(api.headers['content-security-policy'])['style-src']).toBe("'self'")
    } finally {
      await app.close()
      fs.rmSync(web, { recursive: true, force: true })
    }
  })

  it('sends HSTS over HTTPS (X-Forwarded-Proto from a trusted proxy) and not over plain HTTP', async () => {
    const behind = await createTestApp({
      config: { APP_ORIGIN: ORIGIN, TRUST_PROXY: ['10.0.0.1'] },
    })
    try {
      const plain = await behind.app.inject({ url: '/api/health', remoteAddress: '10.0.0.1' })
      expect(plain.headers['strict-transport-security']).toBeUndefined()
      const https = await behind.app.inject({
        url: '/api/health',
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-proto': 'https' },
      })
      expect(https.headers['strict-transport-security']).toMatch(/max-age=31536000/)
      // The same header from anyone else (or with no proxy trusted) is the caller's word alone.
      for (const app of [behind.app, t.app]) {
        const forged = await app.inject({
          url: '/api/health',
          remoteAddress: '203.0.113.7',
          headers: { 'x-forwarded-proto': 'https' },
        })
        expect(forged.headers['strict-transport-security']).toBeUndefined()
      }
    } finally {
      await behind.close()
    }
  })
})

describe('the session cookie', () => {
  it('is HttpOnly and SameSite=Lax, with no Secure flag in plain-HTTP development', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'cookie@example.com',
        password: 'correct horse battery',
        firstName: 'C',
        lastName: 'K',
      },
    })
    const cookie = res.cookies.find((c) => c.name === 'tip_session')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    expect(cookie.secure).toBeFalsy()
  })

  it('is Secure and __Host- prefixed when COOKIE_SECURE is set, and stays so when cleared at logout', async () => {
    const res = await secure.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'secure@example.com',
        password: 'correct horse battery',
        firstName: 'S',
        lastName: 'C',
      },
    })
    expect(res.cookies.map((c) => c.name)).toEqual(['__Host-tip_session'])
    const cookie = res.cookies[0]!
    // What the prefix requires: Secure, Path=/ and no Domain.
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' })
    expect(cookie.domain).toBeUndefined()
    // Only the prefixed name is read: the plain one is no session here.
    const plain = await secure.app.inject({
      url: '/api/bbl/user',
      headers: { cookie: `tip_session=${cookie.value}` },
    })
    expect(plain.statusCode).toBe(401)
    const out = await secure.app.inject({
      method: 'POST',
      url: '/api/bbl/auth/logout',
      headers: { cookie: `__Host-tip_session=${cookie.value}` },
    })
    expect(out.headers['set-cookie']).toMatch(/^__Host-tip_session=;/)
    expect(out.headers['set-cookie']).toMatch(/HttpOnly/)
    expect(out.headers['set-cookie']).toMatch(/Secure/)
    expect(out.headers['set-cookie']).toMatch(/Path=\//)
  })
})

describe('cross-origin state changes', () => {
  it('refuses every state-changing route from another origin or a cross-site page', async () => {
    const { cookie } = await registerUser(t.app)
    const unsafe = drivenRoutes(t.app).filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
    expect(unsafe.length).toBeGreaterThan(15)
    for (const route of unsafe) {
      const url = route.url
        .replace(/:sport/, 'bbl')
        .replace(/:[a-zA-Z]+/g, '1')
        .replace('*', 'x')
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: `${ORIGIN}.evil.example` },
        { 'sec-fetch-site': 'cross-site' },
      ]) {
        const before = await fingerprint(t.db)
        const res = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...headers, cookie },
          payload: {},
        })
        const where = `${route.method} ${route.url} ${JSON.stringify(headers)}`
        expect(res.statusCode, where).toBe(403)
        expect(res.json(), where).toEqual({
          errors: [{ code: 'CROSS_ORIGIN', message: expect.any(String), param: null }],
        })
        expect(changedTables(before, await fingerprint(t.db)), where).toEqual([])
      }
    }
  })

  it('refuses PUT, PATCH and DELETE from another origin even where no route exists', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: '/api/bbl/league/1',
        headers: { origin: 'https://evil.example' },
      })
      expect(res.statusCode, method).toBe(403)
      expect(res.json().errors[0].code).toBe('CROSS_ORIGIN')
    }
  })

  it('lets the app itself through (its Origin, or same-origin fetch metadata)', async () => {
    for (const headers of [{ origin: ORIGIN }, { 'sec-fetch-site': 'same-origin' }, {}]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: { email: 'nobody@example.com', password: 'whatever it is' },
      })
      expect(res.statusCode, JSON.stringify(headers)).toBe(401)
    }
  })

  it('lets cross-site reads through (GET is not state-changing)', async () => {
    const res = await t.app.inject({
      url: '/api/health',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(res.statusCode).toBe(200)
  })
})

describe('redirects stay in the app', () => {
  const targetOf = (html: string) => {
    const refresh = /http-equiv="refresh" content="0; url=([^"]*)"/.exec(html)?.[1]
    const link = /<a href="([^"]*)">Continue/.exec(html)?.[1]
    return { refresh, link }
  }
  const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')

  it('sends share links only to paths of this app', async () => {
    const hostile = [
      '/share/bbl/league/' + token({ league_id: '//evil.example' }),
      '/share/bbl/league/' + token({ league_id: 1, redirect: 'https://evil.example' }),
      '/share/%2F%2Fevil.example/league/x',
      '/share/https:%2F%2Fevil.example/general/x',
      '/share/bbl/%2F%2Fevil.example/x',
      '/share/javascript:alert(1)/general/x',
      '/share/bbl/general/' + encodeURIComponent('"><script>alert(1)</script>'),
    ]
    for (const url of hostile) {
      const res = await t.app.inject({ url })
      expect(res.statusCode, url).toBe(200)
      const { refresh, link } = targetOf(res.body)
      for (const target of [refresh, link]) {
        expect(target, url).toMatch(/^\/(?!\/)/)
        expect(target, url).not.toMatch(/evil|javascript|\\/)
      }
      expect(res.body, url).not.toContain('<script>')
    }
  })
})

describe('sign-in does not reveal whether an account exists', () => {
  it('answers an unknown address and a wrong password alike', async () => {
    const known = await registerUser(t.app)
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: known.email, password: 'not the password' },
    })
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'never-registered@example.com', password: 'not the password' },
    })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(wrong.statusCode)
    expect(unknown.body).toBe(wrong.body)
    expect(unknown.headers['set-cookie']).toBeUndefined()
    expect(wrong.headers['set-cookie']).toBeUndefined()
  })
})

describe('password reset does not reveal whether an account exists', () => {
  it('answers a known, a deactivated and an unknown address alike, mailing only the known one', async () => {
    const known = await registerUser(t.app)
    const closed = await registerUser(t.app)
    await t.db
      .updateTable('users')
      .set({ deactivated_at: new Date() })
      .where('id', '=', closed.id)
      .execute()
    const outbox = () =>
      t.db
        .selectFrom('email_outbox')
        .select('to_address')
        .where('kind', '=', 'password_reset')
        .execute()
    const before = (await outbox()).length
    const ask = async (email: string) => {
      const started = Date.now()
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password_reset/request',
        payload: { email },
      })
      return { res, ms: Date.now() - started }
    }
    const answers = [
      await ask(known.email),
      await ask(closed.email),
      await ask(`never-registered-${Date.now()}@example.com`),
    ]
    for (const { res } of answers) {
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe(answers[0]!.res.body)
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    // Timing is padded to a floor (250 ms in buildApp), so the quick refusal does not show.
    for (const { ms } of answers) expect(ms).toBeGreaterThanOrEqual(240)
    // Not vacuous: the known account was mailed, the others not.
    const sent = (await outbox()).slice(before).map((r) => r.to_address)
    expect(sent).toEqual([known.email])
  })

  it('refuses an unknown reset link naming only the token field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password_reset',
      payload: {
        token: 'a'.repeat(43),
        password: 'probe new password',
        confirmation: 'probe new password',
      },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].param).toBe('token')
  })
})
