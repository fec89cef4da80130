import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, sessionCookie, type TestApp } from './helpers.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
})
afterAll(() => t.close())

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload })

describe('registration', () => {
  it('creates the user, registers for both competitions and starts a session', async () => {
    const res = await register({
      email: 'Ann@Example.com',
      password: 'long enough pw',
      firstName: 'Ann',
      lastName: 'Lee',
    })
    expect(res.statusCode).toBe(200)
    const { user } = res.json().success
    expect(user).toMatchObject({
      email: 'ann@example.com',
      first_name: 'Ann',
      team_supported: 0,
      isWeeklyReminderEnabled: true,
      disabledNotifications: false,
      recovered: false,
      roles: ['ROLE_USER_BBL', 'ROLE_USER_WBBL'],
    })
    expect(user).not.toHaveProperty('password_hash')
    const cookie = res.cookies.find((c) => c.name === 'tip_session')
    expect(cookie?.httpOnly).toBe(true)
    expect(cookie?.sameSite).toBe('Lax')
    const regs = await t.db
      .selectFrom('competition_registrations')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute()
    expect(regs).toHaveLength(2)
    const me = await t.app.inject({ url: '/api/bbl/user', headers: { cookie: sessionCookie(res) } })
    expect(me.statusCode).toBe(200)
    expect(me.json().success.user.id).toBe(user.id)
  })

  it('refuses a taken email (any case) naming the field, and creates nothing', async () => {
    await register({
      email: 'dup@example.com',
      password: 'long enough pw',
      firstName: 'A',
      lastName: 'B',
    })
    const before = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const res = await register({
      email: 'DUP@example.com',
      password: 'long enough pw',
      firstName: 'A',
      lastName: 'B',
    })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      errors: [{ code: 'EMAIL_TAKEN', message: expect.any(String), param: 'email' }],
    })
    const after = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it.each([
    [{ email: 'not-an-email', password: 'long enough pw', firstName: 'A', lastName: 'B' }, 'email'],
    [{ email: 'a@example.com', password: 'short', firstName: 'A', lastName: 'B' }, 'password'],
    [{ email: 'a@example.com', password: 'long enough pw', lastName: 'B' }, 'firstName'],
    [
      {
        email: 'a@example.com',
        password: 'long enough pw',
        firstName: 'A',
        lastName: 'B',
        sport: 'ipl',
      },
      'sport',
    ],
  ])('refuses %j with 400 naming %s', async (payload, param) => {
    const res = await register(payload)
    expect(res.statusCode).toBe(400)
    const body = res.json()
    expect(body.errors[0]).toMatchObject({ code: 'VALIDATION', param })
  })

  it('registers for one sport only when asked, and the other sport answers 513', async () => {
    const res = await register({
      email: 'only-w@example.com',
      password: 'long enough pw',
      firstName: 'W',
      lastName: 'Only',
      sport: 'wbbl',
    })
    expect(res.json().success.user.roles).toEqual(['ROLE_USER_WBBL'])
    const cookie = sessionCookie(res)
    expect((await t.app.inject({ url: '/api/wbbl/user', headers: { cookie } })).statusCode).toBe(
      200,
    )
    const men = await t.app.inject({ url: '/api/bbl/user', headers: { cookie } })
    expect(men.statusCode).toBe(513)
    expect(men.json().errors[0].code).toBe('NOT_REGISTERED')
  })
})

