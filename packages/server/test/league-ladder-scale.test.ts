import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LADDER_PAGE_SIZE } from '@tipping/contract/constants'
import {
  autoTips,
  rankRows,
  scoreRound,
  type ScoringMatch,
  type ScoringTip,
} from '@tipping/contract/rules/scoring'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.ts'
import { testConfig } from '../src/config.ts'
import { publishEvent } from '../src/modules/live/service.ts'
import { applyResultsFile, readResultsFile } from '../src/modules/results/service.ts'
import { HONOURS_WINNERS_MAX, type LeagueHonoursResponse } from '@tipping/contract/leagues'
import { averageOf } from '@tipping/contract/rules/season'
import type { SeasonLeague } from '@tipping/contract/season'
import { HONOURS_WALK_FROM, honoursByMembers } from '../src/modules/leagues/honours/queries.ts'
import { LeaguesReads } from '../src/modules/leagues/reads.ts'
import { toRounds } from '../src/modules/leagues/honours/reads.ts'
import {
  appCountingStatements,
  currentCompetitionId,
  createTestApp,
  engine,
  loadSeasons,
  registerUser,
  resultsPath,
  sessionCookie,
  type TestApp,
} from './helpers.ts'

// The league ladder of a big league (2,000 simulated tippers and its commissioner, next to 150
// tippers outside it), paged 20 at a time through the API, against the contract's reference
// scorer: every page agrees row by row, nextPage is right, and shared ranks are right across page
// boundaries. Tips are inserted by set-based SQL; the real BBL|15 results up to early January are
// applied (with simulated sixes, so the Super Sixes margin separates some equal points).
const MEMBERS = 2000
const OUTSIDERS = 150
const START_ROUND = 2
const NOW = new Date('2026-01-09T00:00:00Z') // round 4 (the golden week) is part played

let t: TestApp
/** The same app with the big-league ladder cache on (READ_CACHE_MS), over the same database. */
let cached: FastifyInstance
let boss: { cookie: string; id: number; email: string }
let leagueId: number
let competitionId: number

