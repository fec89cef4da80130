import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { averageOf } from '@tipping/contract/rules/season'
import type { RoundExplanation, Season, SeasonLeague } from '@tipping/contract/season'
import { rebuildSeasonHistories } from '../src/modules/season/service.ts'
import { createTestApp, loadResults, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// The My season routes through HTTP on the real BBL|15 fixture and results: who may call them,
// what they answer, and that the numbers hang together (the property test holds them to the
// reference on generated seasons).

// Rounds 1 and 2 are over by then; round 3 (matches 17-24) is under way.
const NOW = new Date('2026-01-02T12:00:00Z')
let t: TestApp
const tippers: { cookie: string; id: number }[] = []
type M = { id: number; number: number; home: number; away: number; winner: number | null }
let matches: (M & { round: number; status: string; margin: boolean })[] = []

const get = (url: string, cookie?: string) =>
  t.app.inject({ url, headers: cookie ? { cookie } : {} })
const season = async (cookie: string, sport = 'bbl') => {
  const res = await get(`/api/${sport}/season`, cookie)
  expect(res.statusCode).toBe(200)
  return res.json().success as Season
}
const explain = async (cookie: string, round: number) => {
  const res = await get(`/api/bbl/season/rounds/${round}`, cookie)
  expect(res.statusCode).toBe(200)
  return res.json().success as RoundExplanation
}

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-10T00:00:00Z') })
  await loadSeasons(t.db)
  for (const team of ['Home Readers', 'Away Readers', 'Forgetful'])
    tippers.push(await registerUser(t.app, { team_name: team }))
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select([
      'matches.id',
      'matches.number',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'rounds.number as round',
    ])
    .where('competitions.sport', '=', 'bbl')
    .orderBy('matches.number')
    .execute()
  // The first tipper takes every home side of round 1, the second every away side; the third
  // tips nothing and is auto-tipped the away side everywhere.
  const round1 = rows.filter((r) => r.round === 1)
  for (const [i, side] of [
    [0, 'home_squad_id'],
    [1, 'away_squad_id'],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/predictions_list',
      headers: { cookie: tippers[i]!.cookie },
      payload: {
        predictions: round1.map((m) => ({
          match: m.id,
          squad: m[side],
          ...(m.is_margin_game ? { margin: 20 } : {}),
        })),
      },
    })
    expect(res.statusCode).toBe(200)
  }
  t.clock.set(NOW)
  await loadResults(t.db, 'bbl', NOW)
  const done = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select([
      'matches.id',
      'matches.number',
      'matches.status',
      'home_squad_id',
      'away_squad_id',
      'winner_squad_id',
      'is_margin_game',
      'rounds.number as round',
    ])
    .where('competitions.sport', '=', 'bbl')
    .orderBy('matches.number')
    .execute()
  matches = done.map((m) => ({
    id: m.id,
    number: m.number,
    home: m.home_squad_id,
    away: m.away_squad_id,
    winner: m.winner_squad_id,
    round: m.round,
    status: m.status,
    margin: m.is_margin_game,
  }))
})
afterAll(() => t.close())

