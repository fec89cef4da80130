import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import fastJson from 'fast-json-stringify'
import type { FastifyInstance, FastifyReply } from 'fastify'
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

/**
 * Bodies written before the serializer: a route whose data arrives as JSON text (a rankings page
 * the database wrote) splices it into the rest of the answer instead of parsing it into objects
 * only to write them out again. `verifyPreserialised` holds them to the same contract.
 */
const preserialised = new WeakSet<FastifyReply>()

/** Sends `body`, JSON text already in the route's response shape, as it is. */
export function sendPreserialised(reply: FastifyReply, body: string): FastifyReply {
  preserialised.add(reply)
  return reply.type('application/json; charset=utf-8').send(body)
}

const HOLE = `\u0000${randomUUID()}`
const HOLE_JSON = JSON.stringify(HOLE)
/** A placeholder for `spliceJson`, typed to stand in any field. */
export const JSON_HOLE = HOLE as never

/** The JSON of `value` with `raw` (JSON text) where `value` holds JSON_HOLE. */
export function spliceJson(value: unknown, raw: string): string {
  const text = JSON.stringify(value)
  const at = text.indexOf(HOLE_JSON)
  if (at < 0) throw new Error('spliceJson: the value holds no JSON_HOLE')
  return text.slice(0, at) + raw + text.slice(at + HOLE_JSON.length)
}

/**
 * With verify (the test suites and e2e): every preserialised body must be exactly what the
 * contract's encoder writes for it, as for the compiled serializer above.
 */
export function verifyPreserialised(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!preserialised.has(reply)) return payload
    const schema = (reply.routeOptions.schema?.response as Record<string, unknown> | undefined)?.[
      String(reply.statusCode)
    ]
    const route = `${String(request.routeOptions.method)} ${request.routeOptions.url ?? ''}`
    if (!(schema instanceof z.ZodType) || typeof payload !== 'string')
      throw new Error(`${route} sent a preserialised body without a schema`)
    const sent: unknown = JSON.parse(payload)
    const encoded = zodSerializerCompiler({
      schema,
      method: String(request.routeOptions.method),
      url: request.routeOptions.url ?? '',
      httpStatus: String(reply.statusCode),
    })(sent)
    if (!isDeepStrictEqual(sent, JSON.parse(encoded)))
      throw new Error(
        `The preserialised body of ${route} differs from the contract's: ${payload} vs ${encoded}`,
      )
    return payload
  })
}
