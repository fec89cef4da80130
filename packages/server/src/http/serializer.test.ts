import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { responseSerializer } from './serializer.ts'

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
