import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roundForScoring } from '@tipping/contract/projections'
import { projectRound, projectTotals } from '@tipping/contract/rules/projections'
import { buildApp } from '../src/app.ts'
import { AdjustableClock } from '../src/clock.ts'
import { testConfig } from '../src/config.ts'
import type { DatabaseHandle } from '../src/db/database.ts'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import { freshDatabase, loadSeasons, makeAdmin, registerUser } from './helpers.ts'
import { changedTables, fingerprint } from './route-driver.ts'

// GAME_RULES "Live projections", the server half: the overall rank and league positions a rank
// lookup gives for a tipper's projected totals (worked out as the page does, with the contract's
// projectRound from the page's own reads) are those the scorer gives once the result lands that
// way, through the result route: for a live match beside another live one, then for the margin
// game with its live sixes. Tippers: early ones with tips, one with none (auto-tips), late ones
// (no tips, no auto-tips on what started before them), one deactivated; a league.

// Round 1 of BBL|15 (2025-12-14 to 12-21): 8 matches, the 8th the margin game.

let handle: DatabaseHandle
let staticDir: string
let app: FastifyInstance
const clock = new AdjustableClock(new Date('2025-12-01T00:00:00Z'))
let admin: { cookie: string; id: number }
type Tipper = { cookie: string; id: number; email: string }
const tippers: Tipper[] = []
let matches: { id: number; home: number; away: number }[]
let league: { id: number; code: string }
const SIXES = 11

const at = (iso: string) => clock.set(new Date(iso))

