import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import { headToHead, tipDifferences, type RoundStatus } from '@tipping/contract/rules/head-to-head'
import { autoTips, rankSeason, type ScoringTip } from '@tipping/contract/rules/scoring'
import type { SeasonMatch } from '@tipping/contract/rules/season'
import type { DatabaseHandle } from '../src/db/database.ts'
import { AppError } from '../src/errors.ts'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import { HeadToHeadService } from '../src/modules/leagues/head-to-head/service.ts'
import { refreshRoundStatuses } from '../src/modules/lifecycle/queries.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import { freshDatabase } from './helpers.ts'

// The league head-to-head (issue 31) as the server computes it (set-based SQL over two users'
// round_scores and effective tips) must equal the contract's reference (rules/head-to-head.ts)
// on any season: late registrations (rounds or matches one of the two was not there for),
// deactivated tippers (refused), ties on points broken by margin and full ties, auto-tips, rounds
// still in play, any league start round. HEAD_TO_HEAD_RUNS raises the number of seasons.

const RUNS = Number(process.env.HEAD_TO_HEAD_RUNS ?? 40)
const SQUADS = 4

interface GenSeason {
  /** The league's start round. */
  startRound: number
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
}

const matchArb = fc
  .record({
    // Mostly complete, so that whole rounds are decided; some still in play.
    status: fc.constantFrom(
      'scheduled' as const,
      'active' as const,
      ...Array.from({ length: 8 }, () => 'complete' as const),
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
    // Few sixes and close predictions: equal points split by margin, and full ties.
    sixes: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null, freq: 6 }),
    sameStart: fc.boolean(),
  })
  .map(({ home, shift, ...m }) => ({ ...m, home, away: (home + shift) % SQUADS }))

