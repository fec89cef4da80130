import { successEnvelope } from '@tipping/contract/errors'
import {
  predictionsResponseSchema,
  roundParamsSchema,
  savePredictionsBodySchema,
  savePredictionsResponseSchema,
} from '@tipping/contract/predictions'
import {
  leagueMatesTipsResponseSchema,
  matchListBodySchema,
  singleTipBodySchema,
  singleTipResponseSchema,
  userTipsParamsSchema,
  userTipsResponseSchema,
} from '@tipping/contract/scores'
import { sportParamsSchema } from '@tipping/contract/sport'
import { AppError } from '../../errors.ts'
import { success } from '../../http/envelope.ts'
import { JSON_HOLE, sendPreserialised, spliceJson } from '../../http/serializer.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { PredictionsService } from './service.ts'

export function predictionsRoutes(app: App, deps: { predictions: PredictionsService }): void {
  const { predictions } = deps
  const tags = ['tipping']

  app.get(
    '/api/:sport/predictions/:round',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(roundParamsSchema.shape),
        response: { 200: successEnvelope(predictionsResponseSchema) },
        description: "A round's matches with the signed-in user's tips.",
      },
    },
    async (request, reply) => {
      const { row } = callerOf(request)
      const { matchesJson, ...rest } = await predictions.roundForUser(
        request.params.sport,
        request.params.round,
        row.id,
      )
      // The round's matches arrive as JSON text shared by every tipper (reads.ts sharedMatches).
      return sendPreserialised(
        reply,
        spliceJson(success({ ...rest, matches: JSON_HOLE }), matchesJson),
      )
    },
  )

  app.post(
    '/api/:sport/predictions_list',
    {
      config: { policy: 'user' },
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
      const { row } = callerOf(request)
      const saved = await predictions.saveList(
        request.params.sport,
        row.id,
        request.body.predictions,
      )
      return success(saved)
    },
  )

  app.post(
    '/api/:sport/predictions_list/autopick',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: matchListBodySchema,
        response: { 200: successEnvelope(savePredictionsResponseSchema) },
        description:
          'Fill the listed untipped open matches with the squad most tippers picked; answers with a receipt.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const ids = request.body.predictions.map((p) => p.match)
      return success(await predictions.autopick(request.params.sport, row.id, ids))
    },
  )

  app.post(
    '/api/:sport/predictions_list/clear',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: matchListBodySchema,
        response: { 200: successEnvelope(savePredictionsResponseSchema) },
        description:
          "Remove the user's tips on the listed open matches; answers with a receipt naming what was cleared.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const ids = request.body.predictions.map((p) => p.match)
      return success(await predictions.clear(request.params.sport, row.id, ids))
    },
  )

  app.post(
    '/api/:sport/tips',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: singleTipBodySchema,
        response: { 200: successEnvelope(singleTipResponseSchema) },
        description: 'Change one tip (squad and, on the margin game, the sixes).',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const saved = await predictions.saveList(request.params.sport, row.id, [request.body])
      const [prediction] = saved.predictions
      if (!prediction) throw new AppError('INTERNAL', 'The tip was not saved')
      return success({ prediction, receipt: saved.receipt })
    },
  )

  app.get(
    '/api/:sport/predictions/:round/user/:userId',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(userTipsParamsSchema.shape),
        response: { 200: successEnvelope(userTipsResponseSchema) },
        description: "Another tipper's tips in a round: completed matches only.",
      },
    },
    async (request) => {
      const { sport, round, userId } = request.params
      return success(await predictions.tipsOfUser(sport, round, userId))
    },
  )

  app.get(
    '/api/:sport/predictions/:round/leagues',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(roundParamsSchema.shape),
        response: { 200: successEnvelope(leagueMatesTipsResponseSchema) },
        description:
          "The tip row: what the user's fellow league members tipped on each completed match of the round.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const { sport, round } = request.params
      return success(await predictions.leagueMatesTips(sport, round, row.id))
    },
  )
}
