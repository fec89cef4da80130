import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ladderFileSchema } from '@tipping/contract/static-files'
import Fastify from 'fastify'
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { REPO_ROOT } from '../src/config.ts'
import { adminRoutes } from '../src/modules/admin/routes.ts'
import type { AdminService } from '../src/modules/admin/service.ts'
import { grantAdmin } from '../src/modules/admin/users/service.ts'
import { hashPassword } from '../src/modules/auth/passwords.ts'
import { UNSUBSCRIBE_LINE } from '../src/modules/mail/unsubscribe.ts'
import {
  createTestApp,
  makeAdmin,
  loadSeasons,
  registerUser,
  sessionCookie,
  type TestApp,
  replaySeasonFile,
} from './helpers.ts'

const execFileAsync = promisify(execFile)

// The admin console's API: who may call it, what it refuses (naming the field), the audit row
// every change writes, and that results reach the tipping and team ladders.

// BBL|15 round 1 is matches 1-8 (2025-12-14 to 2025-12-21); the clock sits after it.
const NOW = new Date('2025-12-21T20:00:00Z')
let t: TestApp
let admin: { cookie: string; id: number; email: string }
let tipper: { cookie: string; id: number; email: string }
let bblId: number
const round1: { id: number; home: number; away: number; margin: boolean }[] = []

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  admin = await registerUser(t.app, { firstName: 'Ada', lastName: 'Admin' })
  await makeAdmin(t.db, admin.id)
  tipper = await registerUser(t.app, { firstName: 'Tilly', lastName: 'Tipper' })
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select([
      'matches.id',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'competitions.id as c',
    ])
    .where('competitions.sport', '=', 'bbl')
    .where('rounds.number', '=', 1)
    .orderBy('matches.number')
    .execute()
  bblId = rows[0]!.c
  for (const r of rows)
    round1.push({
      id: r.id,
      home: r.home_squad_id,
      away: r.away_squad_id,
      margin: r.is_margin_game,
    })
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: tipper.cookie },
    payload: {
      predictions: round1.map((m) => ({
        match: m.id,
        squad: m.home,
        margin: m.margin ? 10 : null,
      })),
    },
  })
  expect(res.statusCode).toBe(200)
  t.clock.set(NOW)
})
afterAll(() => t.close())

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  cookie: string | undefined = admin.cookie,
) =>
  t.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  })

const auditRows = (action: string) =>
  t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .execute()

const param = (res: { json(): { errors: { param: string | null }[] } }) =>
  res.json().errors[0]!.param

describe('who may call the console', () => {
  const routes: ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string, object?][] = [
    ['GET', '/api/admin/competitions'],
    ['POST', '/api/admin/competitions', { sport: 'bbl', season: 99, name: 'X', year: '2099' }],
    ['POST', '/api/admin/competitions/import', {}],
    ['PATCH', '/api/admin/competitions/1', { goldenWeekRound: 2 }],
    ['GET', '/api/admin/competitions/1/rounds'],
    ['POST', '/api/admin/competitions/1/rescore'],
    ['POST', '/api/admin/competitions/1/cricsheet', { files: [] }],
    ['POST', '/api/admin/publish'],
    ['PATCH', '/api/admin/rounds/1', { label: 'Week 1' }],
    ['PATCH', '/api/admin/matches/1', { venueId: 1 }],
    ['GET', '/api/admin/users'],
    ['PUT', '/api/admin/users/1/roles', { roles: [] }],
    ['POST', '/api/admin/users/1/deactivate'],
    ['POST', '/api/admin/users/1/reactivate'],
    ['GET', '/api/admin/leagues'],
    ['DELETE', '/api/admin/leagues/1'],
    ['GET', '/api/admin/emails'],
    ['POST', '/api/admin/emails/1/retry'],
    ['GET', '/api/admin/audit'],
  ]

  it.each(routes)('%s %s: 401 for a visitor, 403 for a tipper', async (method, url, body) => {
    const visitor = await call(method, url, body, '')
    expect(visitor.statusCode).toBe(401)
    const user = await call(method, url, body, tipper.cookie)
    expect(user.statusCode).toBe(403)
    expect(user.json().errors[0].code).toBe('FORBIDDEN')
  })

  it('declares the admin policy on every admin route', async () => {
    const probe = Fastify().withTypeProvider<ZodTypeProvider>()
    probe.setValidatorCompiler(validatorCompiler)
    probe.setSerializerCompiler(serializerCompiler)
    const seen: { url: string; policy: unknown }[] = []
    probe.addHook('onRoute', (r) => {
      if (r.method !== 'HEAD') seen.push({ url: r.url, policy: r.config?.policy })
    })
    adminRoutes(probe, { admin: {} as AdminService })
    await probe.ready()
    expect(seen.length).toBe(routes.length)
    for (const r of seen) expect(r, r.url).toEqual({ url: r.url, policy: 'admin' })
    await probe.close()
  })
})

