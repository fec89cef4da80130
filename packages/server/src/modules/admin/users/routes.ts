import {
  adminIdParamsSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  updateRolesBodySchema,
} from '@tipping/contract/admin'
import { success } from '../../../http/envelope.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { UsersAdmin } from './service.ts'

/** The console's users. */
export function usersRoutes(app: App, deps: { service: UsersAdmin }): void {
  const { service } = deps
  const { tags, config, ok, actor } = adminRouteKit()

  app.get(
    '/api/admin/users',
    {
      config,
      schema: { tags, querystring: adminUsersQuerySchema, response: ok(adminUsersResponseSchema) },
    },
    async (request) => {
      return success(await service.users(request.query.search, request.query.page))
    },
  )

  app.put(
    '/api/admin/users/:id/roles',
    {
      config,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: updateRolesBodySchema,
        response: ok(adminUserResponseSchema),
      },
    },
    async (request) => {
      const id = actor(request)
      return success({ user: await service.setRoles(id, request.params.id, request.body) })
    },
  )

  for (const [path, active] of [
    ['deactivate', false],
    ['reactivate', true],
  ] as const) {
    app.post(
      `/api/admin/users/:id/${path}`,
      {
        config,
        schema: {
          tags,
          params: adminIdParamsSchema,
          response: ok(adminUserResponseSchema),
          description: active
            ? 'Lets a deactivated account sign in again.'
            : 'Stops an account signing in and ends its sessions.',
        },
      },
      async (request) => {
        const id = actor(request)
        return success({ user: await service.setActive(id, request.params.id, active) })
      },
    )
  }
}