describe('login, session check and logout', () => {
  it('answers 401 with the envelope when there is no session', async () => {
    const res = await t.app.inject({ url: '/api/bbl/user' })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({
      errors: [
        { code: 'UNAUTHORIZED', message: 'Session expired. Please log in again.', param: null },
      ],
    })
  })

  it('ignores a forged cookie', async () => {
    const res = await t.app.inject({
      url: '/api/bbl/user',
      headers: { cookie: 'tip_session=forged' },
    })
    expect(res.statusCode).toBe(401)
  })

  it('logs in with the right password only, with the same answer for an unknown email', async () => {
    const { email } = await registerUser(t.app)
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'wrong password' },
    })
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(wrong.json()).toEqual(unknown.json())
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: email.toUpperCase(), password: 'correct horse battery' },
    })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().success.user.email).toBe(email)
  })

  it('rotates the session at sign-in and revokes it at logout', async () => {
    const { email, cookie: first } = await registerUser(t.app)
    // Resolved once, so remembered by the session cache: revocation must still apply at once.
    expect(
      (await t.app.inject({ url: '/api/bbl/user', headers: { cookie: first } })).statusCode,
    ).toBe(200)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: first },
      payload: { email, password: 'correct horse battery' },
    })
    const second = sessionCookie(login)
    expect(second).not.toBe(first)
    expect(
      (await t.app.inject({ url: '/api/bbl/user', headers: { cookie: first } })).statusCode,
    ).toBe(401)
    expect(
      (await t.app.inject({ url: '/api/bbl/user', headers: { cookie: second } })).statusCode,
    ).toBe(200)
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/auth/logout',
      headers: { cookie: second },
    })
    expect(out.statusCode).toBe(200)
    expect(
      (await t.app.inject({ url: '/api/bbl/user', headers: { cookie: second } })).statusCode,
    ).toBe(401)
  })

  it("answers the page's session check with 200 either way: the user, or null", async () => {
    const visitor = await t.app.inject({ url: '/api/session' })
    expect(visitor.statusCode).toBe(200)
    expect(visitor.json()).toEqual({ success: { user: null } })
    // Never kept by a shared cache: the answer is this browser's own.
    expect(visitor.headers['cache-control']).toBe('private, no-store')
    const res = await register({
      email: 'session-w@example.com',
      password: 'long enough pw',
      firstName: 'W',
      lastName: 'Session',
      sport: 'wbbl',
    })
    const cookie = sessionCookie(res)
    // A player of the other sport only is still signed in: no 513 here.
    const me = await t.app.inject({ url: '/api/session', headers: { cookie } })
    expect(me.statusCode).toBe(200)
    expect(me.json().success.user).toMatchObject({
      email: 'session-w@example.com',
      roles: ['ROLE_USER_WBBL'],
    })
    await t.app.inject({ method: 'POST', url: '/api/wbbl/auth/logout', headers: { cookie } })
    const after = await t.app.inject({ url: '/api/session', headers: { cookie } })
    expect(after.json()).toEqual({ success: { user: null } })
  })

  it('expires a session left idle past the idle limit', async () => {
    const { cookie } = await registerUser(t.app)
    t.clock.advance(31 * 86_400_000)
    try {
      expect((await t.app.inject({ url: '/api/bbl/user', headers: { cookie } })).statusCode).toBe(
        401,
      )
    } finally {
      t.clock.advance(-31 * 86_400_000)
    }
  })

  it('writes last_seen_at at most once an hour, so signed-in reads are not writes', async () => {
    // The session cache off: every request looks its session up, as after a restart.
    const u = await createTestApp({ config: { SESSION_CACHE_MS: 0 } })
    try {
      const { cookie, id } = await registerUser(u.app)
      const lastSeen = async () =>
        (
          await u.db
            .selectFrom('sessions')
            .select('last_seen_at')
            .where('user_id', '=', id)
            .executeTakeFirstOrThrow()
        ).last_seen_at.getTime()
      // The session check answers 200 signed out too: the user in it is what says signed in.
      const read = async () =>
        expect(
          (await u.app.inject({ url: '/api/session', headers: { cookie } })).json().success.user,
        ).toMatchObject({ id })
      const started = await lastSeen()
      // Ten minutes on, each read is still signed in and writes nothing (the touch would be a
      // write the request does not wait for: give it time to land before looking).
      u.clock.advance(10 * 60_000)
      for (let i = 0; i < 3; i++) await read()
      await new Promise((r) => setTimeout(r, 300))
      expect(await lastSeen()).toBe(started)
      // Past the hour the next read moves it on, so the idle limit counts from that visit.
      u.clock.advance(60 * 60_000)
      await read()
      const touched = u.clock.now().getTime()
      const deadline = Date.now() + 5_000
      while ((await lastSeen()) !== touched && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20))
      expect(await lastSeen()).toBe(touched)
    } finally {
      await u.close()
    }
  })

  it('touches a session often enough for an idle limit of minutes', async () => {
    // 0.01 days is 14.4 minutes: a touch an hour would sign out a tipper reading every 10.
    const u = await createTestApp({ config: { SESSION_CACHE_MS: 0, SESSION_IDLE_DAYS: 0.01 } })
    try {
      const { cookie } = await registerUser(u.app)
      const status = async () =>
        (await u.app.inject({ url: '/api/session', headers: { cookie } })).json().success.user
      for (let visit = 0; visit < 3; visit++) {
        u.clock.advance(10 * 60_000)
        expect(await status()).not.toBeNull()
        await new Promise((r) => setTimeout(r, 300))
      }
      u.clock.advance(15 * 60_000)
      expect(await status()).toBeNull()
    } finally {
      await u.close()
    }
  })

  it('refuses a state-changing request from another origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example', host: 'localhost:3000' },
      payload: { email: 'a@example.com', password: 'whatever1' },
    })
    expect(res.statusCode).toBe(403)
    expect(res.json().errors[0].code).toBe('CROSS_ORIGIN')
    const site = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { email: 'a@example.com', password: 'whatever1' },
    })
    expect(site.statusCode).toBe(403)
  })
})
