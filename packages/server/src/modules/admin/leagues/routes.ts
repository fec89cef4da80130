import {
  adminIdParamsSchema,
  adminLeaguesQuerySchema,
  adminLeaguesResponseSchema,
} from '@tipping/contract/admin'
import { okResponseSchema } from '@tipping/contract/auth'
import { success } from '../../../http/envelope.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { LeaguesAdmin } from './service.ts'

/** The console's leagues. */
export function leaguesRoutes(app: App, deps: { service: LeaguesAdmin }): void {
  const { service } = deps
  const { tags, config, ok, actor } = adminRouteKit()

  app.get(
    '/api/admin/leagues',
    {
      config,
      schema: {
        tags,
        querystring: adminLeaguesQuerySchema,
        response: ok(adminLeaguesResponseSchema),
      },
    },
    async (request) => {
      const { search, sport, page } = request.query
      return success(await service.leagues({ search, sport }, page))
    },
  )

  app.delete(
    '/api/admin/leagues/:id',
    {
      config,
      schema: { tags, params: adminIdParamsSchema, response: ok(okResponseSchema) },
    },
    async (request) => {
      const id = actor(request)
      await service.removeLeague(id, request.params.id)
      return success({ ok: true as const })
    },
  )
}