describe('competitions and seasons', () => {
  it('lists both competitions with their counts', async () => {
    const res = await call('GET', '/api/admin/competitions')
    expect(res.statusCode).toBe(200)
    const bbl = res.json().success.competitions.find((c: { id: number }) => c.id === bblId)
    expect(bbl).toMatchObject({ sport: 'bbl', isCurrent: true, goldenWeekRound: 4, rounds: 8 })
    expect(bbl.matches).toBeGreaterThan(40)
  })

  it('creates a season, names a bad field, refuses a duplicate, and audits', async () => {
    const bad = await call('POST', '/api/admin/competitions', {
      sport: 'wbbl',
      season: 20,
      name: 'WBBL|20',
      year: 'next year',
    })
    expect(bad.statusCode).toBe(400)
    expect(param(bad)).toBe('year')
    const body = { sport: 'wbbl', season: 20, name: 'WBBL|20', year: '2034-35' }
    const ok = await call('POST', '/api/admin/competitions', body)
    expect(ok.statusCode).toBe(200)
    const c = ok.json().success.competition
    expect(c).toMatchObject({
      identifier: 'xyz-wbbl-20',
      isCurrent: false,
      ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
      rounds: 0,
    })
    const again = await call('POST', '/api/admin/competitions', body)
    expect(again.statusCode).toBe(409)
    expect(param(again)).toBe('season')
    const [row] = await auditRows('competition.create')
    expect(row).toMatchObject({
      actor_user_id: admin.id,
      entity: 'competition',
      entity_id: String(c.id),
    })
    expect(row!.data).toMatchObject({ identifier: 'xyz-wbbl-20' })
  })

  // The one-current index is checked row by row: setting every row of the sport in one statement
  // failed whenever the new current row came before the old one on disk (a 500 switching back).
  it('switches the current season back and forth, one current season at a time', async () => {
    const made = await call('POST', '/api/admin/competitions', {
      sport: 'wbbl',
      season: 21,
      name: 'WBBL|21',
      year: '2035-36',
    })
    const other = made.json().success.competition.id as number
    const real = (await call('GET', '/api/admin/competitions'))
      .json()
      .success.competitions.find(
        (c: { sport: string; isCurrent: boolean }) => c.sport === 'wbbl' && c.isCurrent,
      ).id as number
    for (const id of [other, real, other, real, other, real]) {
      const res = await call('PATCH', `/api/admin/competitions/${id}`, { isCurrent: true })
      expect(res.statusCode, res.body).toBe(200)
      const all = (await call('GET', '/api/admin/competitions')).json().success.competitions
      expect(
        all.filter((c: { sport: string; isCurrent: boolean }) => c.sport === 'wbbl' && c.isCurrent),
      ).toEqual([expect.objectContaining({ id })])
    }
  })

  it('moves Golden Week only between rounds not yet played, and re-scores', async () => {
    const started = await call('PATCH', `/api/admin/competitions/${bblId}`, { goldenWeekRound: 1 })
    expect(started.statusCode).toBe(409)
    expect(param(started)).toBe('goldenWeekRound')
    const missing = await call('PATCH', `/api/admin/competitions/${bblId}`, { goldenWeekRound: 30 })
    expect(missing.statusCode).toBe(400)
    expect(param(missing)).toBe('goldenWeekRound')
    const empty = await call('PATCH', `/api/admin/competitions/${bblId}`, {})
    expect(empty.statusCode).toBe(400)
    const moved = await call('PATCH', `/api/admin/competitions/${bblId}`, {
      goldenWeekRound: 5,
      ladderPoints: { win: 4, noResult: 2, tie: 2, loss: 0 },
    })
    expect(moved.statusCode).toBe(200)
    expect(moved.json().success.competition).toMatchObject({
      goldenWeekRound: 5,
      ladderPoints: { win: 4, noResult: 2, tie: 2, loss: 0 },
    })
    const [row] = await auditRows('competition.settings')
    expect(row!.data).toMatchObject({
      before: { goldenWeekRound: 4 },
      after: { goldenWeekRound: 5 },
    })
    // Back as it was, so the ladder checks below use the real points.
    const back = await call('PATCH', `/api/admin/competitions/${bblId}`, {
      goldenWeekRound: 4,
      ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
    })
    expect(back.statusCode).toBe(200)
  })
})

