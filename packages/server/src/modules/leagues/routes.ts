import { okResponseSchema } from '@tipping/contract/auth'
import { successEnvelope } from '@tipping/contract/errors'
import {
  bulkMembersResponseSchema,
  createLeagueBodySchema,
  deleteMultiBodySchema,
  editUsersBodySchema,
  handOverBodySchema,
  inviteBodySchema,
  inviteResponseSchema,
  joinedUsersResponseSchema,
  leagueHonoursResponseSchema,
  leagueCodeParamsSchema,
  leagueIdParamsSchema,
  leagueListResponseSchema,
  leagueResponseSchema,
  pageQuerySchema,
  removeMemberParamsSchema,
  sendEmailsBodySchema,
  sendEmailsResponseSchema,
  showForJoinQuerySchema,
  updateLeagueBodySchema,
} from '@tipping/contract/leagues'
import { leagueLadderResponseSchema, rankingsQuerySchema } from '@tipping/contract/scores'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { LeaguesService } from './service.ts'

export function leaguesRoutes(app: App, deps: { leagues: LeaguesService }): void {
  const { leagues } = deps
  const tags = ['leagues']
  const withId = sportParamsSchema.extend(leagueIdParamsSchema.shape)
  const ok = { 200: successEnvelope(okResponseSchema) }
  // The route's policy let in a user registered for the sport (route-policy.ts); whether that
  // user belongs to or owns the league is the service's check.

  app.post(
    '/api/:sport/league',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: createLeagueBodySchema,
        response: { 200: successEnvelope(leagueResponseSchema) },
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success({ league: await leagues.create(request.params.sport, id, request.body) })
    },
  )

  app.get(
    '/api/:sport/leagues',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(leagueListResponseSchema) },
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(await leagues.own(request.params.sport, id, request.query.page))
    },
  )

  app.get(
    '/api/:sport/league/show-for-join',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        querystring: showForJoinQuerySchema,
        response: { 200: successEnvelope(leagueListResponseSchema) },
        description: 'Find a league by its join code, or public leagues by name.',
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(await leagues.showForJoin(request.params.sport, id, request.query))
    },
  )

  app.get(
    '/api/:sport/league/:id',
    {
      config: { policy: 'member' },
      schema: { tags, params: withId, response: { 200: successEnvelope(leagueResponseSchema) } },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success({ league: await leagues.show(request.params.sport, id, request.params.id) })
    },
  )

  app.post(
    '/api/:sport/league/:id',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: withId,
        body: updateLeagueBodySchema,
        response: { 200: successEnvelope(leagueResponseSchema) },
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success({
        league: await leagues.update(request.params.sport, id, request.params.id, request.body),
      })
    },
  )

  app.post(
    '/api/:sport/league/:id/delete',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: withId,
        response: ok,
        description: 'Remove a league (commissioner, before it starts).',
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      await leagues.remove(request.params.sport, id, request.params.id)
      return success({ ok: true as const })
    },
  )

  app.post(
    '/api/:sport/league/:code/join',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema.extend(leagueCodeParamsSchema.shape),
        response: { 200: successEnvelope(leagueResponseSchema) },
        description: 'Join by code; joining twice changes nothing.',
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success({ league: await leagues.join(request.params.sport, id, request.params.code) })
    },
  )

  app.post(
    '/api/:sport/league/:id/leave',
    { config: { policy: 'member' }, schema: { tags, params: withId, response: ok } },
    async (request) => {
      const id = callerOf(request).row.id
      await leagues.leave(request.params.sport, id, request.params.id)
      return success({ ok: true as const })
    },
  )

  app.post(
    '/api/:sport/league/:id/commissioner',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: withId,
        body: handOverBodySchema,
        response: { 200: successEnvelope(leagueResponseSchema) },
        description:
          'Hand the league to another active member, who becomes its commissioner (commissioner).',
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success({
        league: await leagues.handOver(
          request.params.sport,
          id,
          request.params.id,
          request.body.userId,
        ),
      })
    },
  )

  app.get(
    '/api/:sport/league/:id/user/show-joined',
    {
      config: { policy: 'member' },
      schema: {
        tags,
        params: withId,
        querystring: pageQuerySchema,
        response: { 200: successEnvelope(joinedUsersResponseSchema) },
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(
        await leagues.joinedUsers(request.params.sport, id, request.params.id, request.query.page),
      )
    },
  )

  app.post(
    '/api/:sport/league/:id/user/:userId',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: sportParamsSchema.extend(removeMemberParamsSchema.shape),
        response: ok,
        description: 'Remove a member (commissioner).',
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      await leagues.removeMember(request.params.sport, id, request.params.id, request.params.userId)
      return success({ ok: true as const })
    },
  )

  app.post(
    '/api/:sport/league/:id/invite',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: withId,
        body: inviteBodySchema,
        response: { 200: successEnvelope(inviteResponseSchema) },
        description:
          'Email an invitation with the join link to up to 50 addresses (commissioner; hourly quota).',
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(
        await leagues.invite(request.params.sport, id, request.params.id, request.body),
      )
    },
  )

  app.post(
    '/api/:sport/league/send_emails',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: sendEmailsBodySchema,
        response: { 200: successEnvelope(sendEmailsResponseSchema) },
        description: "Email a message to every member of the commissioner's league (hourly quota).",
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(await leagues.sendEmails(request.params.sport, id, request.body))
    },
  )

  app.post(
    '/api/tipping_join/delete_multi',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        body: deleteMultiBodySchema,
        response: { 200: successEnvelope(bulkMembersResponseSchema) },
        description: 'Remove several members of one league at once (commissioner; all or nothing).',
      },
    },
    async (request) => {
      const u = callerOf(request)
      return success(await leagues.deleteMembers(u.row.id, u.row.roles, request.body))
    },
  )

  app.post(
    '/api/tipping_join/edit_users',
    {
      config: { policy: 'commissioner' },
      schema: {
        tags,
        body: editUsersBodySchema,
        response: { 200: successEnvelope(bulkMembersResponseSchema) },
        description:
          'Keep or remove each listed member of one league (commissioner; all or nothing).',
      },
    },
    async (request) => {
      const u = callerOf(request)
      return success(await leagues.editMembers(u.row.id, u.row.roles, request.body))
    },
  )

  app.get(
    '/api/:sport/rankings/:id/rankings',
    {
      config: { policy: 'member' },
      schema: {
        tags,
        params: withId,
        querystring: rankingsQuerySchema.omit({ search: true }),
        response: { 200: successEnvelope(leagueLadderResponseSchema) },
        description: "A league's ladder: overall from its start week, or one week.",
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(
        await leagues.ladder(request.params.sport, id, request.params.id, request.query),
      )
    },
  )

  app.get(
    '/api/:sport/league/:id/honours',
    {
      config: { policy: 'member' },
      schema: {
        tags,
        params: withId,
        response: { 200: successEnvelope(leagueHonoursResponseSchema) },
        description:
          "A league's round honours (each completed week's first, from its start week) and the points still to play for.",
      },
    },
    async (request) => {
      const id = callerOf(request).row.id
      return success(await leagues.honours(request.params.sport, id, request.params.id))
    },
  )
}
