import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rankSeason, type ScoringTip } from '@tipping/contract/rules/scoring'
import { averageOf, leagueSeason, type SeasonMatch } from '@tipping/contract/rules/season'
import type { DatabaseHandle } from '../src/db/database.ts'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { systemClock } from '../src/clock.ts'
import { AppError } from '../src/errors.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import { LeaguesService } from '../src/modules/leagues/service.ts'
import { SeasonLeagues } from '../src/modules/season/service.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import { freshDatabase } from './helpers.ts'

// Issue 31 "the same for each of my leagues" on My season: GET /api/{sport}/season/leagues/{id}'s
// service (SeasonLeagues over the real LeaguesService, so the membership check is the route's)
// must equal the contract's leagueSeason for every member of the league, on random seasons: late
// registrations (before and after the scoring), deactivated members, ties, auto-tips, no results,
// Golden Week, a random start round and a random subset of tippers in the league. The generator
// is league-honours.property.test.ts's. SEASON_LEAGUE_RUNS raises the number of seasons.
const RUNS = Number(process.env.SEASON_LEAGUE_RUNS ?? 40)
const SQUADS = 4

interface GenSeason {
  users: number
  /** Per user: registered before the season (null), or n half-days after match 1 starts. */
  registeredAt: (number | null)[]
  deactivated: boolean[]
  goldenRound: number | null
  rounds: {
    matches: {
      status: 'scheduled' | 'active' | 'complete'
      home: number
      away: number
      winner: 'home' | 'away' | null
      sixes: number | null
      /** Starts together with the match before it (the match number then orders them). */
      sameStart: boolean
    }[]
    marginIndex: number
  }[]
  tips: { user: number; slot: number; pick: 'home' | 'away'; margin: number | null }[]
  /** Which tippers are in the league, its start round, and the walk's depth. */
  inLeague: boolean[]
  startRound: number
}

const matchArb = fc
  .record({
    status: fc.constantFrom(
      'scheduled' as const,
      'active' as const,
      'complete' as const,
      'complete' as const,
      'complete' as const,
    ),
    home: fc.integer({ min: 0, max: SQUADS - 1 }),
    shift: fc.integer({ min: 1, max: SQUADS - 1 }),
    winner: fc.constantFrom(
      'home' as const,
      'away' as const,
      null,
      'home' as const,
      'away' as const,
    ),
    sixes: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null, freq: 4 }),
    sameStart: fc.boolean(),
  })
  .map(({ home, shift, ...m }) => ({ ...m, home, away: (home + shift) % SQUADS }))