describe('rounds and matches', () => {
  const rounds = async () =>
    (await call('GET', `/api/admin/competitions/${bblId}/rounds`)).json().success

  it('lists rounds with their matches, status by the clock and what may change', async () => {
    const r = await rounds()
    expect(r.rounds).toHaveLength(8)
    expect(r.squads.length).toBeGreaterThanOrEqual(8)
    const [first, second] = r.rounds
    expect(first.status).not.toBe('scheduled')
    expect(first.matches[0]).toMatchObject({ status: 'active', editable: { startsAt: false } })
    expect(second.status).toBe('scheduled')
    expect(second.matches[0].editable).toEqual({ startsAt: true, venue: true, marginGame: true })
    expect(r.rounds.find((x: { isGoldenWeek: boolean }) => x.isGoldenWeek).number).toBe(4)
  })

  it('refuses moving a started match or into the past, naming the field', async () => {
    const r = await rounds()
    const started = r.rounds[0].matches[0].id
    const res = await call('PATCH', `/api/admin/matches/${started}`, {
      startsAt: '2026-01-30T08:00:00Z',
    })
    expect(res.statusCode).toBe(409)
    expect(param(res)).toBe('startsAt')
    const future = r.rounds[1].matches[0].id
    const past = await call('PATCH', `/api/admin/matches/${future}`, {
      startsAt: '2025-12-20T08:00:00Z',
    })
    expect(past.statusCode).toBe(400)
    expect(param(past)).toBe('startsAt')
    const notADate = await call('PATCH', `/api/admin/matches/${future}`, { startsAt: 'tomorrow' })
    expect(notADate.statusCode).toBe(400)
    expect(param(notADate)).toBe('startsAt')
    const venue = await call('PATCH', `/api/admin/matches/${future}`, { venueId: 99999 })
    expect(venue.statusCode).toBe(400)
    expect(param(venue)).toBe('venueId')
    const none = await call('PATCH', '/api/admin/matches/999999', { venueId: 1 })
    expect(none.statusCode).toBe(404)
  })

  it('moves a future match, changes its venue, audits, and republishes', async () => {
    const r = await rounds()
    const m = r.rounds[1].matches[0]
    const venue = r.venues.find((v: { id: number }) => v.id !== m.venueId).id
    const res = await call('PATCH', `/api/admin/matches/${m.id}`, {
      startsAt: '2025-12-22T09:45:00+11:00',
      venueId: venue,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().success.match).toMatchObject({
      startsAt: '2025-12-21T22:45:00.000Z',
      venueId: venue,
    })
    const [row] = await auditRows('match.update')
    expect(row).toMatchObject({ actor_user_id: admin.id, entity_id: String(m.id) })
    expect(row!.data).toMatchObject({ before: { startsAt: m.startsAt, venueId: m.venueId } })
    const published = JSON.parse(fs.readFileSync(path.join(t.staticDir, 'bbl/rounds.json'), 'utf8'))
    expect(JSON.stringify(published)).toContain('2025-12-21T22:45:00.000Z')
  })

  it('hands the margin game to another match of an unplayed round only', async () => {
    const r = await rounds()
    const played = r.rounds[0].matches.find((m: { isMarginGame: boolean }) => !m.isMarginGame)
    const refused = await call('PATCH', `/api/admin/matches/${played.id}`, { isMarginGame: true })
    expect(refused.statusCode).toBe(409)
    expect(param(refused)).toBe('isMarginGame')
    const unset = await call('PATCH', `/api/admin/matches/${played.id}`, { isMarginGame: false })
    expect(unset.statusCode).toBe(400)
    expect(param(unset)).toBe('isMarginGame')
    const round2 = r.rounds[1].matches
    const oldMargin = round2.find((m: { isMarginGame: boolean }) => m.isMarginGame)
    const next = round2.find((m: { isMarginGame: boolean }) => !m.isMarginGame)
    const res = await call('PATCH', `/api/admin/matches/${next.id}`, { isMarginGame: true })
    expect(res.statusCode).toBe(200)
    const after = (await rounds()).rounds[1].matches
    expect(
      after
        .filter((m: { isMarginGame: boolean }) => m.isMarginGame)
        .map((m: { id: number }) => m.id),
    ).toEqual([next.id])
    const [row] = await auditRows('match.update')
    expect(row!.data).toMatchObject({ before: { marginGame: [oldMargin.id] } })
  })

  it('renames a round', async () => {
    const r = await rounds()
    const res = await call('PATCH', `/api/admin/rounds/${r.rounds[7].id}`, { label: 'Week Eight' })
    expect(res.statusCode).toBe(200)
    expect(res.json().success.round).toMatchObject({ number: 8, label: 'Week Eight' })
    const blank = await call('PATCH', `/api/admin/rounds/${r.rounds[7].id}`, { label: '  ' })
    expect(blank.statusCode).toBe(400)
    expect(param(blank)).toBe('label')
    expect((await auditRows('round.update')).length).toBe(1)
  })
})

describe('results', () => {
  it('a result entered moves the tipper and the team ladder; re-score and re-publish work', async () => {
    const m = round1[0]!
    const res = await call('POST', `/api/admin/bbl/matches/${m.id}/result`, {
      outcome: 'win',
      winnerSquadId: m.home,
      home: { runs: 180, wickets: 5, overs: '20' },
      away: { runs: 150, wickets: 9, overs: '20' },
      sixes: null,
    })
    expect(res.statusCode).toBe(200)
    const standing = await t.db
      .selectFrom('standings')
      .select(['total_points', 'rank'])
      .where('user_id', '=', tipper.id)
      .where('competition_id', '=', bblId)
      .executeTakeFirstOrThrow()
    expect(standing.total_points).toBeGreaterThan(0)
    const ladder = ladderFileSchema.parse(
      JSON.parse(fs.readFileSync(path.join(t.staticDir, 'bbl/ladder.json'), 'utf8')),
    )
    expect(ladder.ladder.find((row) => row.squadId === m.home)).toMatchObject({ won: 1, points: 2 })

    // Someone edits the scores behind the app's back; re-score puts them right.
    await t.db
      .updateTable('standings')
      .set({ total_points: 0 })
      .where('user_id', '=', tipper.id)
      .execute()
    const rescore = await call('POST', `/api/admin/competitions/${bblId}/rescore`)
    expect(rescore.statusCode).toBe(200)
    expect(rescore.json().success).toMatchObject({ rounds: 8 })
    expect(rescore.json().success.tippers).toBeGreaterThanOrEqual(1)
    const fixed = await t.db
      .selectFrom('standings')
      .select('total_points')
      .where('user_id', '=', tipper.id)
      .where('competition_id', '=', bblId)
      .executeTakeFirstOrThrow()
    expect(fixed.total_points).toBe(standing.total_points)
    expect((await auditRows('competition.rescore'))[0]!.actor_user_id).toBe(admin.id)

    fs.rmSync(path.join(t.staticDir, 'bbl/ladder.json'))
    const publish = await call('POST', '/api/admin/publish')
    expect(publish.statusCode).toBe(200)
    expect(publish.json().success.files).toBeGreaterThan(5)
    expect(fs.existsSync(path.join(t.staticDir, 'bbl/ladder.json'))).toBe(true)
    expect((await auditRows('static.publish')).length).toBe(1)
    expect((await auditRows('result.set'))[0]!.actor_user_id).toBe(admin.id)
  })

  it('refuses an empty Cricsheet upload, naming files', async () => {
    const res = await call('POST', `/api/admin/competitions/${bblId}/cricsheet`, { files: [] })
    expect(res.statusCode).toBe(400)
    expect(param(res)).toBe('files')
  })
})

describe('users', () => {
  it('searches by name or email, paged', async () => {
    for (let i = 0; i < 26; i++)
      await registerUser(t.app, { firstName: 'Paged', lastName: `P${i}` })
    const first = await call('GET', '/api/admin/users?search=paged')
    expect(first.statusCode).toBe(200)
    expect(first.json().success.users).toHaveLength(25)
    expect(first.json().success.nextPage).toBe(2)
    const second = await call('GET', '/api/admin/users?search=paged&page=2')
    expect(second.json().success.users).toHaveLength(1)
    expect(second.json().success.nextPage).toBeNull()
    const byEmail = await call('GET', `/api/admin/users?search=${encodeURIComponent(tipper.email)}`)
    expect(byEmail.json().success.users.map((u: { id: number }) => u.id)).toEqual([tipper.id])
    const byName = await call('GET', '/api/admin/users?search=tilly%20tip')
    expect(byName.json().success.users[0]).toMatchObject({ id: tipper.id, firstName: 'Tilly' })
    const badPage = await call('GET', '/api/admin/users?page=0')
    expect(badPage.statusCode).toBe(400)
    expect(param(badPage)).toBe('page')
  })

  it('changes roles, refuses an unknown role and dropping its own admin role', async () => {
    const bad = await call('PUT', `/api/admin/users/${tipper.id}/roles`, { roles: ['ROLE_KING'] })
    expect(bad.statusCode).toBe(400)
    expect(param(bad)).toMatch(/^roles/)
    const self = await call('PUT', `/api/admin/users/${admin.id}/roles`, {
      roles: ['ROLE_USER_BBL'],
    })
    expect(self.statusCode).toBe(409)
    // Takes effect on the tipper's next request although their session was just resolved.
    const wbbl = () => call('GET', '/api/wbbl/user', undefined, tipper.cookie)
    expect((await wbbl()).statusCode).toBe(200)
    const narrowed = await call('PUT', `/api/admin/users/${tipper.id}/roles`, {
      roles: ['ROLE_USER_BBL'],
    })
    expect(narrowed.statusCode).toBe(200)
    expect((await wbbl()).statusCode).toBe(513)
    const ok = await call('PUT', `/api/admin/users/${tipper.id}/roles`, {
      roles: ['ROLE_USER_BBL', 'ROLE_USER_WBBL'],
    })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().success.user.roles).toEqual(['ROLE_USER_BBL', 'ROLE_USER_WBBL'])
    const [row] = await auditRows('user.roles')
    expect(row).toMatchObject({ entity_id: String(tipper.id), actor_user_id: admin.id })
  })

  it('deactivates (ending sessions and sign-in) and reactivates', async () => {
    const victim = await registerUser(t.app, { firstName: 'Gone' })
    expect((await call('GET', '/api/bbl/user', undefined, victim.cookie)).statusCode).toBe(200)
    const self = await call('POST', `/api/admin/users/${admin.id}/deactivate`)
    expect(self.statusCode).toBe(409)
    const res = await call('POST', `/api/admin/users/${victim.id}/deactivate`)
    expect(res.statusCode).toBe(200)
    expect(res.json().success.user.deactivatedAt).not.toBeNull()
    expect((await call('GET', '/api/bbl/user', undefined, victim.cookie)).statusCode).toBe(401)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: victim.email, password: 'correct horse battery' },
    })
    expect(login.statusCode).toBe(401)
    const [row] = await auditRows('user.deactivate')
    expect(row!.data).toMatchObject({ sessionsRevoked: 1 })
    const back = await call('POST', `/api/admin/users/${victim.id}/reactivate`)
    expect(back.json().success.user.deactivatedAt).toBeNull()
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: victim.email, password: 'correct horse battery' },
    })
    expect(again.statusCode).toBe(200)
    expect((await call('POST', '/api/admin/users/999999/deactivate')).statusCode).toBe(404)
  })
})

