import { z } from 'zod'
import { successEnvelope } from '@tipping/contract/errors'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { success } from '../../http/envelope.ts'
import type { App } from '../../http/types.ts'
import { ping } from './queries.ts'

const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  engine: z.string(),
})

export function healthRoutes(app: App, deps: { db: Database; engine: string }): void {
  app.get(
    '/api/health',
    {
      config: { policy: 'visitor' },
      schema: { tags: ['ops'], response: { 200: successEnvelope(healthSchema) } },
    },
    async () => {
      try {
        await ping(deps.db)
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', 'Database unavailable', 'database')
      }
      return success({ status: 'ok' as const, database: 'ok' as const, engine: deps.engine })
    },
  )
}
