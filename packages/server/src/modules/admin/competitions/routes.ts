import {
  adminIdParamsSchema,
  competitionListResponseSchema,
  competitionResponseSchema,
  competitionSettingsBodySchema,
  createCompetitionBodySchema,
  cricsheetImportBodySchema,
  cricsheetImportResponseSchema,
  importFixtureResponseSchema,
  publishResponseSchema,
  rescoreResponseSchema,
} from '@tipping/contract/admin'
import { seasonFileSchema } from '@tipping/contract/season-file'
import { success } from '../../../http/envelope.ts'
import type { App } from '../../../http/types.ts'
import { adminRouteKit } from '../route-kit.ts'
import type { CompetitionsAdmin } from './service.ts'

const MB = 1024 * 1024

/** The console's seasons: create, import a fixture or Cricsheet files, settings, re-score, re-publish. */
export function competitionsRoutes(app: App, deps: { service: CompetitionsAdmin }): void {
  const { service } = deps
  const { tags, config, ok, actor } = adminRouteKit()

  app.get(
    '/api/admin/competitions',
    { config, schema: { tags, response: ok(competitionListResponseSchema) } },
    async () => success({ competitions: await service.competitions() }),
  )

  app.post(
    '/api/admin/competitions',
    {
      config,
      schema: {
        tags,
        body: createCompetitionBodySchema,
        response: ok(competitionResponseSchema),
        description: 'Creates an empty season; import its fixture file next.',
      },
    },
    async (request) => {
      const id = actor(request)
      return success({ competition: await service.createCompetition(id, request.body) })
    },
  )

  app.post(
    '/api/admin/competitions/import',
    {
      config,
      bodyLimit: 8 * MB,
      schema: {
        tags,
        body: seasonFileSchema,
        response: ok(importFixtureResponseSchema),
        description:
          'Imports a season fixture file (data/seasons/*.json format); the season becomes current.',
      },
    },
    async (request) => {
      const id = actor(request)
      return success(await service.importFixture(id, request.body))
    },
  )

  app.patch(
    '/api/admin/competitions/:id',
    {
      config,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: competitionSettingsBodySchema,
        response: ok(competitionResponseSchema),
        description: 'Golden Week round, ladder points, or make it the current season.',
      },
    },
    async (request) => {
      const id = actor(request)
      return success({
        competition: await service.updateCompetition(id, request.params.id, request.body),
      })
    },
  )

  app.post(
    '/api/admin/competitions/:id/rescore',
    {
      config,
      schema: { tags, params: adminIdParamsSchema, response: ok(rescoreResponseSchema) },
    },
    async (request) => {
      const id = actor(request)
      return success(await service.rescore(id, request.params.id))
    },
  )

  app.post(
    '/api/admin/competitions/:id/cricsheet',
    {
      config,
      bodyLimit: 32 * MB,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: cricsheetImportBodySchema,
        response: ok(cricsheetImportResponseSchema),
        description: 'Completes fixture matches from Cricsheet JSON match files.',
      },
    },
    async (request) => {
      const id = actor(request)
      return success(await service.importCricsheet(id, request.params.id, request.body.files))
    },
  )

  app.post(
    '/api/admin/publish',
    { config, schema: { tags, response: ok(publishResponseSchema) } },
    async (request) => {
      const id = actor(request)
      return success(await service.republish(id))
    },
  )
}
