import { successEnvelope } from '@tipping/contract/errors'
import {
  dashboardSchema,
  rankingsQuerySchema,
  rankingsResponseSchema,
  snapshotBodySchema,
  snapshotSchema,
} from '@tipping/contract/scores'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { JSON_HOLE, sendPreserialised, spliceJson } from '../../http/serializer.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { ScoresService } from './service.ts'

export function scoresRoutes(app: App, deps: { scores: ScoresService }): void {
  const { scores } = deps
  const tags = ['scores']

  app.post(
    '/api/:sport/predictions/snapshot',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: snapshotBodySchema.optional(),
        response: { 200: successEnvelope(snapshotSchema) },
        description: 'Score summary: round and total points, overall rank, maxima, total tippers.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await scores.snapshot(request.params.sport, row.id, request.body?.round))
    },
  )

  app.get(
    '/api/:sport/rankings/overall/rankings',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        querystring: rankingsQuerySchema,
        response: { 200: successEnvelope(rankingsResponseSchema) },
        description: 'Overall rankings (or one round with `round`), 20 a page, searchable by name.',
      },
    },
    async (request, reply) => {
      const { row } = callerOf(request)
      const { rankingsJson, ...rest } = await scores.rankings(
        request.params.sport,
        row.id,
        request.query,
      )
      // The page's rows arrive as JSON text (queries.ts rankingPagesJson) and go out as they are.
      return sendPreserialised(
        reply,
        spliceJson(success({ rankings: JSON_HOLE, ...rest }), rankingsJson),
      )
    },
  )

  app.get(
    '/api/tipping/dashboard',
    {
      config: { policy: 'user' },
      schema: { tags, response: { 200: successEnvelope(dashboardSchema) } },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await scores.dashboard(row.id))
    },
  )
}
