import { SERVER_TIME_HEADER } from '@tipping/contract/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, engine, registerUser, type TestApp } from './helpers.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('the app shell', () => {
  it('reports health with the database checked', async () => {
    const res = await t.app.inject({ url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: { status: 'ok', database: 'ok', engine: engine() } })
  })

  it('answers unknown API routes with a 404 envelope', async () => {
    const res = await t.app.inject({ url: '/api/nope' })
    expect(res.statusCode).toBe(404)
    expect(res.json().errors[0].code).toBe('NOT_FOUND')
  })

  it('answers malformed JSON with a 400 envelope, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toMatchObject({ code: 'VALIDATION', param: 'body' })
  })

  it('refuses an unknown sport naming the param', async () => {
    // Signed in: the route's policy is checked before its params (issue 28), so a visitor gets
    // 401 whatever the sport.
    const { cookie } = await registerUser(t.app)
    const res = await t.app.inject({ url: '/api/ipl/user', headers: { cookie } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toMatchObject({ code: 'VALIDATION', param: 'sport' })
    const visitor = await t.app.inject({ url: '/api/ipl/user' })
    expect(visitor.statusCode).toBe(401)
  })

  it('publishes an OpenAPI document listing the routes', async () => {
    const res = await t.app.inject({ url: '/api/docs' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/register',
        '/api/{sport}/predictions/{round}',
        '/api/{sport}/predictions_list',
      ]),
    )
  })

  it('sends security headers', async () => {
    const res = await t.app.inject({ url: '/api/health' })
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it("sends the clock lockouts are judged by on every answer, the errors' too (decision 047)", async () => {
    t.clock.set(new Date('2025-12-19T08:15:00.250Z'))
    for (const url of ['/api/health', '/api/nope', '/api/bbl/user']) {
      const res = await t.app.inject({ url })
      expect(res.headers[SERVER_TIME_HEADER], url).toBe(
        String(Date.parse('2025-12-19T08:15:00.250Z')),
      )
    }
  })
})
