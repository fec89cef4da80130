import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Bulk member changes: POST /api/tipping_join/delete_multi and /api/tipping_join/edit_users.
let t: TestApp
type U = { cookie: string; id: number }
let boss: U, stranger: U, wbblOnly: U

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  boss = await registerUser(t.app)
  stranger = await registerUser(t.app)
  wbblOnly = await registerUser(t.app)
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_USER_WBBL'] })
    .where('id', '=', wbblOnly.id)
    .execute()
})
afterAll(() => t.close())

const post = (url: string, u: U | null, payload?: object) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: u ? { cookie: u.cookie } : {},
    ...(payload ? { payload } : {}),
  })

let leagues = 0
/** A league run by `boss` with `n` other members. */
async function leagueWith(n: number, privacy: 'private' | 'public' = 'private') {
  const league = (
    await post('/api/bbl/league', boss, {
      name: `Bulk League ${++leagues}`,
      privacy,
      startRound: 1,
    })
  ).json().success.league as { id: number; code: string }
  const members: U[] = []
  for (let i = 0; i < n; i++) {
    const u = await registerUser(t.app)
    await post(`/api/bbl/league/${league.code}/join`, u)
    members.push(u)
  }
  return { league, members }
}

const state = async (leagueId: number) => ({
  numUsers: (
    await t.db
      .selectFrom('leagues')
      .select('num_users')
      .where('id', '=', leagueId)
      .executeTakeFirstOrThrow()
  ).num_users,
  members: (
    await t.db
      .selectFrom('league_members')
      .select('user_id')
      .where('league_id', '=', leagueId)
      .orderBy('user_id')
      .execute()
  ).map((r) => r.user_id),
})

describe('delete_multi', () => {
  it('removes several members at once and keeps the count right', async () => {
    const { league, members } = await leagueWith(4)
    const gone = [members[0]!.id, members[2]!.id]
    const res = await post('/api/tipping_join/delete_multi', boss, {
      leagueId: league.id,
      userIds: gone,
    })
    expect(res.json()).toEqual({ success: { leagueId: league.id, removed: gone, numUser: 3 } })
    expect(await state(league.id)).toEqual({
      numUsers: 3,
      members: [boss.id, members[1]!.id, members[3]!.id].sort((a, b) => a - b),
    })
    // Removed members may rejoin by code.
    expect((await post(`/api/bbl/league/${league.code}/join`, members[0]!)).statusCode).toBe(200)
    expect((await state(league.id)).numUsers).toBe(4)
  })

  it('refuses the whole list when one entry is wrong, naming it, and changes nothing', async () => {
    const { league, members } = await leagueWith(3)
    const before = await state(league.id)
    const self = await post('/api/tipping_join/delete_multi', boss, {
      leagueId: league.id,
      userIds: [members[0]!.id, boss.id],
    })
    expect(self.statusCode).toBe(409)
    expect(self.json().errors[0]).toMatchObject({ code: 'CONFLICT', param: 'userIds.1' })
    const outsider = await post('/api/tipping_join/delete_multi', boss, {
      leagueId: league.id,
      userIds: [members[0]!.id, members[1]!.id, stranger.id],
    })
    expect(outsider.statusCode).toBe(404)
    expect(outsider.json().errors[0]).toMatchObject({ code: 'NOT_FOUND', param: 'userIds.2' })
    expect(await state(league.id)).toEqual(before)
  })

  it.each([
    [{ userIds: [] }, 'userIds'],
    [{ userIds: [5, 5] }, 'userIds'],
    [{ userIds: Array.from({ length: 101 }, (_, i) => i + 1) }, 'userIds'],
    [{ userIds: ['x'] }, 'userIds.0'],
    [{ leagueId: 0 }, 'leagueId'],
  ])('validates %j naming %s', async (body, param) => {
    const res = await post('/api/tipping_join/delete_multi', boss, {
      leagueId: 1,
      userIds: [2],
      ...body,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].param).toBe(param)
  })

  it('is for the commissioner only', async () => {
    const { league, members } = await leagueWith(2, 'public')
    const before = await state(league.id)
    const body = { leagueId: league.id, userIds: [members[1]!.id] }
    expect((await post('/api/tipping_join/delete_multi', null, body)).statusCode).toBe(401)
    expect((await post('/api/tipping_join/delete_multi', members[0]!, body)).statusCode).toBe(403)
    expect((await post('/api/tipping_join/delete_multi', stranger, body)).statusCode).toBe(403)
    expect((await post('/api/tipping_join/delete_multi', wbblOnly, body)).statusCode).toBe(513)
    expect(
      (await post('/api/tipping_join/delete_multi', boss, { ...body, leagueId: 999_999 }))
        .statusCode,
    ).toBe(404)
    expect(await state(league.id)).toEqual(before)
  })

  it('serialises with joins: concurrent removals and joins leave the count equal to the rows', async () => {
    const { league, members } = await leagueWith(6)
    const newcomers = await Promise.all([1, 2, 3].map(() => registerUser(t.app)))
    await Promise.all([
      post('/api/tipping_join/delete_multi', boss, {
        leagueId: league.id,
        userIds: members.slice(0, 3).map((m) => m.id),
      }),
      ...newcomers.map((u) => post(`/api/bbl/league/${league.code}/join`, u)),
      post('/api/tipping_join/delete_multi', boss, {
        leagueId: league.id,
        userIds: members.slice(3, 5).map((m) => m.id),
      }),
    ])
    const after = await state(league.id)
    expect(after.members).toHaveLength(1 + 1 + 3)
    expect(after.numUsers).toBe(after.members.length)
  })
})

