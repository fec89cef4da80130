import fc from 'fast-check'
import { asRoundNumber, type RoundNumber } from '@tipping/contract/ids'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  rankRows,
  rankSeason,
  type RankedRegistration,
  type RankedRow,
  type ScoringMatch,
  type ScoringTip,
} from '@tipping/contract/rules/scoring'
import type { DatabaseHandle } from '../src/db/database.ts'
import type { Database } from '../src/db/schema.ts'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { ladderPage } from '../src/modules/leagues/queries.ts'
import { ScoresService } from '../src/modules/scores/service.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import {
  rescore,
  rescoreAfterResult,
  rescoreInTransaction,
} from '../src/modules/scoring/service.ts'
import { freshDatabase, twoSquadsAndAVenue } from './helpers.ts'

// GAME_RULES "Who is ranked" and "Scoring a round": whatever the order of events (registrations
// between results and after a round is over, tips, clears, lockouts, results and corrections,
// deactivations and reactivations, league joins and leaves), every number served (rankings
// overall and per round, snapshots, a league's ladder, overall and per round) equals what a
// full re-score from scratch gives at that moment, and what the contract's reference gives.
// Before tippers were placed as they registered, a late registrant was missing from the
// rankings until the next result, with overall_rank 0 and no margin for the rounds before them.
const RUNS = Number(process.env.SCORING_RUNS ?? 25)

type Event =
  | { kind: 'advance' }
  | { kind: 'result' | 'correct'; k: number; winner: 'home' | 'away' | null; sixes: number }
  | { kind: 'register' }
  | { kind: 'tip'; u: number; k: number; pick: 'home' | 'away'; margin: number | null }
  | { kind: 'clear' | 'deactivate' | 'reactivate' | 'join' | 'leave'; u: number; k: number }

interface Fixture {
  initialUsers: number
  golden: number | null
  rounds: { matches: number; marginIndex: number }[]
  events: Event[]
}

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'advance' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('result' as const, 'result' as const, 'correct' as const),
      k: fc.nat(),
      winner: fc.constantFrom('home' as const, 'away' as const, null, 'home' as const),
      sixes: fc.integer({ min: 0, max: 30 }),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: 'register' as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tip' as const),
      u: fc.nat(),
      k: fc.nat(),
      pick: fc.constantFrom('home' as const, 'away' as const),
      margin: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        'clear' as const,
        'deactivate' as const,
        'reactivate' as const,
        'join' as const,
        'leave' as const,
      ),
      u: fc.nat(),
      k: fc.nat(),
    }),
  },
)

const fixtureArb: fc.Arbitrary<Fixture> = fc.record({
  initialUsers: fc.integer({ min: 1, max: 4 }),
  golden: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  rounds: fc.array(fc.record({ matches: fc.integer({ min: 1, max: 4 }), marginIndex: fc.nat() }), {
    minLength: 1,
    maxLength: 3,
  }),
  events: fc.array(eventArb, { minLength: 1, maxLength: 24 }),
})

let handle: DatabaseHandle
let squads: [number, number]
let venue: number

beforeAll(async () => {
  handle = await freshDatabase()
  ;({ squads, venue } = await twoSquadsAndAVenue(handle.db))
})
afterAll(() => handle.close())

const HOUR = 3600_000
const seasonStart = Date.UTC(2025, 11, 1)

interface Match extends ScoringMatch {
  roundId: number
  startsAt: Date
  awaySquadId: number
}

/** What the test knows of the world, from which the reference scores. */
interface World {
  competitionId: number
  leagueId: number
  rounds: { id: number; number: RoundNumber; isGoldenWeek: boolean }[]
  matches: Match[]
  registrations: RankedRegistration[]
  tips: Map<string, ScoringTip>
  members: Set<number>
  now: number
}

