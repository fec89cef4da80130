import { successEnvelope } from '@tipping/contract/errors'
import { headToHeadQuerySchema, headToHeadResponseSchema } from '@tipping/contract/head-to-head'
import { leagueIdParamsSchema } from '@tipping/contract/leagues'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../../http/envelope.ts'
import { callerOf } from '../../../http/session.ts'
import type { App } from '../../../http/types.ts'
import type { HeadToHeadService } from './service.ts'

export function headToHeadRoutes(app: App, deps: { headToHead: HeadToHeadService }): void {
  app.get(
    '/api/:sport/league/:id/head-to-head',
    {
      // Signed in and registered for the sport; membership of the league is the service's check.
      config: { policy: 'member' },
      schema: {
        tags: ['leagues'],
        params: sportParamsSchema.extend(leagueIdParamsSchema.shape),
        querystring: headToHeadQuerySchema,
        response: { 200: successEnvelope(headToHeadResponseSchema) },
        description:
          "Two members' season record against each other (rounds won, points, margin) and the tips they differed on in a round, completed matches only (members only).",
      },
    },
    async (request) => {
      const { sport, id } = request.params
      return success(await deps.headToHead.read(sport, callerOf(request).row.id, id, request.query))
    },
  )
}
