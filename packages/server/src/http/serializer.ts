import { isDeepStrictEqual } from 'node:util'
import fastJson from 'fast-json-stringify'
import type { FastifySerializerCompiler } from 'fastify/types/schema.js'
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'
import { z, type ZodType } from 'zod'

type Compile = FastifySerializerCompiler<ZodType>
type Route = Parameters<Compile>[0]

/**
 * Response serialisation. Encoding through zod and then JSON.stringify cost about a tenth of the
 * API's CPU under load (bench/), so each response schema is also compiled, once, to a
 * fast-json-stringify function (Fastify's own serializer) from its JSON Schema. Like zod, it writes
 * only the properties the contract declares, so a row with extra columns never leaks them.
 * A schema JSON Schema cannot express falls back to zod.
 *
 * Unlike zod, the compiled function does not check values against the contract. With `verify`
 * (the test suites and e2e) every response goes through both, and any difference is an error, so
 * the whole suite checks that the fast path writes exactly what the contract's encoder writes.
 */
export function responseSerializer(opts: { verify: boolean }): Compile {
  return (route) => {
    const slow = zodSerializerCompiler(route)
    const fast = compileFast(route)
    if (!fast) return slow
    if (!opts.verify) return fast
    return (data) => {
      const expected = slow(data)
      const actual = fast(data)
      if (actual !== expected && !isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected))) {
        throw new Error(
          `The compiled serializer of ${route.method} ${route.url} (${route.httpStatus}) differs from the contract's: ${actual} vs ${expected}`,
        )
      }
      return actual
    }
  }
}

function compileFast(route: Route): ((data: unknown) => string) | null {
  const schema = route.schema as unknown
  if (!(schema instanceof z.ZodType)) return null
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'throw',
    })
    return fastJson(json as Parameters<typeof fastJson>[0])
  } catch {
    return null
  }
}