/** The margin game's live score with `sixes` hit so far, 7 of them in the first innings. */
const putLive = (m: { id: number; home: number; away: number }, sixes: number) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/bbl/matches/${m.id}/live`,
    headers: { cookie: admin.cookie },
    payload: {
      innings: [
        { battingSquadId: m.home, runs: 170, wickets: 5, overs: '20', sixes: 7 },
        { battingSquadId: m.away, runs: 80, wickets: 2, overs: '9.2', sixes: sixes - 7 },
      ],
    },
  })

const get = async (url: string, cookie = '') => {
  const res = await app.inject({ url, headers: cookie ? { cookie } : {} })
  return res
}

const post = async (url: string, payload: object, cookie: string) => {
  const res = await app.inject({ method: 'POST', url, headers: { cookie }, payload })
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
  return res.json().success
}

const result = (m: { id: number; home: number; away: number }, winner: number, sixes: number) =>
  post(
    `/api/admin/bbl/matches/${m.id}/result`,
    {
      outcome: 'win',
      winnerSquadId: winner,
      home: { runs: 160, wickets: 6, overs: '20' },
      away: { runs: 150, wickets: 9, overs: '20' },
      sixes,
    },
    admin.cookie,
  )

const tip = (t: Tipper, picks: [number, 'home' | 'away', number | null][]) =>
  post(
    '/api/bbl/predictions_list',
    {
      predictions: picks.map(([i, side, margin]) => ({
        match: matches[i]!.id,
        squad: matches[i]![side],
        margin,
      })),
    },
    t.cookie,
  )

interface Projection {
  rank: { rank: number; totalUsers: number }
  points: number
  margin: number
  leagues: Map<number, { rank: number; totalUsers: number; points: number; margin: number }>
}

/** What the page asks: its own projection from its reads, then the ranks of it. */
async function project(
  t: Tipper,
  match: { id: number },
  side: number,
  sixes: number | null,
): Promise<Projection> {
  const round = (await get('/api/bbl/predictions/1', t.cookie)).json().success
  const standing = (await get('/api/bbl/live/1/standing', t.cookie)).json().success
  const scoring = roundForScoring(t.id, round)
  const projected = projectRound({
    userId: t.id,
    ...scoring,
    outcome: { matchId: match.id, winnerSquadId: side, sixes: sixes ?? 0 },
  })
  const totals = projectTotals(
    {
      totalPoints: standing.total.points,
      totalMargin: standing.total.margin,
      roundPoints: standing.round.points,
      roundMargin: standing.round.margin,
    },
    projected,
  )
  const query = (points: number, margin: number) =>
    `match=${match.id}&side=${side}&totalPoints=${points}&totalMargin=${margin}&v=${standing.scoresVersion}` +
    (sixes === null ? '' : `&sixes=${sixes}`)
  const res = await get(`/api/bbl/live/1/rank?${query(totals.points, totals.margin)}`)
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/)
  const leagues = new Map<number, Projection['leagues'] extends Map<number, infer V> ? V : never>()
  for (const l of standing.leagues) {
    const lt = projectTotals(
      {
        totalPoints: l.points,
        totalMargin: l.margin,
        roundPoints: standing.round.points,
        roundMargin: standing.round.margin,
      },
      projected,
    )
    const lr = await get(
      `/api/bbl/league/${l.id}/live-rank?round=1&${query(lt.points, lt.margin)}`,
      t.cookie,
    )
    expect(lr.statusCode, lr.body).toBe(200)
    leagues.set(l.id, { ...lr.json().success, ...lt })
  }
  return { rank: res.json().success, ...totals, leagues }
}

/** What the scorer gives each tipper once the result is in: the snapshot and the league ladder. */
async function scored(t: Tipper) {
  const snapshot = await post('/api/bbl/predictions/snapshot', { round: 1 }, t.cookie)
  const ladder = await get(`/api/bbl/rankings/${league.id}/rankings`, t.cookie)
  return {
    rank: snapshot.overall_rank as number,
    totalUsers: snapshot.total_users as number,
    points: snapshot.overall_points as number,
    league: ladder.statusCode === 200 ? ladder.json().success.user : null,
  }
}

const active = () => tippers.filter((_, i) => i !== 3)

async function expectProjectionsHold(projections: Map<number, Projection>) {
  for (const t of active()) {
    const p = projections.get(t.id)!
    const s = await scored(t)
    expect({ rank: s.rank, totalUsers: s.totalUsers, points: s.points }, `tipper ${t.id}`).toEqual({
      rank: p.rank.rank,
      totalUsers: p.rank.totalUsers,
      points: p.points,
    })
    const inLeague = p.leagues.get(league.id)
    expect(Boolean(inLeague)).toBe(s.league !== null)
    if (inLeague && s.league)
      expect({ rank: inLeague.rank, points: inLeague.points, margin: inLeague.margin }).toEqual({
        rank: s.league.rank,
        points: s.league.totalPoints,
        margin: s.league.totalMargin,
      })
  }
}

const projectAll = async (match: { id: number }, side: number, sixes: number | null) =>
  new Map(
    await Promise.all(
      active().map(async (t) => [t.id, await project(t, match, side, sixes)] as const),
    ),
  )

beforeAll(async () => {
  handle = await freshDatabase()
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-static-'))
  ;({ app } = await buildApp({
    config: testConfig({ STATIC_DIR: staticDir, WEB_DIST_DIR: path.join(staticDir, 'no-web') }),
    db: handle.db,
    engine: handle.engine,
    clock,
    listen: handle.listen,
  }))
  await app.ready()
  await loadSeasons(handle.db)
  admin = await registerUser(app)
  await makeAdmin(handle.db, admin.id)
  matches = await handle.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'home_squad_id as home', 'away_squad_id as away'])
    .where('competitions.sport', '=', 'bbl')
    .where('rounds.number', '=', 1)
    .orderBy('matches.number')
    .execute()
  for (let i = 0; i < 6; i++) tippers.push(await registerUser(app))
  const [a, b, c, d, , f] = tippers as [Tipper, Tipper, Tipper, Tipper, Tipper, Tipper]
  const all = (side: (i: number) => 'home' | 'away', margin: number) =>
    matches.map(
      (_, i) => [i, side(i), i === 7 ? margin : null] as [number, 'home' | 'away', number | null],
    )
  await tip(
    a,
    all(() => 'home', 12),
  )
  await tip(
    b,
    all((i) => (i % 2 ? 'home' : 'away'), 9),
  )
  await tip(
    c,
    all((i) => (i < 4 ? 'home' : 'away'), 20),
  )
  await tip(
    d,
    all(() => 'away', 11),
  )
  // The fifth tips nothing: every match is an auto-tip. The sixth tips a few, no margin.
  await tip(f, [
    [0, 'away', null],
    [6, 'home', null],
    [7, 'away', null],
  ])
  league = (await post('/api/bbl/league', { name: 'Projected', startRound: 1 }, a.cookie)).league
  for (const t of [b, c, d]) await post(`/api/bbl/league/${league.code}/join`, {}, t.cookie)
  // Late: after matches 1-4 started, tipping the rest; then one after every match started.
  at('2025-12-17T12:00:00Z')
  await runLockouts(handle.db, clock)
  const late = await registerUser(app)
  tippers.push(late)
  await tip(late, [
    [4, 'away', null],
    [5, 'home', null],
    [6, 'away', null],
    [7, 'home', 14],
  ])
  await post(`/api/bbl/league/${league.code}/join`, {}, late.cookie)
  at('2025-12-21T10:00:00Z')
  await runLockouts(handle.db, clock)
  tippers.push(await registerUser(app))
  // Matches 1-6 have results; 7 and 8 (the margin game) are live.
  for (let i = 0; i < 6; i++)
    await result(matches[i]!, i % 3 ? matches[i]!.home : matches[i]!.away, 7)
  await handle.db
    .updateTable('users')
    .set({ deactivated_at: new Date('2025-12-21T10:00:00Z') })
    .where('id', '=', d.id)
    .execute()
  const live = await putLive(matches[7]!, SIXES)
  expect(live.statusCode, live.body).toBe(200)
})

afterAll(async () => {
  await app.close()
  await handle.close()
  await fs.rm(staticDir, { recursive: true, force: true })
})

describe('live projections', () => {
  it('rank as the scorer ranks once a live match ends that way, the other live one undecided', async () => {
    const x = matches[6]!
    const before = await fingerprint(handle.db)
    const home = await projectAll(x, x.home, null)
    const away = await projectAll(x, x.away, null)
    // Asking scores nothing.
    expect(changedTables(before, await fingerprint(handle.db))).toEqual([])
    // The two sides differ for someone, or the test would prove little.
    expect([...home].some(([id, p]) => p.points !== away.get(id)!.points)).toBe(true)
    await result(x, x.home, 7)
    await expectProjectionsHold(home)
    await result(x, x.away, 7)
    await expectProjectionsHold(away)
  })

  it('answers from memory, and refuses what names other data than the live state', async () => {
    const m = matches[7]!
    const [a, , , , e] = tippers
    const v = (await get('/api/bbl/live/1/standing', a!.cookie)).json().success.scoresVersion
    const url = (q: string) =>
      `/api/bbl/live/1/rank?match=${m.id}&side=${m.home}&totalPoints=3&${q}`
    const first = await get(url(`totalMargin=4&v=${v}&sixes=${SIXES}`))
    expect(first.statusCode, first.body).toBe(200)
    // Another tipper's stored total jumps without a new scores version (nothing real does that):
    // a lookup on the same data is answered from memory, so it does not see it.
    const row = await handle.db
      .updateTable('standings')
      .set((eb) => ({ total_points: eb('total_points', '+', 100) }))
      .where('user_id', '=', e!.id)
      .returning('total_points')
      .executeTakeFirstOrThrow()
    expect(row.total_points).toBeGreaterThanOrEqual(100)
    const again = await get(url(`totalMargin=4&v=${v}&sixes=${SIXES}`))
    expect(again.json()).toEqual(first.json())
    await handle.db
      .updateTable('standings')
      .set((eb) => ({ total_points: eb('total_points', '-', 100) }))
      .where('user_id', '=', e!.id)
      .execute()

    const refused = async (q: string, status: number, param: string, u = url(q), cookie = '') => {
      const res = await get(u, cookie)
      expect(res.statusCode, `${u}: ${res.body}`).toBe(status)
      expect(res.json().errors[0].param).toBe(param)
    }
    await refused(`totalMargin=4&v=${v + 1}&sixes=${SIXES}`, 409, 'v')
    await refused(`totalMargin=4&v=${v}&sixes=${SIXES + 1}`, 409, 'sixes')
    await refused(`totalMargin=4&v=${v}`, 400, 'sixes')
    await refused(`totalMargin=-1&v=${v}&sixes=${SIXES}`, 400, 'totalMargin')
    const other = matches[0]!
    await refused(
      '',
      400,
      'side',
      `/api/bbl/live/1/rank?match=${m.id}&side=${other.home === m.home ? other.away : other.home}&totalPoints=1&totalMargin=1&v=${v}&sixes=${SIXES}`,
    )
    // Match 7 has its result: no longer live.
    const done = matches[6]!
    await refused(
      '',
      409,
      'match',
      `/api/bbl/live/1/rank?match=${done.id}&side=${done.home}&totalPoints=1&totalMargin=1&v=${v}`,
    )
    await refused(
      '',
      404,
      'match',
      `/api/bbl/live/2/rank?match=${m.id}&side=${m.home}&totalPoints=1&totalMargin=1&v=${v}&sixes=${SIXES}`,
    )
    // A league position is a member's: the fifth tipper is not in the league.
    const leagueUrl = `/api/bbl/league/${league.id}/live-rank?round=1&match=${m.id}&side=${m.home}&totalPoints=1&totalMargin=1&v=${v}&sixes=${SIXES}`
    await refused('', 404, 'id', leagueUrl, e!.cookie)
    expect((await get(leagueUrl)).statusCode).toBe(401)
    const member = await get(leagueUrl, a!.cookie)
    expect(member.statusCode, member.body).toBe(200)
    expect(member.headers['cache-control']).toMatch(/^private/)
    // Four active members: the deactivated one is left out, as the ladder leaves them out.
    expect(member.json().success.totalUsers).toBe(4)
  })

  it('on the margin game take the live sixes as the final count', async () => {
    const m = matches[7]!
    const home = await projectAll(m, m.home, SIXES)
    const away = await projectAll(m, m.away, SIXES)
    // One more six: a new count, computed afresh, and (with the round's stored rows from before
    // the counters, as old data has them) projected from all the round's tips.
    expect((await putLive(m, SIXES + 1)).statusCode).toBe(200)
    await sql`UPDATE round_scores SET correct_own = NULL, correct_auto = NULL, autos = NULL
      WHERE round_id = (SELECT round_id FROM matches WHERE id = ${m.id})`.execute(handle.db)
    const homeMore = await projectAll(m, m.home, SIXES + 1)
    const awayMore = await projectAll(m, m.away, SIXES + 1)
    expect(
      [...homeMore].some(
        ([id, p]) => p.rank.rank !== home.get(id)!.rank.rank || p.margin !== home.get(id)!.margin,
      ),
    ).toBe(true)
    await result(m, m.away, SIXES)
    await expectProjectionsHold(away)
    await result(m, m.home, SIXES)
    await expectProjectionsHold(home)
    await result(m, m.home, SIXES + 1)
    await expectProjectionsHold(homeMore)
    await result(m, m.away, SIXES + 1)
    await expectProjectionsHold(awayMore)
  })
})