describe('edit_users', () => {
  it('keeps and removes members as listed, all in one go', async () => {
    const { league, members } = await leagueWith(3)
    const res = await post('/api/tipping_join/edit_users', boss, {
      leagueId: league.id,
      users: [
        { userId: members[0]!.id, remove: true },
        { userId: members[1]!.id },
        { userId: boss.id, remove: false },
        { userId: members[2]!.id, remove: true },
      ],
    })
    expect(res.json()).toEqual({
      success: { leagueId: league.id, removed: [members[0]!.id, members[2]!.id], numUser: 2 },
    })
    expect(await state(league.id)).toEqual({
      numUsers: 2,
      members: [boss.id, members[1]!.id].sort((a, b) => a - b),
    })
  })

  it('follows delete_multi: no self-removal, members only, nothing changed on refusal', async () => {
    const { league, members } = await leagueWith(2)
    const before = await state(league.id)
    const self = await post('/api/tipping_join/edit_users', boss, {
      leagueId: league.id,
      users: [
        { userId: members[0]!.id, remove: true },
        { userId: boss.id, remove: true },
      ],
    })
    expect(self.statusCode).toBe(409)
    expect(self.json().errors[0].param).toBe('users.1.userId')
    const outsider = await post('/api/tipping_join/edit_users', boss, {
      leagueId: league.id,
      users: [{ userId: members[0]!.id, remove: true }, { userId: stranger.id }],
    })
    expect(outsider.statusCode).toBe(404)
    expect(outsider.json().errors[0].param).toBe('users.1.userId')
    const twice = await post('/api/tipping_join/edit_users', boss, {
      leagueId: league.id,
      users: [{ userId: members[0]!.id, remove: true }, { userId: members[0]!.id }],
    })
    expect(twice.statusCode).toBe(400)
    expect(twice.json().errors[0].param).toBe('users')
    expect(
      (
        await post('/api/tipping_join/edit_users', members[0]!, {
          leagueId: league.id,
          users: [{ userId: members[1]!.id, remove: true }],
        })
      ).statusCode,
    ).toBe(403)
    expect(await state(league.id)).toEqual(before)
  })
})
