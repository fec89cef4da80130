import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Leagues on the BBL|15 fixture, before the season (round 1 starts 2025-12-14).
let t: TestApp
type U = { cookie: string; id: number }
let boss: U, member: U, stranger: U, admin: U

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  boss = await registerUser(t.app, { firstName: 'Bo', lastName: 'Commish', team_name: 'Bosses' })
  member = await registerUser(t.app, { firstName: 'Mem', lastName: 'Ber' })
  stranger = await registerUser(t.app, { firstName: 'Stran', lastName: 'Ger' })
  admin = await registerUser(t.app)
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN', 'ROLE_USER_BBL', 'ROLE_USER_WBBL'] })
    .where('id', '=', admin.id)
    .execute()
})
afterAll(() => t.close())

const post = (url: string, u: U | null, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: u ? { cookie: u.cookie } : {}, payload })
const get = (url: string, u: U | null) =>
  t.app.inject({ url, headers: u ? { cookie: u.cookie } : {} })
const create = (u: U, body: object) =>
  post('/api/bbl/league', u, { name: 'Office Legends', privacy: 'private', startRound: 1, ...body })

describe('creating and finding leagues', () => {
  it('creates a league with its commissioner as first member and a hard-to-guess code', async () => {
    const res = await create(boss, { description: 'Desk tippers' })
    expect(res.statusCode).toBe(200)
    const league = res.json().success.league
    expect(league).toMatchObject({
      name: 'Office Legends',
      userId: boss.id,
      numUser: 1,
      isCommissioner: true,
      isMember: true,
      status: 'scheduled',
      privacy: 'private',
      startRound: 1,
    })
    expect(league.code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/)
  })

  it.each([
    [{ name: 'ab' }, 'name'],
    [{ name: 'x'.repeat(51) }, 'name'],
    [{ description: 'd'.repeat(201) }, 'description'],
    [{ privacy: 'secret' }, 'privacy'],
    [{ startRound: 99 }, 'startRound'],
  ])('refuses %j naming %s', async (body, param) => {
    const res = await create(boss, body)
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].param).toBe(param)
  })

  it('makes one league for a create sent again with its request id, however concurrently (decision 049)', async () => {
    const requestId = '0b8f5a3e-6c1d-4f2a-9e7b-3d4c5b6a7f80'
    const body = { name: 'Sent Twice', requestId }
    const first = await create(boss, body)
    expect(first.statusCode).toBe(200)
    const league = first.json().success.league
    // Once after the first answered, then four at once (the insert race on the key's index).
    const again = [
      await create(boss, body),
      ...(await Promise.all([1, 2, 3, 4].map(() => create(boss, body)))),
    ]
    for (const res of again) {
      expect(res.statusCode).toBe(200)
      expect(res.json().success.league).toMatchObject({
        id: league.id,
        code: league.code,
        numUser: 1,
      })
    }
    const made = await t.db
      .selectFrom('leagues')
      .select('id')
      .where('name', '=', 'Sent Twice')
      .execute()
    expect(made).toEqual([{ id: league.id }])
    // Four at once with a key nobody has sent yet: one league among them.
    const fresh = { name: 'Sent At Once', requestId: '7d2e9c41-58ab-4c3f-8e6d-1a2b3c4d5e6f' }
    const atOnce = await Promise.all([1, 2, 3, 4].map(() => create(boss, fresh)))
    expect(atOnce.map((r) => r.statusCode)).toEqual([200, 200, 200, 200])
    expect(new Set(atOnce.map((r) => r.json().success.league.id)).size).toBe(1)
    // The key is the owner's: another user sending the same one makes their own league.
    const other = await create(member, body)
    expect(other.statusCode).toBe(200)
    expect(other.json().success.league.id).not.toBe(league.id)
    // Without a key, every send makes a league, as before.
    const plain = await Promise.all([1, 2].map(() => create(boss, { name: 'No Key' })))
    expect(new Set(plain.map((r) => r.json().success.league.id)).size).toBe(2)
  })

  it('refuses a request id used for other values (409) or not a UUID (400), naming it', async () => {
    const requestId = 'c3a1f2e4-9b8d-4e7f-a6c5-0d1e2f3a4b5c'
    const made = await create(boss, { name: 'Keyed Once', requestId })
    expect(made.statusCode).toBe(200)
    // Sent again after its start week has closed: still the league it made, not a refusal.
    const week1 = t.db.updateTable('rounds').where('number', '=', 1)
    const before = await t.db
      .selectFrom('rounds')
      .select(['id', 'status'])
      .where('number', '=', 1)
      .execute()
    await week1.set({ status: 'complete' }).execute()
    const late = await create(boss, { name: 'Keyed Once', requestId })
    for (const r of before)
      await t.db.updateTable('rounds').set({ status: r.status }).where('id', '=', r.id).execute()
    expect(late.statusCode).toBe(200)
    expect(late.json().success.league.id).toBe(made.json().success.league.id)
    expect((await create(boss, { name: 'Keyed Late', startRound: 1 })).statusCode).toBe(200)
    const changed = await create(boss, { name: 'Keyed Twice', requestId })
    expect(changed.statusCode).toBe(409)
    expect(changed.json().errors[0]).toMatchObject({ code: 'CONFLICT', param: 'requestId' })
    const wbbl = await post('/api/wbbl/league', boss, {
      name: 'Keyed Once',
      startRound: 1,
      requestId,
    })
    expect([403, 409]).toContain(wbbl.statusCode)
    const bad = await create(boss, { name: 'Bad Key', requestId: 'not-a-uuid' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('requestId')
    expect(
      await t.db
        .selectFrom('leagues')
        .select('id')
        .where('name', 'in', ['Keyed Twice', 'Bad Key'])
        .execute(),
    ).toEqual([])
  })

  it('hides a private league from non-members (404, no code) and finds it only by code', async () => {
    const league = (await create(boss, { name: 'Secret Society' })).json().success.league
    expect((await get(`/api/bbl/league/${league.id}`, stranger)).statusCode).toBe(404)
    expect((await get(`/api/bbl/league/${league.id}/user/show-joined`, stranger)).statusCode).toBe(
      404,
    )
    expect((await get(`/api/bbl/rankings/${league.id}/rankings`, stranger)).statusCode).toBe(404)
    const byName = (await get('/api/bbl/league/show-for-join?search=secret', stranger)).json()
      .success
    expect(byName.leagues).toEqual([])
    const byCode = (await get(`/api/bbl/league/show-for-join?code=${league.code}`, stranger)).json()
      .success
    expect(byCode.leagues.map((l: { id: number }) => l.id)).toEqual([league.id])
    expect((await get(`/api/bbl/league/${league.id}`, null)).statusCode).toBe(401)
  })

  it('lists public leagues by name and pages own leagues ten at a time', async () => {
    await create(boss, { name: 'Public Parade', privacy: 'public' })
    const found = (await get('/api/bbl/league/show-for-join?search=parade', stranger)).json()
      .success.leagues
    expect(found).toHaveLength(1)
    expect(found[0].code).toMatch(/^[A-Z0-9]{10}$/)
    for (let i = 0; i < 9; i++) await create(boss, { name: `Batch League ${i}` })
    const page1 = (await get('/api/bbl/leagues', boss)).json().success
    expect(page1.leagues).toHaveLength(10)
    expect(page1.next).toBe(2)
    const page2 = (await get('/api/bbl/leagues?page=2', boss)).json().success
    expect(page2.leagues.length).toBeGreaterThan(0)
    expect(page2.next).toBeNull()
  })
})

