import { successEnvelope } from '@tipping/contract/errors'
import { leagueIdParamsSchema } from '@tipping/contract/leagues'
import { seasonLeagueSchema } from '@tipping/contract/season'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { SeasonLeagues } from './service.ts'

export function seasonLeagueRoutes(app: App, deps: { seasonLeagues: SeasonLeagues }): void {
  const { seasonLeagues } = deps
  app.get(
    '/api/:sport/season/leagues/:id',
    {
      config: { policy: 'member' },
      schema: {
        tags: ['scores'],
        params: sportParamsSchema.extend(leagueIdParamsSchema.shape),
        response: { 200: successEnvelope(seasonLeagueSchema) },
        description:
          "The signed-in member's season in one of their leagues: each round's points from the league's start round against the league's average and best, and their rank in the league after each round.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await seasonLeagues.league(request.params.sport, row.id, request.params.id))
    },
  )
}
