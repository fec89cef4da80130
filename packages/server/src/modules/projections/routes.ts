import { successEnvelope } from '@tipping/contract/errors'
import { leagueIdParamsSchema } from '@tipping/contract/leagues'
import { roundParamsSchema } from '@tipping/contract/predictions'
import {
  liveRankQuerySchema,
  liveRankResponseSchema,
  liveStandingResponseSchema,
} from '@tipping/contract/projections'
import { roundNumberParamSchema } from '@tipping/contract/ids'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { ProjectionsService } from './service.ts'

/**
 * How long a cache may keep a rank answer. Its URL names the data it comes from (the scores
 * version, the live sixes), so it cannot go wrong while the match is live; the bound is for
 * registrations before a competition's first result, which bump no version.
 */
const RANK_MAX_AGE_S = 60

export function projectionsRoutes(app: App, deps: { projections: ProjectionsService }): void {
  const { projections } = deps
  const tags = ['live']

  app.get(
    '/api/:sport/live/:round/rank',
    {
      config: { policy: 'visitor' },
      schema: {
        tags,
        params: sportParamsSchema.extend(roundParamsSchema.shape),
        querystring: liveRankQuerySchema,
        response: { 200: successEnvelope(liveRankResponseSchema) },
        description:
          'GAME_RULES "Live projections": the overall rank projected season totals would have if ' +
          '`side` won the live `match`, among every ranked tipper. `v` (scores version) and ' +
          '`sixes` (the margin game) name the data: another is a 409 naming the field.',
      },
    },
    async (request, reply) => {
      const { sport, round } = request.params
      const answer = await projections.rank(sport, round, request.query)
      void reply.header('cache-control', `public, max-age=${RANK_MAX_AGE_S}`)
      return success(answer)
    },
  )

  app.get(
    '/api/:sport/league/:id/live-rank',
    {
      config: { policy: 'member' },
      schema: {
        tags,
        params: sportParamsSchema.extend(leagueIdParamsSchema.shape),
        querystring: liveRankQuerySchema.extend({ round: roundNumberParamSchema }),
        response: { 200: successEnvelope(liveRankResponseSchema) },
        description:
          "The caller's place on the league's ladder (from its start round) with projected " +
          'league totals, among its active members (members only).',
      },
    },
    async (request, reply) => {
      const { sport, id } = request.params
      const answer = await projections.leagueRank(
        sport,
        callerOf(request).row.id,
        id,
        request.query,
      )
      void reply.header('cache-control', `private, max-age=${RANK_MAX_AGE_S}`)
      return success(answer)
    },
  )

  app.get(
    '/api/:sport/live/:round/standing',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(roundParamsSchema.shape),
        response: { 200: successEnvelope(liveStandingResponseSchema) },
        description:
          "The caller's stored round, season and league numbers a live projection starts from, " +
          'with the scores version they are at.',
      },
    },
    async (request, reply) => {
      const { sport, round } = request.params
      void reply.header('cache-control', 'private, no-cache')
      return success(await projections.standing(sport, callerOf(request).row.id, round))
    },
  )
}