describe('leagues', () => {
  it('searches leagues and removes one', async () => {
    const made = await call(
      'POST',
      '/api/bbl/league',
      { name: 'Spam Kings League', privacy: 'public', startRound: 2 },
      tipper.cookie,
    )
    expect(made.statusCode).toBe(200)
    const id = made.json().success.league.id
    const found = await call('GET', '/api/admin/leagues?search=spam%20kings')
    expect(found.statusCode).toBe(200)
    expect(found.json().success.leagues).toEqual([
      expect.objectContaining({
        id,
        sport: 'bbl',
        numUsers: 1,
        commissioner: expect.objectContaining({ id: tipper.id }),
      }),
    ])
    const badSport = await call('GET', '/api/admin/leagues?sport=afl')
    expect(badSport.statusCode).toBe(400)
    expect(param(badSport)).toBe('sport')
    const removed = await call('DELETE', `/api/admin/leagues/${id}`)
    expect(removed.statusCode).toBe(200)
    expect(
      (await call('GET', '/api/admin/leagues?search=spam%20kings')).json().success.leagues,
    ).toEqual([])
    expect((await call('GET', `/api/bbl/league/${id}`, undefined, tipper.cookie)).statusCode).toBe(
      404,
    )
    const [row] = await auditRows('league.remove')
    expect(row!.data).toMatchObject({ name: 'Spam Kings League' })
    expect((await call('DELETE', `/api/admin/leagues/${id}`)).statusCode).toBe(404)
  })
})

