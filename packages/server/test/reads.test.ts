import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RankingRow } from '@tipping/contract/scores'
import { sql } from 'kysely'
import { ScoresService } from '../src/modules/scores/service.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import * as scoring from '../src/modules/scoring/queries.ts'
import { createTestApp, engine, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// BBL|15 round 1 (matches 1-8, 14-21 Dec 2025) and round 2 (matches 9-16).
let t: TestApp
let admin: { cookie: string; id: number }
const users: { cookie: string; id: number }[] = []
type M = { id: number; number: number; home: number; away: number; margin: boolean; startsAt: Date }
const byNumber = new Map<number, M>()
const m = (n: number) => byNumber.get(n)!

const post = (url: string, cookie: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, payload })
const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } })
const win = (squad: number, sixes: number | null = null) => ({
  outcome: 'win',
  winnerSquadId: squad,
  home: null,
  away: null,
  sixes,
})

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  admin = await registerUser(t.app, { firstName: 'Ada', lastName: 'Min', team_name: 'Admins' })
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN', 'ROLE_USER_BBL', 'ROLE_USER_WBBL'] })
    .where('id', '=', admin.id)
    .execute()
  for (const [first, team] of [
    ['Zara', 'Zed Sixes'],
    ['Yusuf', 'Yorkers'],
    ['Xena', 'Xtra Cover'],
  ] as const) {
    users.push(await registerUser(t.app, { firstName: first, lastName: 'Tipper', team_name: team }))
  }
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select([
      'matches.id',
      'matches.number',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'starts_at',
    ])
    .where('competitions.sport', '=', 'bbl')
    .execute()
  for (const r of rows)
    byNumber.set(r.number, {
      id: r.id,
      number: r.number,
      home: r.home_squad_id,
      away: r.away_squad_id,
      margin: r.is_margin_game,
      startsAt: r.starts_at,
    })
})
afterAll(() => t.close())

