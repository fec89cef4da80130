import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { registerErrorHandler } from './error-handler.ts'

describe('the error handler', () => {
  it('answers a transaction PostgreSQL kept aborting with 503 and a retry, not a 500', async () => {
    const app = Fastify({ logger: false })
    registerErrorHandler(app)
    // What inTransaction lets through after its third run was aborted: pg's error, as Kysely
    // rethrows it (decision 045).
    app.post('/deadlock', () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' })
    })
    app.post('/broken', () => {
      throw Object.assign(new Error('syntax error'), { code: '42601' })
    })
    const busy = await app.inject({ method: 'POST', url: '/deadlock' })
    expect(busy.statusCode).toBe(503)
    expect(busy.headers['retry-after']).toBe('1')
    expect(busy.json()).toEqual({
      errors: [
        {
          code: 'SERVICE_UNAVAILABLE',
          message: 'Busy with other changes to the same data: nothing was saved, try again',
          param: null,
        },
      ],
    })
    // Any other database error is still ours to fix: a 500 that says nothing of it.
    const broken = await app.inject({ method: 'POST', url: '/broken' })
    expect(broken.statusCode).toBe(500)
    expect(broken.body).not.toContain('syntax')
    await app.close()
  })
})