interface Expected {
  userId: number
  rank: number
  points: number
  margin: number
  totalPoints: number
  totalMargin: number
}
let overall: Expected[]
let week: Expected[]
const WEEK = 3

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  boss = await registerUser(t.app, { team_name: 'Big League Boss' })
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: { cookie: boss.cookie },
    payload: { name: 'The Big League', privacy: 'public', startRound: START_ROUND },
  })
  leagueId = created.json().success.league.id
  competitionId = await currentCompetitionId(t.db, 'bbl')

  await sql`
    INSERT INTO users (email, first_name, last_name, team_name, roles)
    SELECT 'ladder' || n || '@sim.invalid', 'Sim', 'Tipper' || n,
      CASE WHEN n % 3 = 0 THEN NULL ELSE 'Team ' || n END, ARRAY['ROLE_USER_BBL']
    FROM generate_series(1, ${MEMBERS + OUTSIDERS}) AS n
  `.execute(t.db)
  await sql`
    INSERT INTO competition_registrations (competition_id, user_id, registered_at)
    SELECT ${competitionId}, id, '2025-11-01T00:00:00Z' FROM users
    ON CONFLICT DO NOTHING
  `.execute(t.db)
  await sql`
    INSERT INTO league_members (league_id, user_id)
    SELECT ${leagueId}, id FROM users
    WHERE email LIKE 'ladder%@sim.invalid'
      AND substring(email FROM 'ladder([0-9]+)@')::int <= ${MEMBERS}
  `.execute(t.db)
  await sql`
    UPDATE leagues SET num_users = (SELECT count(*) FROM league_members WHERE league_id = ${leagueId})
    WHERE id = ${leagueId}
  `.execute(t.db)
  // Deterministic "random" tips from a hash of user and match: about nine in ten matches tipped,
  // picks leaning to one side per match, a few auto-tips, margins from 0 to 29 on margin games.
  await sql`
    INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip)
    SELECT u.id, m.id, m.round_id,
      CASE WHEN (hashint4(u.id * 7919 + m.id) & 1023) < 400 + (hashint4(m.id) & 255)
           THEN m.home_squad_id ELSE m.away_squad_id END,
      CASE WHEN m.is_margin_game THEN (hashint4(u.id * 31 + m.id) & 2147483647) % 30 END,
      (hashint4(u.id * 131 + m.id) & 2147483647) % 12 = 0
    FROM users u
    CROSS JOIN matches m
    JOIN rounds r ON r.id = m.round_id
    WHERE m.competition_id = ${competitionId} AND r.number <= 4
      AND (hashint4(u.id * 613 + m.id) & 2147483647) % 10 <> 0
  `.execute(t.db)

  t.clock.set(NOW)
  // Weeks later: the session from before the season has idled out, so sign in again.
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: boss.email, password: 'correct horse battery' },
  })
  boss.cookie = sessionCookie(login)
  const results = await readResultsFile(resultsPath('bbl'))
  await applyResultsFile({ db: t.db }, results, {
    now: NOW,
    minAgeMs: 4 * 3_600_000,
    simulateSixes: (match) => 6 + ((match * 7) % 17),
  })

  // The reference: scoreRound per member and round, summed from the league's start round.
  const matchRows = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select([
      'matches.id',
      'rounds.number',
      'matches.status',
      'matches.starts_at',
      'matches.away_squad_id',
      'matches.winner_squad_id',
      'matches.is_margin_game',
      'matches.sixes',
    ])
    .where('matches.competition_id', '=', competitionId)
    .execute()
  const matches: ScoringMatch[] = matchRows.map((m) => ({
    id: m.id,
    roundNumber: m.number,
    status: m.status,
    winnerSquadId: m.winner_squad_id,
    isMarginGame: m.is_margin_game,
    sixes: m.sixes,
  }))
  const { golden_week_round: golden } = await t.db
    .selectFrom('competitions')
    .select('golden_week_round')
    .where('id', '=', competitionId)
    .executeTakeFirstOrThrow()
  const members = (
    await t.db
      .selectFrom('league_members')
      .select('user_id')
      .where('league_id', '=', leagueId)
      .execute()
  ).map((r) => r.user_id)
  const tipsByUser = new Map<number, ScoringTip[]>(members.map((id) => [id, []]))
  for (const tip of await t.db
    .selectFrom('tips')
    .innerJoin('league_members as lm', 'lm.user_id', 'tips.user_id')
    .select(['tips.user_id', 'match_id', 'squad_id', 'margin', 'is_auto_tip'])
    .where('lm.league_id', '=', leagueId)
    .execute()) {
    tipsByUser.get(tip.user_id)!.push({
      userId: tip.user_id,
      matchId: tip.match_id,
      squadId: tip.squad_id,
      margin: tip.margin,
      isAutoTip: tip.is_auto_tip,
    })
  }
  // Untipped locked matches: the derived auto-tips (every member registered on 1 November).
  const stored = [...tipsByUser.values()].flat()
  const derived = autoTips(
    members.map((userId) => ({ userId, registeredAt: new Date('2025-11-01T00:00:00Z') })),
    matchRows.map((m) => ({
      id: m.id,
      status: m.status,
      startsAt: m.starts_at,
      awaySquadId: m.away_squad_id,
      isMarginGame: m.is_margin_game,
    })),
    stored,
  )
  for (const tip of derived) tipsByUser.get(tip.userId)!.push(tip)
  const rounds = [...new Set(matches.map((m) => m.roundNumber))]
  const perUser = members.map((userId) => {
    const scores = rounds.map((n) =>
      scoreRound(userId, n, matches, tipsByUser.get(userId)!, n === golden),
    )
    const counted = scores.filter((s) => s.roundNumber >= START_ROUND)
    const wk = scores.find((s) => s.roundNumber === WEEK)!
    return {
      userId,
      totalPoints: counted.reduce((a, s) => a + s.points, 0),
      totalMargin: counted.reduce((a, s) => a + s.margin, 0),
      weekPoints: wk.points,
      weekMargin: wk.margin,
    }
  })
  // The server orders equal ranks by user id; RANK() itself is the reference's rankRows.
  const order = (a: Expected, b: Expected) => a.rank - b.rank || a.userId - b.userId
  overall = rankRows(perUser.map((u) => ({ ...u, points: u.totalPoints, margin: u.totalMargin })))
    .map((u) => ({
      userId: u.userId,
      rank: u.rank,
      points: u.points,
      margin: u.margin,
      totalPoints: u.totalPoints,
      totalMargin: u.totalMargin,
    }))
    .sort(order)
  week = rankRows(perUser.map((u) => ({ ...u, points: u.weekPoints, margin: u.weekMargin })))
    .map((u) => ({
      userId: u.userId,
      rank: u.rank,
      points: u.points,
      margin: u.margin,
      totalPoints: u.totalPoints,
      totalMargin: u.totalMargin,
    }))
    .sort(order)
  cached = (
    await buildApp({
      config: testConfig({ STATIC_DIR: t.staticDir, READ_CACHE_MS: 60_000 }),
      db: t.db,
      engine: engine(),
      clock: t.clock,
    })
  ).app
  await cached.ready()
}, 120_000)
afterAll(async () => {
  await cached.close()
  await t.close()
})