const seasonArb: fc.Arbitrary<Omit<GenSeason, 'inLeague' | 'startRound'>> = fc
  .record({
    users: fc.integer({ min: 1, max: 7 }),
    rounds: fc.array(
      fc.record({
        matches: fc.array(matchArb, { minLength: 1, maxLength: 6 }),
        marginIndex: fc.nat(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    golden: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  })
  .chain(({ users, rounds, golden }) => {
    const matchCount = rounds.reduce((n, r) => n + r.matches.length, 0)
    return fc.record({
      users: fc.constant(users),
      rounds: fc.constant(rounds),
      goldenRound: fc.constant(golden),
      registeredAt: fc.array(
        fc.option(fc.integer({ min: 1, max: 2 * matchCount }), { nil: null, freq: 3 }),
        { minLength: users, maxLength: users },
      ),
      deactivated: fc.array(
        fc.nat(5).map((n) => n === 0),
        {
          minLength: users,
          maxLength: users,
        },
      ),
      tips: fc.array(
        fc.record({
          user: fc.integer({ min: 0, max: users - 1 }),
          slot: fc.integer({ min: 0, max: matchCount - 1 }),
          pick: fc.constantFrom('home' as const, 'away' as const),
          margin: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
        }),
        { maxLength: 60 },
      ),
    })
  })

let handle: DatabaseHandle
let squads: number[]
let venue: number

beforeAll(async () => {
  handle = await freshDatabase()
  const rows = await handle.db
    .insertInto('squads')
    .values(
      Array.from({ length: SQUADS }, (_, i) => `S${i}`).map((code) => ({
        sport: 'bbl',
        code,
        name: code,
        short_name: code,
        nickname: code,
        colour: '#000000',
        second_colour: '#ffffff',
      })),
    )
    .returning('id')
    .execute()
  squads = rows.map((r) => r.id)
  venue = (
    await handle.db
      .insertInto('venues')
      .values({ key: 'v', name: 'V', city: 'C', state: 'S', timezone: 'UTC' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
})
afterAll(() => handle.close())

const DAY = 24 * 3600_000
const SEASON_START = Date.UTC(2025, 11, 1)

/** Loads the season as the product would hold it, scores it, deactivates some tippers. */
async function load(season: Omit<GenSeason, 'inLeague' | 'startRound'> & { late: number }) {
  const db = handle.db
  await sql`TRUNCATE competitions, users, tips, round_scores, standings, rank_gaps RESTART IDENTITY CASCADE`.execute(
    db,
  )
  const competition = await db
    .insertInto('competitions')
    .values({
      sport: 'bbl',
      identifier: 's-bbl-1',
      season: 1,
      name: 'S',
      year: 'x',
      golden_week_round: season.goldenRound,
      ladder_points: '{}',
      assumptions: '[]',
      sources: '[]',
      is_current: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const users = await db
    .insertInto('users')
    .values(Array.from({ length: season.users }, (_, i) => ({ email: `s${i}@x.test`, roles: [] })))
    .returning('id')
    .execute()

  // Matches start a day apart, or at the same time as the one before (sameStart).
  const matches: (SeasonMatch & { awaySquadId: number; homeSquadId: number })[] = []
  let number = 0
  let day = 0
  for (const [ri, r] of season.rounds.entries()) {
    const round = await db
      .insertInto('rounds')
      .values({ competition_id: competition.id, number: ri + 1, label: `Week ${ri + 1}` })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const [mi, m] of r.matches.entries()) {
      if (!(m.sameStart && number > 0)) day++
      const startsAt = new Date(SEASON_START + (day - 1) * DAY)
      const home = squads[m.home]!
      const away = squads[m.away]!
      const winner =
        m.status === 'complete' && m.winner ? (m.winner === 'home' ? home : away) : null
      const isMargin = mi === r.marginIndex % r.matches.length
      const sixes = m.status === 'complete' ? m.sixes : null
      const row = await db
        .insertInto('matches')
        .values({
          competition_id: competition.id,
          round_id: round.id,
          number: ++number,
          status: m.status,
          starts_at: startsAt,
          venue_id: venue,
          home_squad_id: home,
          away_squad_id: away,
          is_margin_game: isMargin,
          winner_squad_id: winner,
          outcome: m.status === 'complete' ? (winner ? 'win' : 'no_result') : null,
          sixes,
          assumed: '[]',
        })
        .returning(['id', 'round_id'])
        .executeTakeFirstOrThrow()
      matches.push({
        id: row.id,
        roundNumber: ri + 1,
        status: m.status,
        winnerSquadId: winner,
        isMarginGame: isMargin,
        sixes,
        startsAt,
        number,
        homeSquadId: home,
        awaySquadId: away,
      })
    }
  }

  // A round is complete when all its matches are, active once one has started.
  await sql`UPDATE rounds r SET status = CASE
      WHEN NOT EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status <> 'complete') THEN 'complete'
      WHEN EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status <> 'scheduled') THEN 'active'
      ELSE 'scheduled' END`.execute(db)

  const registrations = users.map((u, i) => {
    const halfDays = season.registeredAt[i] ?? null
    return {
      userId: u.id,
      registeredAt:
        halfDays === null
          ? new Date(Date.UTC(2025, 10, 1))
          : new Date(SEASON_START + (halfDays - 1) * 12 * 3600_000),
      active: !season.deactivated[i],
    }
  })
  for (const r of registrations)
    await db
      .transaction()
      .execute((trx) => enterCurrentCompetitions(trx, r.userId, ['bbl'], r.registeredAt))

  // The product only takes a tip before the match starts, from a registered user.
  const tipMap = new Map<string, ScoringTip>()
  for (const t of season.tips) {
    const m = matches[t.slot]!
    const r = registrations[t.user]!
    if (!(r.registeredAt < m.startsAt)) continue
    tipMap.set(`${r.userId}:${m.id}`, {
      userId: r.userId,
      matchId: m.id,
      squadId: t.pick === 'home' ? m.homeSquadId : m.awaySquadId,
      margin: t.margin,
      isAutoTip: false,
    })
  }
  const tips = [...tipMap.values()]
  const roundIdOf = new Map(
    (await db.selectFrom('matches').select(['id', 'round_id']).execute()).map((m) => [
      m.id,
      m.round_id,
    ]),
  )
  if (tips.length > 0)
    await db
      .insertInto('tips')
      .values(
        tips.map((t) => ({
          user_id: t.userId,
          match_id: t.matchId,
          round_id: roundIdOf.get(t.matchId)!,
          squad_id: t.squadId,
          margin: t.margin,
        })),
      )
      .execute()
  await rescore(db, competition.id)
  // Tippers who register after the scoring (placed at once, decision 010): no tips, every match
  // has started, so no auto-tips; margin = sixes on a finished margin game.
  const late =
    season.late === 0
      ? []
      : await db
          .insertInto('users')
          .values(
            Array.from({ length: season.late }, (_, i) => ({
              email: `late${i}@x.test`,
              roles: [],
            })),
          )
          .returning('id')
          .execute()
  const lateAt = new Date(SEASON_START + 400 * DAY)
  for (const u of late) {
    await db.transaction().execute((trx) => enterCurrentCompetitions(trx, u.id, ['bbl'], lateAt))
    registrations.push({ userId: u.id, registeredAt: lateAt, active: true })
  }
  for (const r of registrations.filter((r) => !r.active))
    await db
      .updateTable('users')
      .set({ deactivated_at: new Date(SEASON_START) })
      .where('id', '=', r.userId)
      .execute()

  const rounds = season.rounds.map((_, i) => ({
    number: i + 1,
    isGoldenWeek: season.goldenRound === i + 1,
  }))
  const reference = rankSeason({ registrations, rounds, matches, tips })
  return { registrations, rounds, matches, reference, competitionId: competition.id }
}

const fullArb = seasonArb.chain((s) =>
  fc.record({
    season: fc.constant(s),
    late: fc.integer({ min: 0, max: 2 }),
    inLeague: fc.array(
      fc.nat(3).map((n) => n > 0),
      { minLength: s.users + 2, maxLength: s.users + 2 },
    ),
    startRound: fc.integer({ min: 1, max: s.rounds.length }),
  }),
)

describe('My season league charts equal the reference', () => {
  it(`on ${RUNS} random seasons, for every member`, async () => {
    await fc.assert(
      fc.asyncProperty(fullArb, async ({ season, late, inLeague, startRound }) => {
        const db = handle.db
        const { registrations, matches, reference, competitionId } = await load({
          ...season,
          late,
        })
        const members = registrations.filter((_, i) => inLeague[i]).map((r) => r.userId)
        const owner = members[0] ?? registrations[0]!.userId
        const league = await db
          .insertInto('leagues')
          .values({
            competition_id: competitionId,
            user_id: owner,
            name: 'Charts',
            description: '',
            privacy: 'private',
            code: 'CHARTS1234',
            start_round: startRound,
            num_users: members.length,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (members.length > 0)
          await db
            .insertInto('league_members')
            .values(members.map((user_id) => ({ league_id: league.id, user_id })))
            .execute()
        const competitions = new CurrentCompetitions(db)
        const leagues = new LeaguesService(
          db,
          {
            clock: systemClock,
            appOrigin: 'http://x.test',
            invitesPerHour: 1,
            messagesPerHour: 1,
            messageRecipientsPerHour: 1,
          },
          competitions,
        )
        const service = new SeasonLeagues(db, leagues, 0)
        const active = registrations.filter((r) => r.active).map((r) => r.userId)
        // The chart's rounds: every round with a completed match.
        const played = [
          ...new Set(matches.filter((m) => m.status === 'complete').map((m) => m.roundNumber)),
        ].sort((a, b) => a - b)

        // A deactivated tipper cannot sign in: every active member is a possible caller.
        for (const userId of members.filter((m) => active.includes(m))) {
          const want = leagueSeason({
            userId,
            members: members.filter((m) => active.includes(m)),
            startRound,
            rounds: played,
            scores: reference.rounds,
          }).map((r) => ({
            round: r.roundNumber,
            points: r.points,
            tippers: r.tippers,
            average: averageOf(r.totalPoints, r.tippers),
            best: r.best,
            rank: r.rank,
          }))
          const got = await service.league('bbl', userId, league.id)
          expect(got.league).toEqual({ id: league.id, name: 'Charts', startRound })
          expect(got.rounds).toEqual(want)
        }

        // A tipper outside the (private) league is told it is not there, as by its other reads.
        const outsider = registrations.find((r) => !members.includes(r.userId))
        if (outsider) {
          const refused = await service.league('bbl', outsider.userId, league.id).then(
            () => null,
            (e: unknown) => e,
          )
          expect(refused).toBeInstanceOf(AppError)
          expect((refused as AppError).code).toBe('NOT_FOUND')
        }
      }),
      { numRuns: RUNS },
    )
  }, 600_000)
})