describe('email outbox', () => {
  it('lists by status and retries a failed email only', async () => {
    const [failed, sent] = await t.db
      .insertInto('email_outbox')
      .values([
        {
          kind: 'invitation',
          to_address: 'a@example.com',
          subject: 'Join',
          text_body: 'x',
          attempts: 5,
          error: '550 no such user',
          failed_at: NOW,
        },
        {
          kind: 'invitation',
          to_address: 'b@example.com',
          subject: 'Join',
          text_body: 'x',
          sent_at: NOW,
        },
      ])
      .returning(['id'])
      .execute()
    const list = await call('GET', '/api/admin/emails?status=failed')
    expect(list.statusCode).toBe(200)
    expect(list.json().success.emails).toEqual([
      expect.objectContaining({
        id: String(failed!.id),
        status: 'failed',
        error: '550 no such user',
      }),
    ])
    expect((await call('GET', '/api/admin/emails?status=bogus')).statusCode).toBe(400)
    const refused = await call('POST', `/api/admin/emails/${sent!.id}/retry`)
    expect(refused.statusCode).toBe(409)
    const badId = await call('POST', '/api/admin/emails/abc/retry')
    expect(badId.statusCode).toBe(400)
    expect(param(badId)).toBe('id')
    const retry = await call('POST', `/api/admin/emails/${failed!.id}/retry`)
    expect(retry.statusCode).toBe(200)
    expect(retry.json().success.email).toMatchObject({ status: 'pending', attempts: 0 })
    const pending = await call('GET', '/api/admin/emails?status=pending')
    expect(pending.json().success.emails.map((e: { id: string }) => e.id)).toContain(
      String(failed!.id),
    )
    expect((await auditRows('email.retry'))[0]!.entity_id).toBe(String(failed!.id))
  })

  it("shows each email's subject and text body, never its HTML, and no reset link's token", async () => {
    const [contact] = await t.db
      .insertInto('email_outbox')
      .values({
        kind: 'contact',
        to_address: 'support@example.com',
        subject: 'Contact form',
        text_body: 'Line one\n> <b>quoted</b> & kept as typed',
        html_body: '<p>Line one</p><script>alert(1)</script>',
      })
      .returning(['id'])
      .execute()
    // A list email as queued: its footer's slot is filled per recipient when it is sent.
    const [reminder] = await t.db
      .insertInto('email_outbox')
      .values({
        kind: 'weekly_reminder',
        to_address: tipper.email,
        user_id: tipper.id,
        subject: 'Tip round 2',
        text_body: `Your tips are due.\n\n${UNSUBSCRIBE_LINE.text}`,
        html_body: `<p>Your tips are due.</p><p>${UNSUBSCRIBE_LINE.html}</p>`,
      })
      .returning(['id'])
      .execute()
    // A real reset email, through the route a tipper uses.
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password_reset/request',
      payload: { email: tipper.email },
    })
    expect(asked.statusCode).toBe(200)
    const row = await t.db
      .selectFrom('email_outbox')
      .select(['id', 'text_body'])
      .where('kind', '=', 'password_reset')
      .where('to_address', '=', tipper.email)
      .executeTakeFirstOrThrow()
    const token = /token=([^\s&]+)/.exec(row.text_body)![1]!
    expect(token.length).toBeGreaterThan(10)

    const list = await call('GET', '/api/admin/emails?status=pending')
    expect(list.statusCode).toBe(200)
    const emails: { id: string; subject: string; text: string }[] = list.json().success.emails
    expect(emails.find((e) => e.id === String(contact!.id))).toMatchObject({
      subject: 'Contact form',
      text: 'Line one\n> <b>quoted</b> & kept as typed',
    })
    expect(list.body).not.toContain('<script>')
    expect(emails.find((e) => e.id === String(reminder!.id))!.text).toBe(
      "Your tips are due.\n\nUnsubscribe in one click: (the recipient's own one-click link, added as it is sent)",
    )
    expect(list.body).not.toContain('{{unsubscribe}}')
    const reset = emails.find((e) => e.id === String(row.id))!
    expect(reset.subject).toBe('Reset your Big Bash Tipping password')
    expect(reset.text).toContain('/reset-password?token=(hidden)')
    expect(reset.text).toContain('The link works once')
    expect(list.body).not.toContain(token)
  })
})

