import { successEnvelope } from '@tipping/contract/errors'
import { matchIdParamsSchema, matchResultBodySchema } from '@tipping/contract/results'
import { sportParamsSchema } from '@tipping/contract/sport'
import { okResponseSchema } from '@tipping/contract/auth'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { ResultsService } from './service.ts'

export function resultsRoutes(app: App, deps: { results: ResultsService }): void {
  const { results } = deps
  app.post(
    '/api/admin/:sport/matches/:id/result',
    {
      config: { policy: 'admin' },
      schema: {
        tags: ['admin'],
        params: sportParamsSchema.extend(matchIdParamsSchema.shape),
        body: matchResultBodySchema,
        response: { 200: successEnvelope(okResponseSchema) },
        description:
          'Set or correct a match result (ROLE_ADMIN); re-scores and republishes what it touches.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      await results.setResult(request.params.sport, request.params.id, request.body, row.id)
      return success({ ok: true as const })
    },
  )
}