describe('autopick, clear and single tips', () => {
  it('autopick fills untipped open matches with the majority squad, home on a tie, never overwriting', async () => {
    const [a, b, c] = users as [typeof admin, typeof admin, typeof admin]
    // Two tippers take the away side of match 1; match 2 has no tips at all.
    await post('/api/bbl/predictions_list', a.cookie, {
      predictions: [{ match: m(1).id, squad: m(1).away }],
    })
    await post('/api/bbl/predictions_list', b.cookie, {
      predictions: [{ match: m(1).id, squad: m(1).away }],
    })
    await post('/api/bbl/predictions_list', c.cookie, {
      predictions: [{ match: m(3).id, squad: m(3).away }],
    })
    const res = await post('/api/bbl/predictions_list/autopick', c.cookie, {
      predictions: [1, 2, 3].map((n) => ({ match: m(n).id })),
    })
    expect(res.statusCode).toBe(200)
    const picks = new Map(
      res
        .json()
        .success.predictions.map((p: { match: number; squad: number; isAutoTip: boolean }) => [
          p.match,
          p,
        ]),
    )
    expect(picks.get(m(1).id)).toMatchObject({ squad: m(1).away, isAutoTip: false })
    expect(picks.get(m(2).id)).toMatchObject({ squad: m(2).home })
    expect(picks.get(m(3).id)).toMatchObject({ squad: m(3).away })
  })

  it('clear removes open tips; a locked match refuses the whole list', async () => {
    const c = users[2]!
    const res = await post('/api/bbl/predictions_list/clear', c.cookie, {
      predictions: [{ match: m(2).id }],
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().success.predictions[0]).toMatchObject({ match: m(2).id, squad: 0 })
    t.clock.set(new Date(m(1).startsAt.getTime() + 1))
    const locked = await post('/api/bbl/predictions_list/clear', c.cookie, {
      predictions: [{ match: m(3).id }, { match: m(1).id }],
    })
    expect(locked.statusCode).toBe(409)
    const tips = await t.db
      .selectFrom('tips')
      .select('match_id')
      .where('user_id', '=', c.id)
      .execute()
    expect(tips.map((x) => x.match_id)).toContain(m(3).id)
  })

  it('changes one tip with POST tips, margin included on the margin game', async () => {
    const marginGame = [...byNumber.values()].find((x) => x.margin && x.number <= 8)!
    const res = await post('/api/bbl/tips', users[0]!.cookie, {
      match: marginGame.id,
      squad: marginGame.home,
      margin: 17,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().success.prediction).toMatchObject({
      match: marginGame.id,
      squad: marginGame.home,
      margin: 17,
    })
  })
})

describe('scores, rankings and other tippers', () => {
  beforeAll(async () => {
    // Everyone tips the rest of round 1 before it starts; then results for all of round 1.
    t.clock.set(new Date('2025-12-01T00:00:00Z'))
    const [a, b, c] = users as [typeof admin, typeof admin, typeof admin]
    const all = (pick: 'home' | 'away') =>
      [2, 3, 4, 5, 6, 7, 8].map((n) => ({
        match: m(n).id,
        squad: m(n)[pick],
        margin: m(n).margin ? 10 : null,
      }))
    await post('/api/bbl/predictions_list', a.cookie, { predictions: all('home') })
    await post('/api/bbl/predictions_list', b.cookie, { predictions: all('home') })
    await post('/api/bbl/predictions_list', c.cookie, { predictions: all('away') })
    t.clock.set(new Date('2025-12-22T00:00:00Z'))
    for (let n = 1; n <= 8; n++) {
      const res = await post(
        `/api/admin/bbl/matches/${m(n).id}/result`,
        admin.cookie,
        win(m(n).home, m(n).margin ? 12 : null),
      )
      expect(res.statusCode).toBe(200)
    }
  })

  it('shows another tipper only their completed tips', async () => {
    const res = await get(`/api/bbl/predictions/1/user/${users[2]!.id}`, users[0]!.cookie)
    expect(res.statusCode).toBe(200)
    const body = res.json().success
    expect(body.user).toMatchObject({
      firstName: 'Xena',
      lastNameInitial: 'T',
      teamName: 'Xtra Cover',
    })
    expect(body.user).not.toHaveProperty('email')
    expect(body.predictions).toHaveLength(8)
    const round2 = await get(`/api/bbl/predictions/2/user/${users[2]!.id}`, users[0]!.cookie)
    expect(round2.json().success.predictions).toEqual([])
    expect((await get(`/api/bbl/predictions/1/user/999999`, users[0]!.cookie)).statusCode).toBe(404)
    expect(
      (await t.app.inject({ url: `/api/bbl/predictions/1/user/${users[2]!.id}` })).statusCode,
    ).toBe(401)
  })

  it("shows league mates' tips on completed matches only, never strangers'", async () => {
    const [a, b, c] = users as [typeof admin, typeof admin, typeof admin]
    const mates = (u: typeof admin, round: number) =>
      get(`/api/bbl/predictions/${round}/leagues`, u.cookie)
    // No league yet: nobody to show.
    const alone = (await mates(a, 1)).json().success
    expect(alone.matches).toHaveLength(8)
    expect(alone.matches.every((x: { tips: unknown[] }) => x.tips.length === 0)).toBe(true)
    const league = (
      await post('/api/bbl/league', a.cookie, {
        name: 'Tip Row',
        privacy: 'private',
        startRound: 2,
      })
    ).json().success.league
    await post(`/api/bbl/league/${league.code}/join`, b.cookie, {})
    const res = await mates(a, 1)
    expect(res.statusCode).toBe(200)
    const row = res.json().success.matches.find((x: { match: number }) => x.match === m(2).id)
    // b is a league mate; c (not in the league) and a (the caller) are not shown.
    expect(row.tips).toEqual([
      {
        userId: b.id,
        teamName: 'Yorkers',
        firstName: 'Yusuf',
        lastNameInitial: 'T',
        squad: m(2).home,
        margin: null,
        isAutoTip: false,
      },
    ])
    const shown = res
      .json()
      .success.matches.flatMap((x: { tips: { userId: number }[] }) => x.tips.map((y) => y.userId))
    expect(shown).toHaveLength(8)
    expect(new Set(shown)).toEqual(new Set([b.id]))
    expect(shown).not.toContain(c.id)
    // Round 2 has not started: no match is complete, so nothing is shown.
    expect((await mates(a, 2)).json().success.matches).toEqual([])
    expect((await t.app.inject({ url: '/api/bbl/predictions/1/leagues' })).statusCode).toBe(401)
    expect((await mates(a, 99)).statusCode).toBe(404)
  })

  it('summarises the score in the snapshot', async () => {
    const res = await post('/api/bbl/predictions/snapshot', users[0]!.cookie, { round: 1 })
    expect(res.statusCode).toBe(200)
    // Zara: away on match 1 (wrong), home on 2-8 (7 right); no sweep.
    expect(res.json().success).toEqual({
      round_points: 7,
      overall_points: 7,
      overall_rank: 1,
      round: 1,
      max_round_points: 10,
      max_total_points: 10,
      total_users: 4,
    })
  })

  it('ranks tippers with shared ranks, pages them and finds them by name', async () => {
    const res = await get('/api/bbl/rankings/overall/rankings?limit=2', users[2]!.cookie)
    expect(res.statusCode).toBe(200)
    const page1 = res.json().success
    expect(page1.available).toBe(true)
    expect(
      page1.rankings.map((r: { rank: number; totalPoints: number }) => [r.rank, r.totalPoints]),
    ).toEqual([
      [1, 7],
      [1, 7],
    ])
    expect(page1.nextPage).toBe(2)
    expect(page1.user).toMatchObject({ userId: users[2]!.id, rank: 3 })
    const page2 = (
      await get('/api/bbl/rankings/overall/rankings?limit=2&page=2', users[2]!.cookie)
    ).json().success
    expect(page2.rankings).toHaveLength(2)
    expect(page2.nextPage).toBeNull()
    const found = (
      await get('/api/bbl/rankings/overall/rankings?search=xtra', users[0]!.cookie)
    ).json().success
    expect(found.rankings.map((r: { userId: number }) => r.userId)).toEqual([users[2]!.id])
    const week = (await get('/api/bbl/rankings/overall/rankings?round=1', users[0]!.cookie)).json()
      .success
    expect(week.rankings[0]).toMatchObject({ points: 7, totalPoints: 7 })
    const bad = await get('/api/bbl/rankings/overall/rankings?limit=500', users[0]!.cookie)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('limit')
  })

  it("writes a page row (JSON from the database) exactly as the caller's own row (mapped here)", async () => {
    const me = users[1]!
    const before = await t.db
      .selectFrom('users')
      .select(['team_name', 'first_name', 'last_name'])
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow()
    // Quotes, a backslash, a control character and characters outside the BMP.
    await t.db
      .updateTable('users')
      .set({ team_name: 'Tab\there "Q" \\ 🏏', first_name: 'Zoë', last_name: '𝒜dams' })
      .where('id', '=', me.id)
      .execute()
    try {
      const body = (await get('/api/bbl/rankings/overall/rankings?limit=20', me.cookie)).json()
        .success
      const onPage = body.rankings.find((r: { userId: number }) => r.userId === me.id)
      expect(onPage).toEqual(body.user)
      expect(onPage).toMatchObject({
        teamName: 'Tab\there "Q" \\ 🏏',
        firstName: 'Zoë',
        lastNameInitial: '𝒜',
      })
    } finally {
      await t.db.updateTable('users').set(before).where('id', '=', me.id).execute()
    }
  })

  it('leaves a deactivated tipper out of every page without repeating or losing anyone', async () => {
    const all = async (round = '') => {
      const seen: number[] = []
      for (let page: number | null = 1; page !== null;) {
        const body: { rankings: { userId: number }[]; nextPage: number | null } = (
          await get(`/api/bbl/rankings/overall/rankings?limit=1&page=${page}${round}`, admin.cookie)
        ).json().success
        seen.push(...body.rankings.map((r) => r.userId))
        page = body.nextPage
      }
      return seen
    }
    const before = await all()
    const inRound = await all('&round=1')
    expect(new Set(before).size).toBe(before.length)
    expect(before).toContain(users[0]!.id)
    expect(inRound).toContain(users[0]!.id)
    await t.db
      .updateTable('users')
      .set({ deactivated_at: new Date() })
      .where('id', '=', users[0]!.id)
      .execute()
    try {
      expect(await all()).toEqual(before.filter((id) => id !== users[0]!.id))
      expect(await all('&round=1')).toEqual(inRound.filter((id) => id !== users[0]!.id))
    } finally {
      await t.db
        .updateTable('users')
        .set({ deactivated_at: null })
        .where('id', '=', users[0]!.id)
        .execute()
    }
    expect(await all()).toEqual(before)
  })

  it('keeps a tipper renamed while the standings are being rebuilt, in the standings swapped in', async () => {
    // Pages read names from standings' copies (migration 2026-11-24T0300). A rename between the
    // job's read of users and its swap must not land in the table the swap drops: the scoring
    // lock holds the copying trigger back until the job commits. (On PGlite, one connection, the
    // rename simply runs after the job.)
    const { id: competitionId } = await t.db
      .selectFrom('competitions')
      .select('id')
      .where('sport', '=', 'bbl')
      .executeTakeFirstOrThrow()
    const who = users[1]!.id
    const nameIn = async () =>
      (
        await t.db
          .selectFrom('standings')
          .select('team_name')
          .where('user_id', '=', who)
          .where('competition_id', '=', competitionId)
          .executeTakeFirstOrThrow()
      ).team_name
    const was = await nameIn()
    let rename: Promise<unknown> = Promise.resolve()
    await t.db.transaction().execute(async (trx) => {
      await scoring.lockCompetitionScoring(trx, competitionId)
      await scoring.buildStandings(trx, competitionId, [])
      rename = t.db
        .updateTable('users')
        .set({ team_name: 'Renamed Mid-Build' })
        .where('id', '=', who)
        .execute()
      if (engine() === 'postgres') {
        // until the rename's copy waits on the lock (or 3 s, and the check below fails)
        for (let i = 0; i < 60; i++) {
          const waiting = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE 'update "users"%'`.execute(t.db)
          if (waiting.rows[0]!.n > 0) break
          await new Promise((r) => setTimeout(r, 50))
        }
      }
      await scoring.swapIn(trx, competitionId, [])
    })
    await rename
    try {
      expect(await nameIn()).toBe('Renamed Mid-Build')
      const page = (await get('/api/bbl/rankings/overall/rankings', admin.cookie)).json()
        .success as { rankings: RankingRow[] }
      expect(page.rankings.find((r) => r.userId === who)?.teamName).toBe('Renamed Mid-Build')
    } finally {
      await t.db.updateTable('users').set({ team_name: was }).where('id', '=', who).execute()
    }
    expect(await nameIn()).toBe(was)
  })

  it('serves cached rankings pages until a re-score moves the scores version', async () => {
    const scores = new ScoresService(t.db, new CurrentCompetitions(t.db), 0, 60_000)
    const firstPage = async () => ({
      rankings: JSON.parse(
        (await scores.rankings('bbl', admin.id, { page: 1, limit: 4 })).rankingsJson,
      ) as RankingRow[],
    })
    const before = await firstPage()
    const leader = before.rankings[0]!
    await t.db
      .updateTable('users')
      .set({ team_name: 'Renamed Meanwhile' })
      .where('id', '=', leader.userId)
      .execute()
    // Within the page time to live and at the same scores version: the page as it was.
    expect((await firstPage()).rankings).toEqual(before.rankings)
    const correct = (squad: number) =>
      post(`/api/admin/bbl/matches/${m(1).id}/result`, admin.cookie, win(squad))
    try {
      expect((await correct(m(1).away)).statusCode).toBe(200)
      // The correction re-scored the competition: the page is read afresh.
      const after = await firstPage()
      expect(after.rankings.map((r) => r.teamName)).toContain('Renamed Meanwhile')
    } finally {
      expect((await correct(m(1).home)).statusCode).toBe(200)
      await t.db
        .updateTable('users')
        .set({ team_name: leader.teamName })
        .where('id', '=', leader.userId)
        .execute()
    }
  })

  it('lists both competitions on the dashboard', async () => {
    const res = await get('/api/tipping/dashboard', users[0]!.cookie)
    expect(res.statusCode).toBe(200)
    const sports = res.json().success.sports
    expect(sports.map((s: { sport: string }) => s.sport)).toEqual(['bbl', 'wbbl'])
    expect(sports[0]).toMatchObject({ registered: true, overall_points: 7, overall_rank: 1 })
  })
})