describe('membership', () => {
  it('joins by code once, however often and however concurrently it is asked', async () => {
    const league = (await create(boss, { name: 'Join Test' })).json().success.league
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post(`/api/bbl/league/${league.code}/join`, member)),
    )
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    const shown = (await get(`/api/bbl/league/${league.id}`, member)).json().success.league
    expect(shown).toMatchObject({
      numUser: 2,
      isMember: true,
      isCommissioner: false,
      code: league.code,
    })
    const rows = await t.db
      .selectFrom('league_members')
      .selectAll()
      .where('league_id', '=', league.id)
      .execute()
    expect(rows).toHaveLength(2)
    expect((await post('/api/bbl/league/NOSUCHCODE/join', member)).statusCode).toBe(404)
  })

  it('lets members leave and rejoin, but not the commissioner', async () => {
    const league = (await create(boss, { name: 'Leave Test' })).json().success.league
    await post(`/api/bbl/league/${league.code}/join`, member)
    expect((await post(`/api/bbl/league/${league.id}/leave`, boss)).statusCode).toBe(409)
    expect((await post(`/api/bbl/league/${league.id}/leave`, member)).statusCode).toBe(200)
    expect((await get(`/api/bbl/league/${league.id}`, member)).statusCode).toBe(404)
    expect((await post(`/api/bbl/league/${league.code}/join`, member)).statusCode).toBe(200)
    const joined = (await get(`/api/bbl/league/${league.id}/user/show-joined`, member)).json()
      .success
    expect(
      joined.users.map((u: { userId: number; isCommissioner: boolean }) => [
        u.userId,
        u.isCommissioner,
      ]),
    ).toEqual([
      [boss.id, true],
      [member.id, false],
    ])
  })

  it('lets only the commissioner edit, remove members and remove the league', async () => {
    const league = (await create(boss, { name: 'Admin Test' })).json().success.league
    await post(`/api/bbl/league/${league.code}/join`, member)
    expect(
      (await post(`/api/bbl/league/${league.id}`, member, { name: 'Hijacked' })).statusCode,
    ).toBe(403)
    expect((await post(`/api/bbl/league/${league.id}/user/${boss.id}`, member)).statusCode).toBe(
      403,
    )
    expect((await post(`/api/bbl/league/${league.id}/delete`, member)).statusCode).toBe(403)
    expect(
      (await post(`/api/bbl/league/${league.id}`, stranger, { name: 'Hijacked' })).statusCode,
    ).toBe(404)
    expect((await post(`/api/bbl/league/${league.id}/delete`, admin)).statusCode).toBe(404)
    const renamed = await post(`/api/bbl/league/${league.id}`, boss, {
      name: 'Renamed Crew',
      privacy: 'public',
    })
    expect(renamed.json().success.league).toMatchObject({ name: 'Renamed Crew', privacy: 'public' })
    expect((await post(`/api/bbl/league/${league.id}/user/${member.id}`, boss)).statusCode).toBe(
      200,
    )
    expect((await get(`/api/bbl/league/${league.id}`, boss)).json().success.league.numUser).toBe(1)
    expect((await post(`/api/bbl/league/${league.id}/user/${member.id}`, boss)).statusCode).toBe(
      404,
    )
    expect((await post(`/api/bbl/league/${league.id}/delete`, boss)).statusCode).toBe(200)
    expect((await get(`/api/bbl/league/${league.id}`, boss)).statusCode).toBe(404)
  })

  it('keeps a started league from being removed', async () => {
    const league = (await create(boss, { name: 'Started League' })).json().success.league
    await t.db.updateTable('rounds').set({ status: 'active' }).where('number', '=', 1).execute()
    try {
      expect((await post(`/api/bbl/league/${league.id}/delete`, boss)).statusCode).toBe(409)
    } finally {
      await t.db
        .updateTable('rounds')
        .set({ status: 'scheduled' })
        .where('number', '=', 1)
        .execute()
    }
  })
})