describe('GET /api/{sport}/season', () => {
  it('is for signed-in tippers only', async () => {
    expect((await get('/api/bbl/season')).statusCode).toBe(401)
    expect((await get('/api/bbl/season/rounds/1')).statusCode).toBe(401)
  })

  it("counts each tipper's tips on decided matches, by team, with auto-tips that cost", async () => {
    const decided = matches.filter((m) => m.status === 'complete' && m.winner !== null)
    expect(decided.length).toBeGreaterThan(10)
    const [home, away, forgetful] = await Promise.all(tippers.map((u) => season(u.cookie)))
    // Everyone registered before the season, so everyone has a tip (own or auto) on each.
    for (const s of [home!, away!, forgetful!]) expect(s.tips.judged).toBe(decided.length)
    const homeRight = decided.filter((m) => (m.round === 1 ? m.home : m.away) === m.winner)
    expect(home!.tips.correct).toBe(homeRight.length)
    expect(home!.tips.percent).toBe(Math.round((100 * homeRight.length) / decided.length))
    const awayWins = decided.filter((m) => m.away === m.winner).length
    expect(away!.tips.correct).toBe(awayWins)
    expect(forgetful!.tips.correct).toBe(awayWins)
    // Every tip of the forgetful tipper is an auto-tip: each loser named cost them.
    expect(forgetful!.autoTips.wrong).toBe(decided.length - awayWins)
    for (const s of [home!, away!, forgetful!]) {
      expect(s.teams.reduce((n, team) => n + team.tipped, 0)).toBe(decided.length)
      expect(s.teams.reduce((n, team) => n + team.correct, 0)).toBe(s.tips.correct)
      expect(s.streaks.longest).toBeGreaterThanOrEqual(s.streaks.current)
    }
    expect(home!.goldenWeek).toEqual(expect.objectContaining({ round: expect.any(Number) }))
  })

  it("puts each round's points beside the average and best of every ranked tipper", async () => {
    const all = await Promise.all(tippers.map((u) => season(u.cookie)))
    const played = [...new Set(matches.filter((m) => m.status === 'complete').map((m) => m.round))]
    expect(all[0]!.rounds.map((r) => r.round)).toEqual(played)
    for (const [i, r] of all[0]!.rounds.entries()) {
      const points = all.map((s) => s.rounds[i]!.points)
      expect(r).toMatchObject({
        tippers: 3,
        best: Math.max(...points),
        average: averageOf(
          points.reduce((a, b) => a + b, 0),
          3,
        ),
      })
    }
  })

  it('draws the overall rank after each round once the scheduler has counted it', async () => {
    const before = await Promise.all(tippers.map((u) => season(u.cookie)))
    // Scored, not yet counted: no rank yet, and the rounds' numbers from round_scores.
    for (const s of before) expect(s.rounds.every((r) => r.rank === null)).toBe(true)
    expect(await rebuildSeasonHistories(t.db)).toBeGreaterThan(0)
    expect(await rebuildSeasonHistories(t.db)).toBe(0)
    const after = await Promise.all(tippers.map((u) => season(u.cookie)))
    for (const [i, s] of after.entries()) {
      // The same rounds' numbers, now from the history.
      expect(s.rounds.map(({ rank: _, ...r }) => r)).toEqual(
        before[i]!.rounds.map(({ rank: _, ...r }) => r),
      )
      // After the last round played, the rank is the overall rankings' own.
      const overall = await get('/api/bbl/rankings/overall/rankings', tippers[i]!.cookie)
      expect(s.rounds.at(-1)!.rank).toBe(overall.json().success.user.rank)
    }
    // After each round: someone is first, and more points so far always ranks higher.
    for (const r of after[0]!.rounds.keys()) {
      const so = after.map((s) => ({
        points: s.rounds.slice(0, r + 1).reduce((a, x) => a + x.points, 0),
        rank: s.rounds[r]!.rank!,
      }))
      expect(Math.min(...so.map((x) => x.rank))).toBe(1)
      for (const x of so)
        for (const y of so) if (x.points > y.points) expect(x.rank).toBeLessThan(y.rank)
    }
  })

  it('leaves a deactivated tipper out of the average and best at once', async () => {
    await t.db
      .updateTable('users')
      .set({ deactivated_at: NOW })
      .where('id', '=', tippers[2]!.id)
      .execute()
    const s = await season(tippers[0]!.cookie)
    for (const r of s.rounds) expect(r.tippers).toBe(2)
    // ...and out of the rank history, through its trigger, without a rebuild.
    const other = await season(tippers[1]!.cookie)
    for (const [i, r] of s.rounds.entries())
      expect([
        [1, 2],
        [1, 1],
      ]).toContainEqual([r.rank, other.rounds[i]!.rank].sort())
    await t.db
      .updateTable('users')
      .set({ deactivated_at: null })
      .where('id', '=', tippers[2]!.id)
      .execute()
    expect((await season(tippers[0]!.cookie)).rounds[0]!.tippers).toBe(3)
  })

  it('answers a competition with nothing played yet with empty numbers', async () => {
    const s = await season(tippers[0]!.cookie, 'wbbl')
    expect(s.tips).toEqual({ judged: 0, correct: 0, percent: null })
    expect(s.rounds).toEqual([])
    expect(s.superSixes).toEqual({ games: 0, averageMiss: null, bestMiss: null })
  })
})

