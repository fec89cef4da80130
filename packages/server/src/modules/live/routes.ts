import type { OutgoingHttpHeaders } from 'node:http'
import { successEnvelope } from '@tipping/contract/errors'
import {
  liveMatchParamsSchema,
  liveMatchSchema,
  liveRoundResponseSchema,
  liveScoreBodySchema,
} from '@tipping/contract/live'
import { roundParamsSchema } from '@tipping/contract/predictions'
import { sportParamsSchema } from '@tipping/contract/sport'
import { AppError } from '../../errors.ts'
import { failure, success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { EventHub } from './event-hub.ts'
import type { LiveService } from './service.ts'

/** How long a page waits before reconnecting after a drop (the SSE `retry:` field). */
const RETRY_MS = 3000
/** The event stream's response head (below). */
const STREAM_HEAD: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  // Neither a cache nor a proxy's compression or buffering may hold events back.
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
}
/** A Last-Event-ID is an event id: digits, no sign, within a bigint. */
const EVENT_ID = /^\d{1,15}$/

export function liveRoutes(app: App, deps: { live: LiveService; hub: EventHub }): void {
  const { live, hub } = deps

  app.put(
    '/api/admin/:sport/matches/:id/live',
    {
      config: { policy: 'admin' },
      schema: {
        tags: ['admin'],
        params: sportParamsSchema.extend(liveMatchParamsSchema.shape),
        body: liveScoreBodySchema,
        response: { 200: successEnvelope(liveMatchSchema) },
        description:
          "Set or correct a match in progress's live score (ROLE_ADMIN); it scores nothing.",
      },
    },
    async (request) => {
      const { sport, id } = request.params
      return success(await live.setLive(sport, id, request.body, callerOf(request).row.id))
    },
  )

  app.get(
    '/api/:sport/live/:round',
    {
      config: { policy: 'visitor' },
      schema: {
        tags: ['live'],
        params: sportParamsSchema.extend(roundParamsSchema.shape),
        response: { 200: successEnvelope(liveRoundResponseSchema) },
        description: "A round's live scores, with run rates, target and required rate.",
      },
    },
    async (request, reply) => {
      // Changes arrive on the push channel; this read is for a page's first paint.
      void reply.header('cache-control', 'no-cache')
      return success(await live.roundLive(request.params.sport, request.params.round))
    },
  )

  app.get(
    '/api/:sport/events',
    {
      config: { policy: 'visitor' },
      schema: {
        tags: ['live'],
        params: sportParamsSchema,
        description:
          'The push channel (Server-Sent Events, text/event-stream): live scores and results as ' +
          'they change. Resumes after Last-Event-ID; a comment line every SSE_HEARTBEAT_MS.',
      },
    },
    async (request, reply) => {
      if (!(request.headers.accept ?? '').includes('text/event-stream'))
        throw new AppError(
          'VALIDATION',
          'This is an event stream: ask for text/event-stream',
          'accept',
        )
      const header = request.headers['last-event-id']
      const last = Array.isArray(header) ? header[0] : header
      if (last !== undefined && last !== '' && !EVENT_ID.test(last))
        throw new AppError('VALIDATION', 'Last-Event-ID is an event id', 'last-event-id')
      if (hub.full)
        return reply
          .status(503)
          .header('retry-after', String(RETRY_MS / 1000))
          .send(
            failure([
              {
                code: 'SERVICE_UNAVAILABLE',
                message: 'Too many open pages on this server, try again in a few seconds',
                param: null,
              },
            ]),
          )
      reply.hijack()
      const res = reply.raw
      // A short, fixed head instead of the page headers every answer gets (the CSP and the rest
      // of helmet's set, which mean nothing to a stream the browser never renders): the head stays
      // in memory for the life of the connection, and at 100,000 pages each byte is 100 KB.
      const hsts = reply.getHeader('strict-transport-security')
      res.writeHead(
        200,
        typeof hsts === 'string'
          ? { ...STREAM_HEAD, 'strict-transport-security': hsts }
          : STREAM_HEAD,
      )
      res.write(`retry: ${RETRY_MS}\n\n`)
      // The head is sent: a failure now (the database away while catching up) can only end the
      // stream, and the page reconnects and resumes from its Last-Event-ID.
      await hub.attach(res, request.params.sport, last ? Number(last) : null).catch(() => {
        res.destroy()
      })
    },
  )
}
