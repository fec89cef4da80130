import {
  competitionRoundsResponseSchema,
  adminIdParamsSchema,
  matchResponseSchema,
  roundResponseSchema,
  updateMatchBodySchema,
  updateRoundBodySchema,
} from '@tipping/contract/admin'
import { success } from '../../../http/envelope.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { MatchesAdmin } from './service.ts'

/** The console's rounds and matches. */
export function matchesRoutes(app: App, deps: { service: MatchesAdmin }): void {
  const { service } = deps
  const { tags, config, ok, actor } = adminRouteKit()

  app.get(
    '/api/admin/competitions/:id/rounds',
    {
      config,
      schema: { tags, params: adminIdParamsSchema, response: ok(competitionRoundsResponseSchema) },
    },
    async (request) => {
      return success(await service.rounds(request.params.id))
    },
  )

  app.patch(
    '/api/admin/rounds/:id',
    {
      config,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: updateRoundBodySchema,
        response: ok(roundResponseSchema),
      },
    },
    async (request) => {
      const id = actor(request)
      await service.updateRound(id, request.params.id, request.body.label)
      return success({ round: await service.roundOf(request.params.id) })
    },
  )

  app.patch(
    '/api/admin/matches/:id',
    {
      config,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: updateMatchBodySchema,
        response: ok(matchResponseSchema),
        description: 'Start time, venue, or the round margin game; refuses what the game forbids.',
      },
    },
    async (request) => {
      const id = actor(request)
      return success({ match: await service.updateMatch(id, request.params.id, request.body) })
    },
  )
}