const pick = (r: Expected): Expected => ({
  userId: r.userId,
  rank: r.rank,
  points: r.points,
  margin: r.margin,
  totalPoints: r.totalPoints,
  totalMargin: r.totalMargin,
})

async function pageThrough(query: string, expected: Expected[], app = t.app) {
  const pages = Math.ceil(expected.length / LADDER_PAGE_SIZE)
  for (let page = 1; page <= pages + 1; page++) {
    const res = await app.inject({
      url: `/api/bbl/rankings/${leagueId}/rankings?page=${page}${query}`,
      headers: { cookie: boss.cookie },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json().success
    const want = expected.slice((page - 1) * LADDER_PAGE_SIZE, page * LADDER_PAGE_SIZE)
    expect(body.rankings.map(pick), `page ${page}`).toEqual(want)
    expect(body.nextPage, `page ${page}`).toBe(page < pages ? page + 1 : null)
    expect(body.user).toMatchObject(expected.find((r) => r.userId === boss.id)!)
  }
}

/** Rank groups that a page boundary cuts through: the hard case for paged shared ranks. */
const tiesAcrossPages = (rows: Expected[]) =>
  rows.filter((r, i) => i > 0 && i % LADDER_PAGE_SIZE === 0 && rows[i - 1]!.rank === r.rank).length

describe('a league ladder of thousands', () => {
  it('has the league it was built for', () => {
    expect(overall).toHaveLength(MEMBERS + 1)
    // Enough equal scores to test shared ranks, some of them split by a page boundary.
    expect(new Set(overall.map((r) => r.rank)).size).toBeLessThan(overall.length / 2)
    expect(tiesAcrossPages(overall)).toBeGreaterThan(0)
    expect(tiesAcrossPages(week)).toBeGreaterThan(0)
    // The margin separates some equal points (else the test would not check its order).
    expect(
      overall.some(
        (r, i) =>
          i > 0 && overall[i - 1]!.points === r.points && overall[i - 1]!.margin !== r.margin,
      ),
    ).toBe(true)
  })

  it('pages the overall ladder (from the start week) in agreement with the reference', async () => {
    await pageThrough('', overall)
  })

  it(`pages the week ${WEEK} ladder in agreement with the reference`, async () => {
    await pageThrough(`&round=${WEEK}`, week)
  })

  it('serves the same pages from the big-league ladder cache', async () => {
    await pageThrough('', overall, cached)
    await pageThrough(`&round=${WEEK}`, week, cached)
  })

  it("draws My season's league charts for a league of thousands, equal to its ladders (issue 31)", async () => {
    const res = await t.app.inject({
      url: `/api/bbl/season/leagues/${leagueId}`,
      headers: { cookie: boss.cookie },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json().success as SeasonLeague
    expect(body.rounds[0]!.round).toBe(START_ROUND)
    // The week ladder's members and numbers: the boss's points, the league's average and best.
    const w = body.rounds.find((r) => r.round === WEEK)!
    const mine = week.find((r) => r.userId === boss.id)!
    expect(w).toMatchObject({
      points: mine.points,
      tippers: week.length,
      average: averageOf(
        week.reduce((a, r) => a + r.points, 0),
        week.length,
      ),
      best: Math.max(...week.map((r) => r.points)),
    })
    // After the last week played, the rank on the league's overall ladder (from its start week).
    expect(body.rounds.at(-1)!.rank).toBe(overall.find((r) => r.userId === boss.id)!.rank)
    // The same answer from the kept groups.
    const again = await cached.inject({
      url: `/api/bbl/season/leagues/${leagueId}`,
      headers: { cookie: boss.cookie },
    })
    expect(again.json().success).toEqual(body)
  })

  it(`names week ${WEEK}'s winners by walking the round's ranking, as the member join does (issue 31)`, async () => {
    // More than HONOURS_WALK_FROM members: the route walks each round's ranking.
    expect(MEMBERS + 1).toBeGreaterThan(HONOURS_WALK_FROM)
    const res = await t.app.inject({
      url: `/api/bbl/league/${leagueId}/honours`,
      headers: { cookie: boss.cookie },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json().success as LeagueHonoursResponse
    const firsts = week.filter((r) => r.rank === 1)
    const h = body.rounds.find((r) => r.round === WEEK)!
    expect(h).toMatchObject({
      points: firsts[0]!.points,
      margin: firsts[0]!.margin,
      winnerCount: firsts.length,
    })
    expect(h.winners.map((w) => w.userId)).toEqual(
      firsts.slice(0, HONOURS_WINNERS_MAX).map((r) => r.userId),
    )
    // Every completed round from the start week, equal to the small leagues' statement.
    const joined = toRounds(
      await honoursByMembers(t.db, {
        leagueId,
        competitionId,
        startRound: START_ROUND,
        namesMax: HONOURS_WINNERS_MAX,
      }),
    )
    expect(body.rounds).toEqual(joined)
    expect(body.rounds.length).toBeGreaterThanOrEqual(2)
  })
})

/**
 * A new app over the same database with the production ladder cache on, counting the ladder
 * builds it sends to the database (the one statement that aggregates a league's members).
 */
async function countingApp(marker = 'WITH scores AS', readCacheMs = 60_000) {
  const { app, sent } = await appCountingStatements(t, marker, { READ_CACHE_MS: readCacheMs })
  return { app, builds: sent }
}

const scoresVersion = async () =>
  (
    await t.db
      .selectFrom('competitions')
      .select('scores_version')
      .where('id', '=', competitionId)
      .executeTakeFirstOrThrow()
  ).scores_version

/** `n` reads of the overall ladder at once, pages spread over the whole ladder. */
function crowd(app: FastifyInstance, n: number) {
  const pages = Math.ceil(overall.length / LADDER_PAGE_SIZE)
  return Promise.all(
    Array.from({ length: n }, (_, i) => {
      const page = 1 + ((i * 37) % pages)
      return app
        .inject({
          url: `/api/bbl/rankings/${leagueId}/rankings?page=${page}`,
          headers: { cookie: boss.cookie },
        })
        .then((res) => ({ page, res }))
    }),
  )
}

function expectRightPages(answers: Awaited<ReturnType<typeof crowd>>, versions: number[]) {
  for (const { page, res } of answers) {
    expect(res.statusCode, `page ${page}`).toBe(200)
    const body = res.json().success
    const want = overall.slice((page - 1) * LADDER_PAGE_SIZE, page * LADDER_PAGE_SIZE)
    expect(body.rankings.map(pick), `page ${page}`).toEqual(want)
    expect(body.user).toMatchObject(overall.find((r) => r.userId === boss.id)!)
    expect(versions).toContain(body.scoresVersion)
  }
}

async function until(what: string, done: () => boolean, ms = 20_000) {
  const end = Date.now() + ms
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Reads one page until the ladder answers at `version` (its build finished). */
async function servedAt(app: FastifyInstance, version: number) {
  let seen = -1
  const end = Date.now() + 20_000
  while (seen !== version) {
    if (Date.now() > end) throw new Error(`still served at ${seen}, not ${version}`)
    const res = await app.inject({
      url: `/api/bbl/rankings/${leagueId}/rankings?page=1`,
      headers: { cookie: boss.cookie },
    })
    expect(res.statusCode).toBe(200)
    seen = res.json().success.scoresVersion
    if (seen !== version) await new Promise((r) => setTimeout(r, 20))
  }
}

// Issue 29: a cold big ladder (a process just started, a result just in) is built once, ahead of
// its readers where it can be, and every reader meanwhile gets an answer, never an error.
describe("a big league's My season chart under a crowd", () => {
  it('ranks every view of a big league from one build, kept once (decision 038)', async () => {
    const { app, builds } = await countingApp()
    try {
      await pageThrough('', overall, app)
      await pageThrough(`&round=${WEEK}`, week, app)
      // Another week and the overall view again: ranked from the same kept league.
      const res = await app.inject({
        url: `/api/bbl/rankings/${leagueId}/rankings?page=1&round=${WEEK - 1}`,
        headers: { cookie: boss.cookie },
      })
      expect(res.statusCode).toBe(200)
      expect(builds()).toBe(1)
    } finally {
      await app.close()
    }
    // Held by its members, whatever the views read.
    const members = MEMBERS + 1
    const reads = new LeaguesReads(t.db, 60_000)
    const at = {
      competitionId,
      leagueId,
      startRound: START_ROUND,
      scoresVersion: await scoresVersion(),
      numUsers: members,
    }
    for (const round of [null, WEEK, WEEK - 1, 1]) await reads.ladder({ ...at, round })
    expect(reads.bigLeagueMembersHeld()).toBe(members)
  })

  it("is drawn from the ladder's kept league: one build for both, kept past READ_CACHE_MS until the scores change; readers never wait", async () => {
    // A short READ_CACHE_MS, as in production (2 s): with a plain TTL cache every reader after
    // it waited for a rebuild of seconds at 1M (the bench's p99 of 4.9 s).
    const { app, builds } = await countingApp('WITH scores AS', 50)
    const read = () =>
      app
        .inject({ url: `/api/bbl/season/leagues/${leagueId}`, headers: { cookie: boss.cookie } })
        .then((res) => {
          expect(res.statusCode).toBe(200)
          return res.json().success as SeasonLeague
        })
    try {
      const first = await read()
      expect(builds()).toBe(1)
      // The ladder's pages come from the same kept league: no build of their own.
      await pageThrough('', overall, app)
      expect(builds()).toBe(1)
      await new Promise((r) => setTimeout(r, 120))
      // Past the TTL, at the same scores and members: the kept chart, no rebuild.
      for (const answer of await Promise.all(Array.from({ length: 20 }, read)))
        expect(answer).toEqual(first)
      expect(builds()).toBe(1)
      // New scores: readers are answered at once (the kept chart or the new one) and one
      // rebuild runs behind them.
      await t.db
        .updateTable('competitions')
        .set((eb) => ({ scores_version: eb('scores_version', '+', 1) }))
        .where('id', '=', competitionId)
        .execute()
      await new Promise((r) => setTimeout(r, 120)) // the current competition's own cache
      await Promise.all(Array.from({ length: 20 }, read))
      await until('the rebuild after the scores changed', () => builds() === 2)
      expect(await read()).toEqual(first)
      expect(builds()).toBe(2)
    } finally {
      await app.close()
    }
  })

  it('is ready once the start-up warm-up has built the ladder: its first reader reads no members', async () => {
    // Every statement that reads the league's members with their scores: the ladder's build
    // (leagueScores), and before the chart was drawn from it, the chart's own (2026-11-28).
    const { app, builds: memberReads } = await countingApp('league_members', 50)
    try {
      await app.ready()
      await until('the start-up warm-up of the big ladders', () => memberReads() === 1)
      const res = await app.inject({
        url: `/api/bbl/season/leagues/${leagueId}`,
        headers: { cookie: boss.cookie },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().success.rounds.at(-1).rank).toBe(
        overall.find((r) => r.userId === boss.id)!.rank,
      )
      expect(memberReads()).toBe(1)
    } finally {
      await app.close()
    }
  })
})

describe('a cold big ladder under a crowd', () => {
  it('builds it once for a process that just started and a crowd reading at once', async () => {
    const { app, builds } = await countingApp()
    try {
      // ready() starts the start-up warm-up without waiting for it; the crowd arrives with it.
      await app.ready()
      const answers = await crowd(app, 150)
      expectRightPages(answers, [await scoresVersion()])
      expect(builds()).toBe(1)
    } finally {
      await app.close()
    }
  })

  it('builds the next version once after a result, ahead of its readers; readers never wait', async () => {
    const { app, builds } = await countingApp()
    // A result correction that changes no number but moves the scores version, announced on
    // the push channel as every result is (decision 015).
    const match = await t.db
      .selectFrom('matches')
      .select('id')
      .where('competition_id', '=', competitionId)
      .where('outcome', 'is not', null)
      .executeTakeFirstOrThrow()
    const result = () =>
      t.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('competitions')
          .set((eb) => ({ scores_version: eb('scores_version', '+', 1) }))
          .where('id', '=', competitionId)
          .execute()
        await publishEvent(trx, { type: 'result', matchId: match.id, change: 'corrected' }, NOW)
      })
    try {
      await app.ready()
      await until('the start-up warm-up', () => builds() === 1)
      const v = await scoresVersion()
      expectRightPages(await crowd(app, 20), [v])
      expect(builds()).toBe(1)

      // A crowd reading while the process hears of the result: every one answered, from the
      // held ladder or the new one, saying which; one rebuild between them and the warm-up.
      await result()
      expectRightPages(await crowd(app, 150), [v, v + 1])
      await until('the rebuild after the result', () => builds() === 2)
      await servedAt(app, v + 1)
      expectRightPages(await crowd(app, 150), [v + 1])
      expect(builds()).toBe(2)

      // With nobody reading, the process still starts the next version as it hears of it (the
      // count moves when the statement is sent); readers get the held one until it is built.
      await result()
      await until('the warm-up after the result', () => builds() === 3)
      await servedAt(app, v + 2)
      expectRightPages(await crowd(app, 150), [v + 2])
      expect(builds()).toBe(3)
    } finally {
      await app.close()
    }
  })
})
