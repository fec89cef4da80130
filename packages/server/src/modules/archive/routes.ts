import { okResponseSchema } from '@tipping/contract/auth'
import {
  archivedLadderResponseSchema,
  archivedLeagueParamsSchema,
  archivePageQuerySchema,
  archiveRankingsResponseSchema,
  archiveTeamLadderSchema,
  leagueHistoryResponseSchema,
  pastSeasonsResponseSchema,
  renewalOffersResponseSchema,
  renewedLeagueResponseSchema,
  renewLeagueBodySchema,
  seasonArchiveSchema,
  seasonYearParamsSchema,
} from '@tipping/contract/archive'
import { successEnvelope } from '@tipping/contract/errors'
import { leagueIdParamsSchema } from '@tipping/contract/leagues'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { ArchiveService } from './service.ts'

// The season archive and league renewal (issue 31). Every route reads a past season or writes
// only to the current one; the service checks league membership and the commissioner.
export function archiveRoutes(app: App, deps: { archive: ArchiveService }): void {
  const { archive } = deps
  const tags = ['archive']
  const withYear = sportParamsSchema.extend(seasonYearParamsSchema.shape)
  const withLeague = sportParamsSchema.extend(leagueIdParamsSchema.shape)

  app.get(
    '/api/:sport/seasons',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(pastSeasonsResponseSchema) },
        description: "The sport's past seasons, newest first.",
      },
    },
    async (request) => success(await archive.list(request.params.sport)),
  )

  app.get(
    '/api/:sport/seasons/:year',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: withYear,
        response: { 200: successEnvelope(seasonArchiveSchema) },
        description:
          'A past season for the signed-in tipper: their final overall row, My season numbers and final place in each of their leagues.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await archive.show(request.params.sport, row.id, request.params.year))
    },
  )

  app.get(
    '/api/:sport/seasons/:year/rankings',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: withYear,
        querystring: archivePageQuerySchema,
        response: { 200: successEnvelope(archiveRankingsResponseSchema) },
        description: "A past season's final overall rankings, a page at a time.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const { sport, year } = request.params
      return success(await archive.rankings(sport, row.id, year, request.query.page))
    },
  )

  app.get(
    '/api/:sport/seasons/:year/ladder',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: withYear,
        response: { 200: successEnvelope(archiveTeamLadderSchema) },
        description: "A past season's final team ladder.",
      },
    },
    async (request) => success(await archive.teamLadder(request.params.sport, request.params.year)),
  )

  app.get(
    '/api/:sport/seasons/:year/leagues/:id/ladder',
    {
      // A member of that season's league (or of a later one renewing it), or anyone for a public
      // one: the service checks, since the league is not the current season's.
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(archivedLeagueParamsSchema.shape),
        querystring: archivePageQuerySchema,
        response: { 200: successEnvelope(archivedLadderResponseSchema) },
        description: "A league's final ladder in a past season.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const { sport, year, id } = request.params
      return success(await archive.leagueLadder(sport, row.id, year, id, request.query.page))
    },
  )

  app.get(
    '/api/:sport/league/:id/history',
    {
      config: { policy: 'member' },
      schema: {
        tags,
        params: withLeague,
        response: { 200: successEnvelope(leagueHistoryResponseSchema) },
        description:
          "The league's past seasons (the leagues it was renewed from): each final ladder's champions and the caller's row.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await archive.history(request.params.sport, row.id, request.params.id))
    },
  )

  app.post(
    '/api/:sport/league/:id/renew',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: withLeague,
        body: renewLeagueBodySchema,
        response: { 200: successEnvelope(renewedLeagueResponseSchema) },
        description:
          "The commissioner renews a past season's league into the current season; its members are asked to join.",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const { sport, id } = request.params
      return success({ league: await archive.renew(sport, row.id, id, request.body) })
    },
  )

  app.get(
    '/api/:sport/league-renewals',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(renewalOffersResponseSchema) },
        description:
          'Renewed leagues the caller played in last season and has neither joined nor declined.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success(await archive.offers(request.params.sport, row.id))
    },
  )

  app.post(
    '/api/:sport/league-renewals/:id/accept',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: withLeague,
        response: { 200: successEnvelope(renewedLeagueResponseSchema) },
        description: 'Join a renewed league offered to the caller.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      const { sport, id } = request.params
      return success({ league: await archive.accept(sport, row.id, id) })
    },
  )

  app.post(
    '/api/:sport/league-renewals/:id/decline',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: withLeague,
        response: { 200: successEnvelope(okResponseSchema) },
        description: 'Decline a renewed league offered to the caller.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      await archive.decline(request.params.sport, row.id, request.params.id)
      return success({ ok: true as const })
    },
  )
}