describe('audit log', () => {
  it('lists every change newest first, filtered by actor and kind', async () => {
    const all = await call('GET', '/api/admin/audit')
    expect(all.statusCode).toBe(200)
    const entries = all.json().success.entries
    expect(entries.length).toBeGreaterThan(5)
    expect(entries[0]).toMatchObject({ actor: { id: admin.id, email: admin.email } })
    expect(Date.parse(entries[0].at)).toBeGreaterThanOrEqual(Date.parse(entries[1].at))
    const users = await call('GET', '/api/admin/audit?kind=user.')
    const actions = users.json().success.entries.map((e: { action: string }) => e.action)
    expect(actions.length).toBeGreaterThanOrEqual(3)
    expect(actions.every((a: string) => a.startsWith('user.'))).toBe(true)
    const byEmail = await call('GET', `/api/admin/audit?actor=${encodeURIComponent(admin.email)}`)
    expect(byEmail.json().success.entries.length).toBe(entries.length)
    const byOther = await call('GET', `/api/admin/audit?actor=${tipper.id}`)
    expect(byOther.json().success.entries).toEqual([])
    const badKind = await call('GET', '/api/admin/audit?kind=DROP%20TABLE')
    expect(badKind.statusCode).toBe(400)
    expect(param(badKind)).toBe('kind')
  })
})

