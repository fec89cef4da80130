import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers.ts'

// Issue 26, item 6 (docs/decisions/011-registration-and-account-enumeration.md): registration
// still says when an email is taken, but only so often: three such answers an hour per address
// and five in all here. Once a budget is spent, every registration it covers is refused with 429
// (taken email or not), so the refusal itself tells nothing.
const HOUR = 3_600_000
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({
    config: { REGISTRATION_EMAIL_TAKEN_PER_HOUR: 3, REGISTRATION_EMAIL_TAKEN_GLOBAL_PER_HOUR: 5 },
  })
})
afterAll(() => t.close())

let n = 0
const register = (email: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bbl/auth/register',
    remoteAddress: ip,
    payload: { email, password: 'long enough pw', firstName: 'R', lastName: 'E' },
  })
const fresh = () => `fresh${++n}@example.com`

const RATE_LIMITED = {
  errors: [{ code: 'RATE_LIMITED', message: expect.any(String), param: null }],
}

describe('registration: "email taken" answers are bounded', () => {
  it('per address: three an hour, then every registration from it is refused until the hour is out', async () => {
    const taken = ['taken-a@example.com', 'taken-b@example.com', 'taken-c@example.com']
    for (const email of taken) expect((await register(email, '10.8.0.250')).statusCode).toBe(200)
    const probe = '10.8.1.1'
    const statuses = []
    for (const email of taken) statuses.push((await register(email, probe)).statusCode)
    expect(statuses).toEqual([409, 409, 409])
    // A fourth probe, taken or not, gets the same refusal: no more answers from this address.
    for (const email of ['taken-a@example.com', fresh()]) {
      const res = await register(email, probe)
      expect(res.statusCode).toBe(429)
      expect(res.json()).toEqual(RATE_LIMITED)
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3000)
    }
    // Others register as before; this address again after the hour.
    expect((await register(fresh(), '10.8.2.1')).statusCode).toBe(200)
    t.clock.advance(HOUR)
    expect((await register('taken-a@example.com', probe)).statusCode).toBe(409)
    expect((await register(fresh(), probe)).statusCode).toBe(200)
  })

  it('in all: five an hour from any addresses, then registration waits for the hour to end', async () => {
    t.clock.advance(HOUR)
    const statuses = []
    for (let i = 1; i <= 5; i++)
      statuses.push((await register('taken-a@example.com', `10.9.${i}.1`)).statusCode)
    expect(statuses).toEqual([409, 409, 409, 409, 409])
    for (const email of ['taken-b@example.com', fresh()]) {
      const res = await register(email, '10.9.99.1')
      expect(res.statusCode).toBe(429)
      expect(res.json()).toEqual(RATE_LIMITED)
      expect(res.headers['retry-after']).toMatch(/^\d+$/)
    }
    t.clock.advance(HOUR)
    expect((await register(fresh(), '10.9.99.1')).statusCode).toBe(200)
  })
})
