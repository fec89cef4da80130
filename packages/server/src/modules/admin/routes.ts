import type { z } from 'zod'
import {
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminEmailIdParamsSchema,
  adminEmailResponseSchema,
  adminEmailsQuerySchema,
  adminEmailsResponseSchema,
  adminIdParamsSchema,
  adminLeaguesQuerySchema,
  adminLeaguesResponseSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  competitionListResponseSchema,
  competitionResponseSchema,
  competitionRoundsResponseSchema,
  competitionSettingsBodySchema,
  createCompetitionBodySchema,
  cricsheetImportBodySchema,
  cricsheetImportResponseSchema,
  importFixtureResponseSchema,
  matchResponseSchema,
  publishResponseSchema,
  rescoreResponseSchema,
  roundResponseSchema,
  updateMatchBodySchema,
  updateRolesBodySchema,
  updateRoundBodySchema,
} from '@tipping/contract/admin'
import { okResponseSchema } from '@tipping/contract/auth'
import { successEnvelope } from '@tipping/contract/errors'
import { seasonFileSchema } from '@tipping/contract/season-file'
import { success } from '../../http/envelope.ts'
import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { AdminService } from './service.ts'

const MB = 1024 * 1024

/** The admin console's API: every route is ROLE_ADMIN only, and every change is audited. */
export function adminRoutes(app: App, deps: { admin: AdminService; gate: SessionGate }): void {
  const { admin, gate } = deps
  const tags = ['admin']
  type Request = Parameters<SessionGate['requireAdmin']>[0]
  const actor = async (request: Request) => (await gate.requireAdmin(request)).row.id
  // Who is asking is checked before the input: a visitor learns nothing about the body expected.
  const config = { policy: 'admin' as const }
  const preValidation = async (request: Request) => void (await actor(request))
  const ok = <T extends z.ZodType>(inner: T) => ({ 200: successEnvelope(inner) })

  // Competitions and seasons ----------------------------------------------------------------

  app.get(
    '/api/admin/competitions',
    { config, preValidation, schema: { tags, response: ok(competitionListResponseSchema) } },
    async (request) => {
      await actor(request)
      return success({ competitions: await admin.competitions() })
    },
  )

  app.post(
    '/api/admin/competitions',
    {
      config,
      preValidation,
      schema: {
        tags,
        body: createCompetitionBodySchema,
        response: ok(competitionResponseSchema),
        description: 'Creates an empty season; import its fixture file next.',
      },
    },
    async (request) => {
      const id = await actor(request)
      return success({ competition: await admin.createCompetition(id, request.body) })
    },
  )

  app.post(
    '/api/admin/competitions/import',
    {
      config,
      preValidation,
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
      const id = await actor(request)
      return success(await admin.importFixture(id, request.body))
    },
  )

  app.patch(
    '/api/admin/competitions/:id',
    {
      config,
      preValidation,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: competitionSettingsBodySchema,
        response: ok(competitionResponseSchema),
        description: 'Golden Week round, ladder points, or make it the current season.',
      },
    },
    async (request) => {
      const id = await actor(request)
      return success({
        competition: await admin.updateCompetition(id, request.params.id, request.body),
      })
    },
  )

  app.get(
    '/api/admin/competitions/:id/rounds',
    {
      config,
      preValidation,
      schema: { tags, params: adminIdParamsSchema, response: ok(competitionRoundsResponseSchema) },
    },
    async (request) => {
      await actor(request)
      return success(await admin.rounds(request.params.id))
    },
  )

  app.post(
    '/api/admin/competitions/:id/rescore',
    {
      config,
      preValidation,
      schema: { tags, params: adminIdParamsSchema, response: ok(rescoreResponseSchema) },
    },
    async (request) => {
      const id = await actor(request)
      return success(await admin.rescore(id, request.params.id))
    },
  )

  app.post(
    '/api/admin/competitions/:id/cricsheet',
    {
      config,
      preValidation,
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
      const id = await actor(request)
      return success(await admin.importCricsheet(id, request.params.id, request.body.files))
    },
  )

  app.post(
    '/api/admin/publish',
    { config, preValidation, schema: { tags, response: ok(publishResponseSchema) } },
    async (request) => {
      const id = await actor(request)
      return success(await admin.republish(id))
    },
  )

  // Rounds and matches ----------------------------------------------------------------------

  app.patch(
    '/api/admin/rounds/:id',
    {
      config,
      preValidation,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: updateRoundBodySchema,
        response: ok(roundResponseSchema),
      },
    },
    async (request) => {
      const id = await actor(request)
      await admin.updateRound(id, request.params.id, request.body.label)
      return success({ round: await admin.roundOf(request.params.id) })
    },
  )

  app.patch(
    '/api/admin/matches/:id',
    {
      config,
      preValidation,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: updateMatchBodySchema,
        response: ok(matchResponseSchema),
        description: 'Start time, venue, or the round margin game; refuses what the game forbids.',
      },
    },
    async (request) => {
      const id = await actor(request)
      return success({ match: await admin.updateMatch(id, request.params.id, request.body) })
    },
  )

  // Users -----------------------------------------------------------------------------------

  app.get(
    '/api/admin/users',
    {
      config,
      preValidation,
      schema: { tags, querystring: adminUsersQuerySchema, response: ok(adminUsersResponseSchema) },
    },
    async (request) => {
      await actor(request)
      return success(await admin.users(request.query.search, request.query.page))
    },
  )

  app.put(
    '/api/admin/users/:id/roles',
    {
      config,
      preValidation,
      schema: {
        tags,
        params: adminIdParamsSchema,
        body: updateRolesBodySchema,
        response: ok(adminUserResponseSchema),
      },
    },
    async (request) => {
      const id = await actor(request)
      return success({ user: await admin.setRoles(id, request.params.id, request.body) })
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
        preValidation,
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
        const id = await actor(request)
        return success({ user: await admin.setActive(id, request.params.id, active) })
      },
    )
  }

  // Leagues ---------------------------------------------------------------------------------

  app.get(
    '/api/admin/leagues',
    {
      config,
      preValidation,
      schema: {
        tags,
        querystring: adminLeaguesQuerySchema,
        response: ok(adminLeaguesResponseSchema),
      },
    },
    async (request) => {
      await actor(request)
      const { search, sport, page } = request.query
      return success(await admin.leagues({ search, sport }, page))
    },
  )

  app.delete(
    '/api/admin/leagues/:id',
    {
      config,
      preValidation,
      schema: { tags, params: adminIdParamsSchema, response: ok(okResponseSchema) },
    },
    async (request) => {
      const id = await actor(request)
      await admin.removeLeague(id, request.params.id)
      return success({ ok: true as const })
    },
  )

  // Email outbox ----------------------------------------------------------------------------

  app.get(
    '/api/admin/emails',
    {
      config,
      preValidation,
      schema: {
        tags,
        querystring: adminEmailsQuerySchema,
        response: ok(adminEmailsResponseSchema),
      },
    },
    async (request) => {
      await actor(request)
      return success(await admin.emails(request.query.status, request.query.page))
    },
  )

  app.post(
    '/api/admin/emails/:id/retry',
    {
      config,
      preValidation,
      schema: {
        tags,
        params: adminEmailIdParamsSchema,
        response: ok(adminEmailResponseSchema),
      },
    },
    async (request) => {
      const id = await actor(request)
      return success({ email: await admin.retryEmail(id, request.params.id) })
    },
  )

  // Audit log -------------------------------------------------------------------------------

  app.get(
    '/api/admin/audit',
    {
      config,
      preValidation,
      schema: { tags, querystring: adminAuditQuerySchema, response: ok(adminAuditResponseSchema) },
    },
    async (request) => {
      await actor(request)
      const { actor: who, kind, page } = request.query
      return success(await admin.audit({ actor: who, kind }, page))
    },
  )
}
