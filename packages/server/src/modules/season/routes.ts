import { successEnvelope } from '@tipping/contract/errors'
import {
  roundExplanationSchema,
  seasonRoundParamsSchema,
  seasonSchema,
} from '@tipping/contract/season'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { SeasonService } from './service.ts'

export function seasonRoutes(app: App, deps: { season: SeasonService }): void {
  const { season } = deps
  const tags = ['scores']

  app.get(
    '/api/:sport/season',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(seasonSchema) },
        description:
          "The signed-in tipper's season: tips correct, by team, streaks, clean sweeps, Golden Week, auto-tips that cost, Super Sixes misses, and each round's points against the round's average and best.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await season.season(request.params.sport, row.id))
    },
  )

  app.get(
    '/api/:sport/season/rounds/:round',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(seasonRoundParamsSchema.shape),
        response: { 200: successEnvelope(roundExplanationSchema) },
        description:
          "One round of the signed-in tipper explained: each tip's outcome and worth, the round's points, bonus and margin, the ranks and the tie-break rule.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await season.round(request.params.sport, row.id, request.params.round))
    },
  )
}
