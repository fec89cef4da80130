import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers.ts'

// Brute-force protection on sign-in and registration (three a minute here, to keep the test short).
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ config: { AUTH_RATE_LIMIT_PER_MINUTE: 3 } })
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
  it('limits sign-in attempts on one account, whichever address they come from', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await login('victim@example.com', `10.0.0.${i + 1}`)).statusCode)
    expect(statuses).toEqual([401, 401, 401, 429])
    const res = await login('victim@example.com', '10.0.0.9')
    expect(res.json()).toEqual({
      errors: [{ code: 'RATE_LIMITED', message: expect.any(String), param: null }],
    })
    // Another account from a fresh address is unaffected.
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