describe('fixture and Cricsheet imports', () => {
  it('imports a fixture file, counts changes on a second import, then completes it from Cricsheet', async () => {
    const dir = path.join(REPO_ROOT, 'data/source/cricsheet/bbl-2023-24')
    const files = ['1386094.json', '1386095.json'].map((f) =>
      JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')),
    )
    const season = await replaySeasonFile(
      [
        { date: '2023-12-07', teams: ['Brisbane Heat', 'Melbourne Stars'] },
        { date: '2023-12-08', teams: ['Sydney Sixers', 'Melbourne Renegades'] },
        { date: '2023-12-09', teams: ['Adelaide Strikers', 'Perth Scorchers'] },
      ],
      2,
    )
    const broken = await call('POST', '/api/admin/competitions/import', { ...season, rounds: 'x' })
    expect(broken.statusCode).toBe(400)
    expect(param(broken)).toBe('rounds')
    const first = await call('POST', '/api/admin/competitions/import', season)
    expect(first.statusCode).toBe(200)
    expect(first.json().success).toMatchObject({ added: 3, changed: 0 })
    const c = first.json().success.competition
    expect(c).toMatchObject({ season: 13, isCurrent: true, matches: 3 })
    season.rounds[0]!.matches[2]!.startsAt = '2023-12-09T09:15:00Z'
    const second = await call('POST', '/api/admin/competitions/import', season)
    expect(second.json().success).toMatchObject({ added: 0, changed: 1 })
    expect((await auditRows('competition.import')).length).toBe(2)

    const imported = await call('POST', `/api/admin/competitions/${c.id}/cricsheet`, {
      files: [...files, { ...files[0], info: { ...files[0].info, dates: ['2023-11-01'] } }],
    })
    expect(imported.statusCode).toBe(200)
    const out = imported.json().success
    expect(out.applied.map((a: { number: number }) => a.number)).toEqual([1, 2])
    expect(out.unmatched).toEqual([
      { date: '2023-11-01', teams: ['Brisbane Heat', 'Melbourne Stars'] },
    ])
    const rounds = (await call('GET', `/api/admin/competitions/${c.id}/rounds`)).json().success
    const [m1] = rounds.rounds[0].matches
    expect(m1).toMatchObject({ status: 'complete', editable: { startsAt: false, venue: false } })
    expect(m1.result.outcome).toBeDefined()
    expect((await auditRows('results.cricsheet'))[0]!.data).toMatchObject({ applied: [1, 2] })

    // Back to the real season for anything after.
    const current = await call('PATCH', `/api/admin/competitions/${bblId}`, { isCurrent: true })
    expect(current.json().success.competition.isCurrent).toBe(true)
  })
})

