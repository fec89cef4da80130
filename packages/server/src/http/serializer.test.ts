import Fastify from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  JSON_HOLE,
  responseSerializer,
  sendPreserialised,
  spliceJson,
  verifyPreserialised,
} from './serializer.ts'

const route = (schema: z.ZodType) =>
  ({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as Parameters<
    ReturnType<typeof responseSerializer>
  >[0]
const fast = (schema: z.ZodType) => responseSerializer({ verify: false })(route(schema))
const verified = (schema: z.ZodType) => responseSerializer({ verify: true })(route(schema))

describe('responseSerializer', () => {
  const tipper = z.object({
    id: z.number().int(),
    name: z.string().nullable(),
    tags: z.array(z.enum(['a', 'b'])),
    rank: z.number().optional(),
  })

  it('writes only what the contract declares, like zod', () => {
    const row = { id: 7, name: null, tags: ['a'], password_hash: 'secret', email: 'x@y.z' }
    expect(JSON.parse(fast(tipper)(row))).toEqual({ id: 7, name: null, tags: ['a'] })
    expect(verified(tipper)(row)).toBe(fast(tipper)(row))
  })

  it('with verify, refuses a value the contract refuses', () => {
    expect(() => verified(tipper)({ id: 'seven', name: null, tags: [] })).toThrow()
  })

  it('with verify, fails when the compiled output differs from the contract encoder', () => {
    // JSON Schema has no trim: the compiled function writes the spaces, zod does not.
    const trimmed = z.object({ name: z.string().trim() })
    expect(fast(trimmed)({ name: ' x ' })).toBe('{"name":" x "}')
    expect(() => verified(trimmed)({ name: ' x ' })).toThrow(/differs from the contract/)
  })

  it('falls back to zod for a schema JSON Schema cannot express', () => {
    const dated = z.object({ at: z.date() })
    expect(fast(dated)({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}')
  })
})

describe('preserialised bodies', () => {
  const row = z.object({ id: z.number().int(), name: z.string() })
  const page = z.object({ rows: z.array(row), next: z.number().nullable() })

  it('splices JSON text where the value holds the hole', () => {
    const body = spliceJson({ rows: JSON_HOLE, next: 2 }, '[{"id":1,"name":"a\\"b"}]')
    expect(JSON.parse(body)).toEqual({ rows: [{ id: 1, name: 'a"b' }], next: 2 })
    expect(() => spliceJson({ rows: [] }, '[]')).toThrow(/no JSON_HOLE/)
  })

  async function appSending(body: string) {
    const app = Fastify()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(responseSerializer({ verify: true }))
    verifyPreserialised(app)
    app.get('/page', { schema: { response: { 200: page } } }, (_req, reply) =>
      sendPreserialised(reply, body),
    )
    await app.ready()
    return app
  }

  it('with verify, passes a body the contract writes the same', async () => {
    const app = await appSending('{"rows":[{"id":1,"name":"a"}],"next":null}')
    const res = await app.inject('/page')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json()).toEqual({ rows: [{ id: 1, name: 'a' }], next: null })
    await app.close()
  })

  it('with verify, fails a body with a field the contract does not declare', async () => {
    const app = await appSending('{"rows":[{"id":1,"name":"a","email":"x@y.z"}],"next":null}')
    expect((await app.inject('/page')).statusCode).toBe(500)
    await app.close()
  })

  it('with verify, fails a body the contract refuses', async () => {
    const app = await appSending('{"rows":[{"id":"one","name":"a"}],"next":null}')
    expect((await app.inject('/page')).statusCode).toBe(500)
    await app.close()
  })
})
