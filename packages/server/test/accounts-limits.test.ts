import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, sessionCookie, type TestApp } from './helpers.ts'

// Brute-force limits of the account routes (issue 6, item 4): per account and per address,
// three a minute here (and two reset requests an hour per account and address, two reset emails
// an hour per account) to keep the test short.
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({
    config: { AUTH_RATE_LIMIT_PER_MINUTE: 3, PASSWORD_RESET_REQUESTS_PER_HOUR: 2 },
  })
  await loadSeasons(t.db)
})
afterAll(() => t.close())

const post = (url: string, ip: string, payload?: Record<string, unknown>, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    ...(payload ? { payload } : {}),
    ...(cookie ? { headers: { cookie } } : {}),
  })

let users = 0
/** A new account, registered from its own address so registrations stay under their limit. */
async function registerUser(): Promise<{ email: string; cookie: string }> {
  const n = ++users
  const email = `limited${n}@example.com`
  const res = await post(`/api/auth/register`, `10.200.${n}.1`, {
    email,
    password: 'correct horse battery',
    firstName: 'L',
    lastName: 'U',
  })
  return { email, cookie: sessionCookie(res) }
}

const RATE_LIMITED = {
  errors: [{ code: 'RATE_LIMITED', message: expect.any(String), param: null }],
}

describe('account route limits', () => {
  it('reset requests: per account and address, with the same answers for an unknown email', async () => {
    const known = await registerUser()
    for (const [j, email] of [known.email, 'never-registered@example.com'].entries()) {
      const statuses = []
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await post('/api/auth/password_reset/request', `10.1.${j}.1`, { email })).statusCode,
        )
      expect(statuses).toEqual([200, 200, 429])
      // Another address asking for the same account is not refused (issue 26, item 5).
      expect(
        (await post('/api/auth/password_reset/request', `10.1.${j}.2`, { email })).statusCode,
      ).toBe(200)
    }
    const last = await post('/api/auth/password_reset/request', '10.1.0.1', {
      email: known.email,
    })
    expect(last.json()).toEqual(RATE_LIMITED)
    // Two emails went out, not three: past the hour's two, a live link is not sent again.
    const mails = await t.db
      .selectFrom('email_outbox')
      .select('to_address')
      .where('to_address', '=', known.email)
      .execute()
    expect(mails).toHaveLength(2)
  })

  it('reset requests: per address across accounts', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await post('/api/auth/password_reset/request', '10.2.2.2', {
            email: `spray${i}@example.com`,
          })
        ).statusCode,
      )
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('reset: per token across addresses, and per address across tokens', async () => {
    const body = (token: string) => ({
      token,
      password: 'new password 1',
      confirmation: 'new password 1',
    })
    const perToken = []
    for (let i = 0; i < 4; i++)
      perToken.push(
        (await post('/api/auth/password_reset', `10.3.${i}.1`, body('guess'))).statusCode,
      )
    expect(perToken).toEqual([400, 400, 400, 429])
    const perAddress = []
    for (let i = 0; i < 4; i++)
      perAddress.push(
        (await post('/api/auth/password_reset', '10.3.9.9', body(`guess-${i}`))).statusCode,
      )
    expect(perAddress).toEqual([400, 400, 400, 429])
  })

  it('registration: per email across addresses', async () => {
    const payload = {
      email: 'same-email@example.com',
      password: 'long enough pw',
      firstName: 'S',
      lastName: 'E',
    }
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await post('/api/bbl/auth/register', `10.4.${i}.1`, payload)).statusCode)
    expect(statuses).toEqual([200, 409, 409, 429])
  })

  it('recovery: per account and per address', async () => {
    const user = await registerUser()
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post('/api/bbl/bbl/user/recover', `10.5.${i}.1`, undefined, user.cookie)).statusCode,
      )
    expect(statuses).toEqual([404, 404, 404, 429])
    const perAddress = []
    for (let i = 0; i < 4; i++) {
      const other = await registerUser()
      perAddress.push(
        (await post('/api/wbbl/wbbl/user/recover', '10.5.9.9', undefined, other.cookie)).statusCode,
      )
    }
    expect(perAddress).toEqual([404, 404, 404, 429])
  })

  it('password change: per account', async () => {
    const user = await registerUser()
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await post(
            '/api/user/password',
            `10.6.${i}.1`,
            {
              currentPassword: `guess ${i}`,
              password: 'next password',
              confirmation: 'next password',
            },
            user.cookie,
          )
        ).statusCode,
      )
    expect(statuses).toEqual([400, 400, 400, 429])
    // The session itself is untouched by the limit.
    const me = await t.app.inject({ url: '/api/bbl/user', headers: { cookie: user.cookie } })
    expect(me.statusCode).toBe(200)
  })
})
