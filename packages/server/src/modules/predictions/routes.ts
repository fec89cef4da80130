import { successEnvelope } from '@tipping/contract/errors'
import {
  predictionsResponseSchema,
  roundParamsSchema,
  savePredictionsBodySchema,
  savePredictionsResponseSchema,
} from '@tipping/contract/predictions'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { PredictionsService } from './service.ts'

export function predictionsRoutes(
  app: App,
  deps: { predictions: PredictionsService; gate: SessionGate },
): void {
  const { predictions, gate } = deps
  const tags = ['tipping']

  app.get(
    '/api/:sport/predictions/:round',
    {
      schema: {
        tags,
        params: sportParamsSchema.extend(roundParamsSchema.shape),
        response: { 200: successEnvelope(predictionsResponseSchema) },
        description: "A round's matches with the signed-in user's tips.",
      },
    },
    async (request) => {
      const { row } = await gate.requireUser(request, request.params.sport)
      return success(
        await predictions.roundForUser(request.params.sport, request.params.round, row.id),
      )
    },
  )

  app.post(
    '/api/:sport/predictions_list',
    {
      schema: {
        tags,
        params: sportParamsSchema,
        body: savePredictionsBodySchema,
        response: { 200: successEnvelope(savePredictionsResponseSchema) },
        description:
          'Save a list of tips; all or nothing. Locked matches and foreign squads are refused.',
      },
    },
    async (request) => {
      const { row } = await gate.requireUser(request, request.params.sport)
      const saved = await predictions.saveList(
        request.params.sport,
        row.id,
        request.body.predictions,
      )
      return success({ predictions: saved })
    },
  )
}
