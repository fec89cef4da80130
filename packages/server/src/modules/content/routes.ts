import { z } from 'zod'
import { contentKeySchema, contentResponseSchema } from '@tipping/contract/content'
import { successEnvelope } from '@tipping/contract/errors'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { ContentService } from './service.ts'

/** The admin console's two content calls (issue 7): read every setting, replace one. */
export function contentRoutes(app: App, deps: { content: ContentService }) {
  const { content } = deps
  const response = { 200: successEnvelope(contentResponseSchema) }

  app.get(
    '/api/admin/content',
    {
      config: { policy: 'admin' },
      schema: {
        tags: ['admin'],
        response,
        description: 'Every site content setting, stored or default (ROLE_ADMIN).',
      },
    },
    async () => success({ content: await content.getAll() }),
  )

  app.put(
    '/api/admin/content/:key',
    {
      config: { policy: 'admin' },
      schema: {
        tags: ['admin'],
        params: z.object({ key: contentKeySchema }),
        // The body's shape depends on the key; the service validates it with that key's schema
        // (after the admin check), naming the field that is wrong.
        body: z.unknown(),
        response,
        description:
          "Replace one content setting with a value of that key's shape (ROLE_ADMIN); audited, then the public content files are republished.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success({
        content: await content.set(request.params.key, request.body, row.id),
      })
    },
  )
}