describe('making an admin outside the console', () => {
  it('promotes an existing account once, creates a missing one, and audits both', async () => {
    const someone = await registerUser(t.app, { firstName: 'Promo' })
    let hashed = 0
    const input = (email: string) => ({
      email,
      now: NOW,
      passwordHash: async () => {
        hashed++
        return hashPassword('a long password')
      },
    })
    const first = await grantAdmin(t.db, input(someone.email.toUpperCase()))
    expect(first).toEqual({ userId: someone.id, created: false, changed: true })
    expect(await grantAdmin(t.db, input(someone.email))).toEqual({
      userId: someone.id,
      created: false,
      changed: false,
    })
    expect(hashed).toBe(0)
    const made = await grantAdmin(t.db, input('new-admin@example.com'))
    expect(made).toMatchObject({ created: true, changed: true })
    expect(await grantAdmin(t.db, input('new-admin@example.com'))).toMatchObject({
      created: false,
      changed: false,
    })
    expect(hashed).toBe(1)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new-admin@example.com', password: 'a long password' },
    })
    expect(login.statusCode).toBe(200)
    const users = await call(
      'GET',
      '/api/admin/users?search=new-admin',
      undefined,
      sessionCookie(login),
    )
    expect(users.json().success.users[0].roles).toContain('ROLE_ADMIN')
    const created = await auditRows('user.create')
    expect(created[0]).toMatchObject({ actor_user_id: null, entity_id: String(made.userId) })
  })

  it('npm run admin:create creates an account with ADMIN_PASSWORD and is idempotent', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-create-'))
    // Always PGlite in a directory of its own, never a shared PostgreSQL.
    const { DATABASE_URL: _url, ...env } = process.env
    const run = () =>
      execFileAsync(
        process.execPath,
        ['--import', 'tsx', 'packages/server/src/cli/admin-create.ts', 'cli-admin@example.com'],
        {
          cwd: REPO_ROOT,
          env: {
            ...env,
            PGLITE_DIR: path.join(dir, 'db'),
            STATIC_DIR: path.join(dir, 'static'),
            ADMIN_PASSWORD: 'cli password 1',
          },
        },
      )
    try {
      expect((await run()).stdout).toMatch(/Created admin account cli-admin@example.com/)
      expect((await run()).stdout).toMatch(/already an admin; nothing changed/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