describe('GET /api/{sport}/season/rounds/{round}', () => {
  it('explains every tip of a round and adds up to the points and rank the rankings show', async () => {
    const s = await season(tippers[0]!.cookie)
    for (const r of s.rounds) {
      const e = await explain(tippers[0]!.cookie, r.round)
      const inRound = matches.filter((m) => m.round === r.round)
      expect(e.tips.map((x) => x.match)).toEqual(inRound.map((m) => m.id))
      expect(e.tips.reduce((n, x) => n + x.points, 0)).toBe(e.tipPoints)
      expect(e.tipPoints + e.bonus).toBe(e.points)
      expect(e.points).toBe(r.points)
      expect(e.tieBreak).toMatch(/margin/)
      const ranking = await get(
        `/api/bbl/rankings/overall/rankings?round=${r.round}`,
        tippers[0]!.cookie,
      )
      expect(e.roundRank).toBe(ranking.json().success.user.rank)
      expect(e.points).toBe(ranking.json().success.user.points)
      expect(e.margin).toBe(ranking.json().success.user.margin)
      const margin = e.tips.find((x) => x.isMarginGame)!
      if (margin.status === 'complete' && margin.sixes !== null)
        expect(margin.marginResult).toBe(Math.abs((margin.margin ?? 0) - margin.sixes))
    }
    // Round 1: own tips, each decided one either counted or wrong.
    const first = await explain(tippers[0]!.cookie, 1)
    for (const x of first.tips) expect(['counted', 'wrong', 'no-result']).toContain(x.verdict)
    // Round 2 for the same tipper: all auto-tips.
    const second = await explain(tippers[0]!.cookie, 2)
    expect(second.tips.every((x) => x.isAutoTip)).toBe(true)
    expect(second.sweep).not.toBe('earned')
  })

  it('names the round when it does not exist', async () => {
    const res = await get('/api/bbl/season/rounds/999', tippers[0]!.cookie)
    expect(res.statusCode).toBe(404)
    expect(res.json().errors[0].param).toBe('round')
    expect((await get('/api/bbl/season/rounds/0', tippers[0]!.cookie)).statusCode).toBe(400)
  })
})

describe('GET /api/{sport}/season/leagues/{id}', () => {
  /** A league of the first two tippers from round `startRound`, the first its commissioner. */
  const league = async (privacy: 'private' | 'public', startRound: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/league',
      headers: { cookie: tippers[0]!.cookie },
      payload: { name: `Charts ${privacy} ${startRound}`, privacy, startRound: 3 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const made = res.json().success.league as { id: number; code: string }
    // A new league starts from a week not yet begun: this one was made before the season.
    await t.db
      .updateTable('leagues')
      .set({ start_round: startRound })
      .where('id', '=', made.id)
      .execute()
    const join = await t.app.inject({
      method: 'POST',
      url: `/api/bbl/league/${made.code}/join`,
      headers: { cookie: tippers[1]!.cookie },
    })
    expect(join.statusCode).toBe(200)
    return made.id
  }

  it("shows each member's rounds from the league's start beside the league's, and their rank", async () => {
    const id = await league('private', 2)
    const [mine, theirs, whole] = await Promise.all([
      get(`/api/bbl/season/leagues/${id}`, tippers[0]!.cookie),
      get(`/api/bbl/season/leagues/${id}`, tippers[1]!.cookie),
      season(tippers[0]!.cookie),
    ])
    expect(mine.statusCode).toBe(200)
    const a = mine.json().success as SeasonLeague
    const b = theirs.json().success as SeasonLeague
    expect(a.league).toEqual({ id, name: 'Charts private 2', startRound: 2 })
    const fromStart = whole.rounds.filter((r) => r.round >= 2)
    expect(fromStart.length).toBeGreaterThan(0)
    expect(a.rounds.map((r) => r.round)).toEqual(fromStart.map((r) => r.round))
    let totals = [0, 0]
    for (const [i, r] of a.rounds.entries()) {
      const o = b.rounds[i]!
      // The same points as on the whole season's chart; the league's two members only.
      expect(r.points).toBe(fromStart[i]!.points)
      expect(r).toMatchObject({ tippers: 2, best: Math.max(r.points, o.points) })
      expect(r.average).toBe(averageOf(r.points + o.points, 2))
      totals = [totals[0]! + r.points, totals[1]! + o.points]
      // Two members: first and second, or both first when level (margins decide then).
      expect([r.rank, o.rank].sort()).toContainEqual(1)
      if (totals[0]! > totals[1]!) expect([r.rank, o.rank]).toEqual([1, 2])
      if (totals[0]! < totals[1]!) expect([r.rank, o.rank]).toEqual([2, 1])
    }
  })

  it('is for the league’s members: others are refused as by its other reads, a bad id named', async () => {
    const closed = await league('private', 1)
    const open = await league('public', 1)
    const outsider = tippers[2]!.cookie
    expect((await get(`/api/bbl/season/leagues/${closed}`)).statusCode).toBe(401)
    const hidden = await get(`/api/bbl/season/leagues/${closed}`, outsider)
    expect(hidden.statusCode).toBe(404)
    expect(hidden.json().errors[0]).toMatchObject({ code: 'NOT_FOUND', param: 'id' })
    const refused = await get(`/api/bbl/season/leagues/${open}`, outsider)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().errors[0]).toMatchObject({ code: 'FORBIDDEN', param: 'id' })
    const bad = await get('/api/bbl/season/leagues/x1', outsider)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0]).toMatchObject({ param: 'id' })
  })
})
