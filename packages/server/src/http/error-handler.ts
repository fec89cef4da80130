import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { isTransientConflict } from '../db/transaction.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { AppError } from '../errors.ts'
import { failure } from './envelope.ts'
import { unknownFieldMessage } from './strict-bodies.ts'

/** `body.predictions.0.squad` -> `predictions.0.squad`: the param a client can show by its field. */
function paramOf(context: string | undefined, instancePath: string): string {
  return dotted(instancePath) || (context ?? 'body')
}
const dotted = (instancePath: string): string =>
  instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.')

const unknownKeys = (params: unknown): string[] => {
  const keys = (params as { keys?: unknown } | undefined)?.keys
  return Array.isArray(keys) ? keys.map(String) : []
}

/** One error handler (STYLE.md): every failure leaves as the envelope; 5xx text never leaks. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
    if (err instanceof AppError) {
      if (err.status === 503) void reply.header('retry-after', '5')
      return reply
        .status(err.status)
        .send(failure([{ code: err.code, message: err.message, param: err.param }]))
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.flatMap((v) => {
        // A strict body (strict-bodies.ts) refuses unknown fields: one error naming each.
        if (v.keyword === 'unrecognized_keys') {
          const at = dotted(v.instancePath)
          return unknownKeys(v.params).map((key) => ({
            code: 'VALIDATION',
            message: unknownFieldMessage(key),
            param: at ? `${at}.${key}` : key,
          }))
        }
        const param = paramOf(err.validationContext, v.instancePath)
        return [{ code: 'VALIDATION', message: v.message ?? 'Invalid value', param }]
      })
      return reply.status(400).send(failure(errors))
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500
    if (status === 429) {
      return reply
        .status(429)
        .send(
          failure([
            { code: 'RATE_LIMITED', message: 'Too many requests, try again soon', param: null },
          ]),
        )
    }
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: bad JSON, wrong content type, body too large.
      return reply
        .status(status)
        .send(failure([{ code: 'VALIDATION', message: err.message, param: 'body' }]))
    }
    // A 503 says what a 500 does not: the same request sent again later can succeed.
    const unavailable = (retryAfter: string, message: string) =>
      reply
        .status(503)
        .header('retry-after', retryAfter)
        .send(failure([{ code: 'SERVICE_UNAVAILABLE', message, param: null }]))
    if (isTransientConflict(err)) {
      // PostgreSQL aborted it three times in a row (inTransaction runs it again): nothing was
      // changed. Busy, not broken.
      request.log.warn({ err: err.message }, 'transaction aborted three times')
      return unavailable(
        '1',
        'Busy with other changes to the same data: nothing was saved, try again',
      )
    }
    if (status === 503 || isDatabaseUnavailable(err)) {
      // The database is down or restarting: say so and when to retry, never a 500 (RELIABILITY.md).
      if (status !== 503) request.log.warn({ err: err.message }, 'database unavailable')
      return unavailable('5', 'Service unavailable, try again soon')
    }
    request.log.error({ err }, 'request failed')
    return reply
      .status(500)
      .send(
        failure([{ code: 'INTERNAL', message: 'Something went wrong on our side', param: null }]),
      )
  })
}