async function setUp(f: Fixture): Promise<World> {
  const db = handle.db
  await sql`TRUNCATE competitions, users, tips, round_scores, standings, rank_gaps
    RESTART IDENTITY CASCADE`.execute(db)
  const competitionId = (
    await db
      .insertInto('competitions')
      .values({
        sport: 'bbl',
        identifier: 'p-bbl-1',
        season: 1,
        name: 'P',
        year: 'x',
        golden_week_round: f.golden,
        ladder_points: '{}',
        assumptions: '[]',
        sources: '[]',
        is_current: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  const world: World = {
    competitionId,
    leagueId: 0,
    rounds: [],
    matches: [],
    registrations: [],
    tips: new Map(),
    members: new Set(),
    now: Date.UTC(2025, 10, 1),
  }
  let number = 0
  for (const [ri, r] of f.rounds.entries()) {
    const round = await db
      .insertInto('rounds')
      .values({ competition_id: competitionId, number: ri + 1, label: `Week ${ri + 1}` })
      .returning('id')
      .executeTakeFirstOrThrow()
    world.rounds.push({
      id: round.id,
      number: asRoundNumber(ri + 1),
      isGoldenWeek: f.golden === ri + 1,
    })
    for (let mi = 0; mi < r.matches; mi++) {
      const startsAt = new Date(seasonStart + number * 24 * HOUR)
      const isMarginGame = mi === r.marginIndex % r.matches
      const row = await db
        .insertInto('matches')
        .values({
          competition_id: competitionId,
          round_id: round.id,
          number: ++number,
          status: 'scheduled',
          starts_at: startsAt,
          venue_id: venue,
          home_squad_id: squads[0],
          away_squad_id: squads[1],
          is_margin_game: isMarginGame,
          assumed: '[]',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      world.matches.push({
        id: row.id,
        roundId: round.id,
        roundNumber: ri + 1,
        status: 'scheduled',
        winnerSquadId: null,
        isMarginGame,
        sixes: null,
        startsAt,
        awaySquadId: squads[1],
      })
    }
  }
  for (let i = 0; i < f.initialUsers; i++) await register(world)
  // A season import scores the fixture at once (everyone on 0).
  await rescore(db, competitionId)
  const firstUser = world.registrations[0]!.userId
  world.leagueId = (
    await db
      .insertInto('leagues')
      .values({
        competition_id: competitionId,
        user_id: firstUser,
        name: 'League',
        code: 'LEAGUECODE1',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  await join(world, firstUser)
  return world
}

async function register(world: World, db: Database = handle.db) {
  const n = world.registrations.length
  const user = await db
    .insertInto('users')
    .values({ email: `p${n}@x.test`, roles: ['ROLE_USER_BBL'], first_name: 'P', last_name: `${n}` })
    .returning('id')
    .executeTakeFirstOrThrow()
  const at = new Date(world.now)
  await db.transaction().execute((trx) => enterCurrentCompetitions(trx, user.id, ['bbl'], at))
  world.registrations.push({ userId: user.id, registeredAt: at, active: true })
}

async function join(world: World, userId: number) {
  await handle.db
    .insertInto('league_members')
    .values({ league_id: world.leagueId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute()
  world.members.add(userId)
}

const pick = <T>(items: readonly T[], k: number): T | undefined =>
  items.length === 0 ? undefined : items[k % items.length]

async function apply(world: World, e: Event) {
  const db = handle.db
  const active = world.registrations.filter((r) => r.active)
  const open = world.matches.filter((m) => m.startsAt.getTime() > world.now)
  switch (e.kind) {
    case 'advance': {
      // to an hour after the next start; the lockout marks started matches active
      const next = open[0]
      if (!next) return
      world.now = next.startsAt.getTime() + HOUR
      for (const m of world.matches)
        if (m.status === 'scheduled' && m.startsAt.getTime() <= world.now) m.status = 'active'
      await db
        .updateTable('matches')
        .set({ status: 'active' })
        .where('status', '=', 'scheduled')
        .where('starts_at', '<=', new Date(world.now))
        .execute()
      return
    }
    case 'result':
    case 'correct': {
      const m = pick(
        world.matches.filter((x) =>
          e.kind === 'result' ? x.status === 'active' : x.status === 'complete',
        ),
        e.k,
      )
      if (!m) return
      const winner = e.winner === null ? null : e.winner === 'home' ? squads[0] : squads[1]
      const before = { id: m.id, complete: m.status === 'complete', winnerSquadId: m.winnerSquadId }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('matches')
          .set({
            status: 'complete',
            winner_squad_id: winner,
            outcome: winner ? 'win' : 'no_result',
            sixes: e.sixes,
          })
          .where('id', '=', m.id)
          .execute()
        // On PostgreSQL through the helper connections, as the app does.
        await rescoreAfterResult(
          trx,
          world.competitionId,
          m.roundId,
          before,
          handle.engine === 'postgres' ? db : undefined,
        )
      })
      Object.assign(m, { status: 'complete', winnerSquadId: winner, sixes: e.sixes })
      return
    }
    case 'register':
      return register(world)
    case 'tip':
    case 'clear': {
      const u = pick(active, e.u)
      const m = pick(open, e.k)
      if (!u || !m) return
      const key = `${u.userId}:${m.id}`
      if (e.kind !== 'tip') {
        await db
          .deleteFrom('tips')
          .where('user_id', '=', u.userId)
          .where('match_id', '=', m.id)
          .execute()
        world.tips.delete(key)
        return
      }
      const tip: ScoringTip = {
        userId: u.userId,
        matchId: m.id,
        squadId: e.pick === 'home' ? squads[0] : squads[1],
        margin: m.isMarginGame ? e.margin : null,
        isAutoTip: false,
      }
      await db
        .insertInto('tips')
        .values({
          user_id: tip.userId,
          match_id: tip.matchId,
          round_id: m.roundId,
          squad_id: tip.squadId,
          margin: tip.margin,
          is_auto_tip: false,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'match_id'])
            .doUpdateSet({ squad_id: tip.squadId, margin: tip.margin }),
        )
        .execute()
      world.tips.set(key, tip)
      return
    }
    case 'deactivate':
    case 'reactivate': {
      const u = pick(
        world.registrations.filter((r) => r.active === (e.kind === 'deactivate')),
        e.u,
      )
      if (!u) return
      await db
        .updateTable('users')
        .set({ deactivated_at: e.kind === 'deactivate' ? new Date(world.now) : null })
        .where('id', '=', u.userId)
        .execute()
      u.active = e.kind === 'reactivate'
      return
    }
    case 'join': {
      const u = pick(world.registrations, e.u)
      if (u) await join(world, u.userId)
      return
    }
    case 'leave': {
      const u = pick([...world.members], e.u)
      if (u === undefined) return
      await db
        .deleteFrom('league_members')
        .where('league_id', '=', world.leagueId)
        .where('user_id', '=', u)
        .execute()
      world.members.delete(u)
    }
  }
}

interface Served {
  available: boolean
  overall: RankedRow[]
  byRound: Record<number, RankedRow[]>
  snapshots: Record<
    string,
    { round_points: number; overall_points: number; overall_rank: number; total_users: number }
  >
  ladder: Record<string, RankedRow[]>
}

/** Everything the rankings, snapshot and ladder reads serve, through `db`. */
async function read(db: Database, world: World): Promise<Served> {
  const scores = new ScoresService(db, new CurrentCompetitions(db))
  const viewer = world.registrations[0]!.userId
  const list = async (round?: RoundNumber) => {
    const rows: RankedRow[] = []
    let available = true
    for (let page: number | null = 1; page !== null;) {
      const res = await scores.rankings('bbl', viewer, { page, limit: 20, round })
      available = res.available
      for (const r of JSON.parse(res.rankingsJson) as {
        rank: number
        userId: number
        points: number
        margin: number
      }[])
        rows.push({ userId: r.userId, points: r.points, margin: r.margin, rank: r.rank })
      page = res.nextPage
    }
    return { rows, available }
  }
  const overall = await list()
  const byRound: Served['byRound'] = {}
  for (const r of world.rounds) byRound[r.number] = (await list(r.number)).rows
  const snapshots: Served['snapshots'] = {}
  for (const u of world.registrations.filter((x) => x.active))
    for (const r of world.rounds) {
      const s = await scores.snapshot('bbl', u.userId, r.number)
      snapshots[`${u.userId}:${r.number}`] = {
        round_points: s.round_points,
        overall_points: s.overall_points,
        overall_rank: s.overall_rank,
        total_users: s.total_users,
      }
    }
  const ladder: Served['ladder'] = {}
  for (const round of [null, ...world.rounds.map((r) => r.number)]) {
    const rows = await ladderPage(db, {
      leagueId: world.leagueId,
      competitionId: world.competitionId,
      startRound: 1,
      roundNumber: round,
      offset: 0,
      limit: 1000,
    })
    ladder[String(round)] = rows.map((r) => ({
      userId: r.user_id,
      points: r.points,
      margin: r.margin,
      rank: r.rank ?? 0,
    }))
  }
  return { available: overall.available, overall: overall.rows, byRound, snapshots, ladder }
}

/** The same reads after a full re-score from scratch, which is then rolled back. */
async function readRescored(world: World): Promise<Served> {
  let served: Served | undefined
  await handle.db
    .transaction()
    .execute(async (trx) => {
      await rescoreInTransaction(trx, world.competitionId)
      served = await read(trx, world)
      throw new RolledBack()
    })
    .catch((e: unknown) => {
      if (!(e instanceof RolledBack)) throw e
    })
  return served!
}
class RolledBack extends Error {}

/** What the reference says every read must serve. */
function expected(world: World): Served {
  const ref = rankSeason({
    registrations: world.registrations,
    rounds: world.rounds,
    matches: world.matches,
    tips: [...world.tips.values()],
  })
  const available = world.matches.some((m) => m.status === 'complete')
  const byRound: Served['byRound'] = {}
  for (const r of world.rounds)
    byRound[r.number] = available ? ref.roundRankings.get(r.number)! : []
  const overallOf = new Map(ref.standings.map((s) => [s.userId, s]))
  const snapshots: Served['snapshots'] = {}
  for (const u of world.registrations.filter((x) => x.active))
    for (const r of world.rounds) {
      const own = ref.rounds.find((s) => s.userId === u.userId && s.roundNumber === r.number)!
      snapshots[`${u.userId}:${r.number}`] = {
        round_points: own.points,
        overall_points: overallOf.get(u.userId)!.points,
        overall_rank: overallOf.get(u.userId)!.rank,
        total_users: ref.totalUsers,
      }
    }
  const activeMembers = world.registrations.filter((r) => r.active && world.members.has(r.userId))
  const ladder: Served['ladder'] = {}
  for (const round of [null, ...world.rounds.map((r) => r.number)]) {
    const rows = activeMembers.map((m) => {
      const own = ref.rounds.filter(
        (s) => s.userId === m.userId && (round === null || s.roundNumber === round),
      )
      return {
        userId: m.userId,
        points: own.reduce((n, s) => n + s.points, 0),
        margin: own.reduce((n, s) => n + s.margin, 0),
      }
    })
    ladder[String(round)] = rankRows(rows)
      .sort((a, b) => a.rank - b.rank || a.userId - b.userId)
      .map(({ userId, points, margin, rank }) => ({ userId, points, margin, rank }))
  }
  return {
    available,
    overall: available ? ref.standings : [],
    byRound,
    snapshots,
    ladder,
  }
}

describe('every tipper ranked from the moment they register', () => {
  it(`served numbers equal a full re-score and the reference after every event (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fixtureArb, async (f) => {
        const world = await setUp(f)
        for (const [i, e] of f.events.entries()) {
          await apply(world, e)
          const served = await read(handle.db, world)
          expect(served, `after event ${i} ${JSON.stringify(e)}`).toEqual(expected(world))
          expect(served, `re-scored after event ${i}`).toEqual(await readRescored(world))
        }
      }),
      { numRuns: RUNS },
    )
  }, 900_000)

  it('places a tipper by named statements on their generic plans, also once a result has swapped the tables they name', async () => {
    const world = await setUp({
      initialUsers: 2,
      golden: null,
      rounds: [
        { matches: 2, marginIndex: 0 },
        { matches: 1, marginIndex: 0 },
      ],
      events: [],
    })
    const registerAroundAResult = async (db: Database) => {
      await register(world, db)
      await apply(world, { kind: 'advance' })
      await apply(world, { kind: 'result', k: 0, winner: 'home', sixes: 7 })
      await register(world, db)
    }
    if (handle.engine === 'postgres') {
      const plans = async (c: Database) =>
        (
          await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
            SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
            WHERE statement LIKE '/* prepared */ WITH%'`.execute(c)
        ).rows
      // One connection for both registrations: PostgreSQL keeps named statements per session,
      // and this one may have run them in the test before.
      await handle.db.connection().execute(async (c) => {
        const before = new Map((await plans(c)).map((p) => [p.statement, p.generic_plans]))
        await registerAroundAResult(c)
        const after = await plans(c)
        const runs = after.map((p) => p.generic_plans - (before.get(p.statement) ?? 0))
        // The rounds' statement and the standings' one, each run by both registrations.
        expect(runs.filter((n) => n > 0)).toEqual([2, 2])
        expect(after.map((p) => p.custom_plans)).toEqual(after.map(() => 0))
      })
    } else await registerAroundAResult(handle.db)
    expect(await read(handle.db, world)).toEqual(expected(world))
  })
})
