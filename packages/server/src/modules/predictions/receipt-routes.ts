import { successEnvelope } from '@tipping/contract/errors'
import {
  receiptCheckResponseSchema,
  receiptParamsSchema,
  receiptQuerySchema,
  tipsHistoryResponseSchema,
} from '@tipping/contract/receipts'
import { sportParamsSchema } from '@tipping/contract/sport'
import { AppError } from '../../errors.ts'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { PredictionsService } from './service.ts'

// Tip receipts (issue 32, decision 027): the user's own history of saves, and the public check.

export function receiptRoutes(
  app: App,
  deps: { predictions: PredictionsService; checksPerMinute: number },
): void {
  const { receipts } = deps.predictions
  const tags = ['tipping']

  app.get(
    '/api/:sport/tips-history',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(tipsHistoryResponseSchema) },
        description:
          "The signed-in user's tip saves of the season, newest first: each save's receipt, its picks and what it changed.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await receipts.history(request.params.sport, row.id))
    },
  )

  app.get(
    '/api/receipts/:id',
    {
      // Anyone holding a receipt may check it; the answer is yes or no and the save's time, never
      // the picks. Rate-limited per address, as the other public routes are: ids are random, so
      // this is no way to find saves, but it still costs a read.
      config: {
        policy: 'visitor',
        rateLimit: {
          max: deps.checksPerMinute,
          timeWindow: '1 minute',
          errorResponseBuilder: () =>
            new AppError(
              'RATE_LIMITED',
              'Too many receipt checks from your address; try again later',
            ),
        },
      },
      schema: {
        tags,
        params: receiptParamsSchema,
        querystring: receiptQuerySchema,
        response: { 200: successEnvelope(receiptCheckResponseSchema) },
        description:
          'Whether a tip receipt (id and digest) is genuine: issued by this server for a save it keeps.',
      },
    },
    async (request) => success(await receipts.check(request.params.id, request.query.digest)),
  )
}