describe('handing a league over (issue 27)', () => {
  it('lets the commissioner of a started league hand it to a member, and then leave', async () => {
    const league = (await create(boss, { name: 'Handover League' })).json().success.league
    await post(`/api/bbl/league/${league.code}/join`, member)
    const quitter = await registerUser(t.app)
    const lapsed = await registerUser(t.app)
    for (const u of [quitter, lapsed]) await post(`/api/bbl/league/${league.code}/join`, u)
    await t.db
      .updateTable('users')
      .set({ deactivated_at: sql`now()` })
      .where('id', '=', quitter.id)
      .execute()
    await t.db
      .updateTable('users')
      .set({ roles: ['ROLE_USER_WBBL'] })
      .where('id', '=', lapsed.id)
      .execute()
    const handOver = (by: U | null, userId: unknown) =>
      post(`/api/bbl/league/${league.id}/commissioner`, by, { userId })
    const commissionerNow = async () =>
      (
        await t.db
          .selectFrom('leagues')
          .select('user_id')
          .where('id', '=', league.id)
          .executeTakeFirstOrThrow()
      ).user_id

    await t.db.updateTable('rounds').set({ status: 'active' }).where('number', '=', 1).execute()
    try {
      // Started: the commissioner can neither remove the league nor leave it...
      expect((await post(`/api/bbl/league/${league.id}/delete`, boss)).statusCode).toBe(409)
      const stuck = await post(`/api/bbl/league/${league.id}/leave`, boss)
      expect(stuck.statusCode).toBe(409)
      expect(stuck.json().errors[0].message).toMatch(/hand the league to another member/)

      // ...and only they may hand it over, only to a current, active member of the sport.
      const refusals: [U | null, unknown, number, string | null][] = [
        [null, member.id, 401, null],
        [member, member.id, 403, null],
        [stranger, member.id, 404, 'id'],
        [admin, member.id, 404, 'id'],
        [boss, boss.id, 400, 'userId'],
        [boss, stranger.id, 404, 'userId'],
        [boss, quitter.id, 404, 'userId'],
        [boss, lapsed.id, 404, 'userId'],
        [boss, 987_654, 404, 'userId'],
        [boss, 'member', 400, 'userId'],
      ]
      for (const [by, userId, status, param] of refusals) {
        const res = await handOver(by, userId)
        const where = `${JSON.stringify(userId)} -> ${res.statusCode} ${res.body}`
        expect(res.statusCode, where).toBe(status)
        if (param) expect(res.json().errors[0].param, where).toBe(param)
        expect(await commissionerNow()).toBe(boss.id)
      }

      const handed = await handOver(boss, member.id)
      expect(handed.statusCode).toBe(200)
      expect(handed.json().success.league).toMatchObject({
        userId: member.id,
        isCommissioner: false,
        isMember: true,
      })
      const seen = (await get(`/api/bbl/league/${league.id}`, member)).json().success.league
      expect(seen).toMatchObject({ userId: member.id, isCommissioner: true })
      const joined = (await get(`/api/bbl/league/${league.id}/user/show-joined`, member)).json()
        .success.users as { userId: number; isCommissioner: boolean }[]
      expect(joined.filter((u) => u.isCommissioner).map((u) => u.userId)).toEqual([member.id])

      // The former commissioner is a member like any other: no second hand-over, free to leave.
      expect((await handOver(boss, member.id)).statusCode).toBe(403)
      expect((await post(`/api/bbl/league/${league.id}/leave`, boss)).statusCode).toBe(200)
      expect((await get(`/api/bbl/league/${league.id}`, boss)).statusCode).toBe(404)
      const renamed = await post(`/api/bbl/league/${league.id}`, member, { name: 'New Regime' })
      expect(renamed.json().success.league).toMatchObject({ name: 'New Regime', numUser: 3 })
    } finally {
      await t.db
        .updateTable('rounds')
        .set({ status: 'scheduled' })
        .where('number', '=', 1)
        .execute()
    }
  })

  it('lets only one of two hand-overs sent at once win', async () => {
    const league = (await create(boss, { name: 'Race League' })).json().success.league
    const other = await registerUser(t.app)
    for (const u of [member, other]) await post(`/api/bbl/league/${league.code}/join`, u)
    const results = await Promise.all(
      [member, other].map((u) =>
        post(`/api/bbl/league/${league.id}/commissioner`, boss, { userId: u.id }),
      ),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403])
    const winner = results.find((r) => r.statusCode === 200)!.json().success.league.userId
    expect([member.id, other.id]).toContain(winner)
  })
})

