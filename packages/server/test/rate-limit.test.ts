import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers.ts'

// Brute-force protection on sign-in and registration (three a minute here, to keep the test short).
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({
    config: { AUTH_RATE_LIMIT_PER_MINUTE: 3, AUTH_LOGIN_FAILURES_BEFORE_BACKOFF: 2 },
  })
})
afterAll(() => t.close())

const login = (email: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email, password: 'wrong password' },
  })

describe('rate limits', () => {
  it('holds back an address that keeps failing on one account, not the account', async () => {
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(await login('victim@example.com', '10.0.0.1'))
    const statuses = answers.map((a) => a.statusCode)
    // Two failures on the account (the back-off threshold here): the address waits a second.
    expect(statuses).toEqual([401, 401, 429])
    expect(answers[2]!.json()).toEqual({
      errors: [{ code: 'RATE_LIMITED', message: expect.any(String), param: null }],
    })
    expect(answers[2]!.headers['retry-after']).toBe('1')
    // The same account from an address that has not failed is not held back (issue 26, item 5;
    // login-lockout.test.ts), nor is another account.
    expect((await login('victim@example.com', '10.0.0.9')).statusCode).toBe(401)
    expect((await login('someone-else@example.com', '10.0.1.1')).statusCode).toBe(401)
  })

  it('limits attempts from one address across accounts', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await login(`spray${i}@example.com`, '10.9.9.9')).statusCode)
    expect(statuses).toEqual([401, 401, 401, 429])
  })

  it('limits registrations from one address', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '10.7.7.7',
        payload: {
          email: `new${i}@example.com`,
          password: 'long enough pw',
          firstName: 'N',
          lastName: 'U',
        },
      })
      statuses.push(res.statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