const seasonArb: fc.Arbitrary<GenSeason> = fc
  .record({
    users: fc.integer({ min: 2, max: 5 }),
    rounds: fc.array(
      fc.record({
        matches: fc.array(matchArb, { minLength: 1, maxLength: 4 }),
        marginIndex: fc.nat(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    golden: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  })
  .chain(({ users, rounds, golden }) => {
    const matchCount = rounds.reduce((n, r) => n + r.matches.length, 0)
    return fc.record({
      startRound: fc.integer({ min: 1, max: rounds.length }),
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
          margin: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null, freq: 6 }),
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
async function load(season: GenSeason) {
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
  for (const r of registrations.filter((r) => !r.active))
    await db
      .updateTable('users')
      .set({ deactivated_at: new Date(SEASON_START) })
      .where('id', '=', r.userId)
      .execute()

  // Round statuses as the lifecycle keeps them: complete when every match is.
  await refreshRoundStatuses(db, [...new Set(roundIdOf.values())])

  // Everyone joins the league, whenever they registered (a ladder counts from its start round).
  const league = await db
    .insertInto('leagues')
    .values({
      competition_id: competition.id,
      user_id: users[0]!.id,
      name: 'H2H',
      code: 'HEADTOHEAD',
      start_round: season.startRound,
      num_users: users.length,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('league_members')
    .values(users.map((u) => ({ league_id: league.id, user_id: u.id })))
    .execute()

  const rounds = season.rounds.map((_, i) => ({
    number: i + 1,
    isGoldenWeek: season.goldenRound === i + 1,
  }))
  const reference = rankSeason({ registrations, rounds, matches, tips })
  const effective = [...tips, ...autoTips(registrations, matches, tips)]
  const service = new HeadToHeadService(db, new CurrentCompetitions(db))
  return { registrations, rounds, matches, effective, reference, service, leagueId: league.id }
}

const match = (status: 'scheduled' | 'active' | 'complete', sixes: number | null) => ({
  status,
  home: 0,
  away: 1,
  winner: 'home' as const,
  sixes,
  sameStart: false,
})
/**
 * Always run, whatever the random seasons happen to hold: round 1 is won on margin (equal
 * points), round 2 is a full tie, round 3 is still in play, round 4 has not begun, and the third tipper registered
 * during round 1 (no tip on its match, auto-tips after).
 */
const TIES: GenSeason = {
  startRound: 1,
  users: 3,
  registeredAt: [null, null, 2],
  deactivated: [false, false, false],
  goldenRound: null,
  rounds: [
    { matches: [match('complete', 3)], marginIndex: 0 },
    { matches: [match('complete', 2)], marginIndex: 0 },
    { matches: [match('complete', 5), match('scheduled', null)], marginIndex: 1 },
    { matches: [match('scheduled', null)], marginIndex: 0 },
  ],
  tips: [
    { user: 0, slot: 0, pick: 'home', margin: 3 },
    { user: 1, slot: 0, pick: 'home', margin: 1 },
    { user: 0, slot: 1, pick: 'home', margin: 4 },
    { user: 1, slot: 1, pick: 'home', margin: 0 },
    { user: 0, slot: 2, pick: 'away', margin: null },
    { user: 1, slot: 2, pick: 'home', margin: null },
    { user: 0, slot: 3, pick: 'away', margin: 9 },
    { user: 1, slot: 3, pick: 'home', margin: 2 },
  ],
}

/** Each round's state as the lifecycle keeps it (lifecycle/queries.ts refreshRoundStatuses). */
const roundStatuses = (matches: SeasonMatch[]) =>
  new Map(
    [...new Set(matches.map((m) => m.roundNumber))].map((n) => {
      const mine = matches.filter((m) => m.roundNumber === n)
      const status: RoundStatus = mine.every((m) => m.status === 'complete')
        ? 'complete'
        : mine.every((m) => m.status === 'scheduled')
          ? 'scheduled'
          : 'active'
      return [n, status]
    }),
  )

describe('the head-to-head equals the reference', () => {
  it(`on ${RUNS} random seasons, every pair and every round`, async () => {
    await fc.assert(
      fc.asyncProperty(seasonArb, async (season) => {
        const { registrations, rounds, matches, effective, reference, service, leagueId } =
          await load(season)
        const statuses = roundStatuses(matches)
        const scoresOf = (userId: number) => reference.rounds.filter((s) => s.userId === userId)
        const caller = registrations[0]!.userId
        for (const ra of registrations)
          for (const rb of registrations) {
            if (ra.userId === rb.userId) continue
            const ask = (round?: number) =>
              service.read('bbl', caller, leagueId, {
                a: ra.userId,
                b: rb.userId,
                ...(round === undefined ? {} : { round: asRoundNumber(round) }),
              })
            if (!ra.active || !rb.active) {
              // A deactivated member is off the ladder: a 404 naming which of the two.
              const err = await ask().catch((e: unknown) => e)
              expect(err).toBeInstanceOf(AppError)
              expect((err as AppError).param).toBe(ra.active ? 'b' : 'a')
              continue
            }
            const ref = headToHead(
              scoresOf(ra.userId),
              scoresOf(rb.userId),
              season.startRound,
              statuses,
            )
            const actual = await ask()
            expect({
              a: { won: actual.a.won, points: actual.a.points, margin: actual.a.margin },
              b: { won: actual.b.won, points: actual.b.points, margin: actual.b.margin },
              drawn: actual.drawn,
              rounds: actual.rounds,
            }).toEqual({
              a: ref.a,
              b: ref.b,
              drawn: ref.drawn,
              rounds: ref.rounds.map((r) => ({
                round: r.roundNumber,
                complete: r.complete,
                a: r.a,
                b: r.b,
                winner: r.winner,
              })),
            })
            expect(actual.tips?.round ?? null).toBe(ref.rounds.at(-1)?.roundNumber ?? null)

            for (const r of rounds) {
              const got = (await ask(r.number)).tips!
              const inRound = matches.filter((m) => m.roundNumber === r.number)
              const want = tipDifferences(inRound, effective, ra.userId, rb.userId)
              const view = (t: ScoringTip | null, m: SeasonMatch) =>
                t === null
                  ? null
                  : {
                      squad: t.squadId,
                      margin: t.margin,
                      isAutoTip: t.isAutoTip,
                      correct: m.winnerSquadId === null ? null : t.squadId === m.winnerSquadId,
                    }
              expect(got).toEqual({
                round: r.number,
                agreed: want.agreed,
                differences: want.differences.map((d) => {
                  const m = inRound.find((x) => x.id === d.matchId)!
                  return {
                    match: d.matchId,
                    homeSquad: m.homeSquadId,
                    awaySquad: m.awaySquadId,
                    winnerSquad: m.winnerSquadId,
                    isMarginGame: m.isMarginGame,
                    sixes: m.sixes,
                    a: view(d.a, m),
                    b: view(d.b, m),
                  }
                }),
              })
              // Never a tip on a match that is not complete.
              for (const d of got.differences)
                expect(inRound.find((m) => m.id === d.match)?.status).toBe('complete')
            }
          }
      }),
      { numRuns: RUNS, examples: [[TIES]] },
    )
  }, 600_000)
})