describe('league ladder', () => {
  it('ranks members by points from the start week, ties shared, with the commissioner flag', async () => {
    const league = (await create(boss, { name: 'Ladder League', startRound: 2 })).json().success
      .league
    await post(`/api/bbl/league/${league.code}/join`, member)
    await post(`/api/bbl/league/${league.code}/join`, stranger)
    const rounds = await t.db
      .selectFrom('rounds')
      .innerJoin('competitions', 'competitions.id', 'rounds.competition_id')
      .select(['rounds.id', 'rounds.number', 'competitions.id as cid'])
      .where('competitions.sport', '=', 'bbl')
      .where('rounds.number', 'in', [1, 2])
      .execute()
    const r = (n: number) => rounds.find((x) => x.number === n)!
    // round_scores is partitioned by round (the scoring job makes the partitions)
    for (const n of [1, 2]) {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.table(`round_scores_r${r(n).id}`)}
        PARTITION OF round_scores FOR VALUES IN (${sql.lit(r(n).id)})`.execute(t.db)
    }
    const score = (userId: number, n: number, points: number, margin: number) =>
      t.db
        .insertInto('round_scores')
        .values({ round_id: r(n).id, user_id: userId, competition_id: r(n).cid, points, margin })
        .execute()
    await score(boss.id, 1, 50, 0) // before the league's start: ignored
    await score(boss.id, 2, 5, 3)
    await score(member.id, 2, 5, 3)
    await score(stranger.id, 2, 6, 9)
    const res = await get(`/api/bbl/rankings/${league.id}/rankings`, member)
    expect(res.statusCode).toBe(200)
    const body = res.json().success
    expect(body.isCommissioner).toBe(false)
    expect(
      body.rankings.map((x: { userId: number; rank: number; totalPoints: number }) => [
        x.userId,
        x.rank,
        x.totalPoints,
      ]),
    ).toEqual([
      [stranger.id, 1, 6],
      [boss.id, 2, 5],
      [member.id, 2, 5],
    ])
    expect(body.user).toMatchObject({ userId: member.id, rank: 2 })
    const week = (await get(`/api/bbl/rankings/${league.id}/rankings?round=1&limit=1`, boss)).json()
      .success
    expect(week.isCommissioner).toBe(true)
    expect(week.rankings).toEqual([
      expect.objectContaining({ userId: boss.id, points: 50, rank: 1 }),
    ])
    expect(week.nextPage).toBe(2)
  })

  it('names each completed week’s league winners from the start week, and the points left (issue 31)', async () => {
    // The scores of the test above: week 1 boss 50/0 (nobody else has a row), week 2 stranger
    // 6/9 ahead of boss and member on 5/3. Weeks 1 and 2 are marked complete.
    const league = (await create(boss, { name: 'Honours League', startRound: 1 })).json().success
      .league
    await post(`/api/bbl/league/${league.code}/join`, member)
    await post(`/api/bbl/league/${league.code}/join`, stranger)
    const later = (await create(boss, { name: 'Later League', startRound: 2 })).json().success
      .league
    const c = await t.db
      .selectFrom('competitions')
      .select(['id', 'golden_week_round'])
      .where('sport', '=', 'bbl')
      .where('is_current', '=', true)
      .executeTakeFirstOrThrow()
    await t.db
      .updateTable('rounds')
      .set({ status: 'complete' })
      .where('competition_id', '=', c.id)
      .where('number', 'in', [1, 2])
      .execute()
    const res = await get(`/api/bbl/league/${league.id}/honours`, member)
    expect(res.statusCode).toBe(200)
    const body = res.json().success
    const names = (w: { userId: number }[]) => w.map((x) => x.userId)
    expect(
      body.rounds.map((r: { round: number; points: number; winners: { userId: number }[] }) => [
        r.round,
        r.points,
        names(r.winners),
      ]),
    ).toEqual([
      [1, 50, [boss.id]],
      [2, 6, [stranger.id]],
    ])
    // Nothing has been played (the clock is before the season): every match and every round's
    // bonus is still to play for, the Golden Week's matches twice.
    const perRound = await t.db
      .selectFrom('matches as m')
      .innerJoin('rounds as r', 'r.id', 'm.round_id')
      .select(['r.number', (eb) => eb.fn.countAll<number>().as('n')])
      .where('m.competition_id', '=', c.id)
      .groupBy('r.number')
      .execute()
    const expected = perRound.reduce(
      (sum, r) => sum + Number(r.n) * (r.number === c.golden_week_round ? 2 : 1) + 2,
      0,
    )
    expect(body.remaining).toEqual({
      maxPoints: expected,
      rounds: perRound.length,
      marginGameLeft: true,
    })
    // A week from before a league's start is not its honour.
    const late = (await get(`/api/bbl/league/${later.id}/honours`, boss)).json().success
    expect(late.rounds.map((r: { round: number }) => r.round)).toEqual([2])
    expect(names(late.rounds[0].winners)).toEqual([boss.id])
  })
})
