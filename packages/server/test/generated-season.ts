import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import { autoTips, rankSeason, type ScoringTip } from '@tipping/contract/rules/scoring'
import type { SeasonMatch } from '@tipping/contract/rules/season'
import type { DatabaseHandle } from '../src/db/database.ts'
import type { Database } from '../src/db/schema.ts'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { refreshRoundStatuses } from '../src/modules/lifecycle/queries.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import { freshDatabase } from './helpers.ts'

// The random season the property tests of the season numbers (season, season-league,
// league-honours, head-to-head) hold the SQL to the contract's reference on: tippers who register
// before the season or late (half-days into it), some deactivated, auto-tips, no results, Golden
// Week, four squads. Each test picks its shape (how many tippers, how many sixes, how often a match
// is complete) so that what it checks (ties, by-team records, ...) comes up often.

export const SQUADS = 4
export const DAY = 24 * 3600_000
export const SEASON_START = Date.UTC(2025, 11, 1)

export interface GenMatch {
  status: 'scheduled' | 'active' | 'complete'
  home: number
  away: number
  winner: 'home' | 'away' | null
  sixes: number | null
  /** Starts together with the match before it (the match number then orders them). */
  sameStart: boolean
}

export interface GenSeason {
  users: number
  /** Per user: registered before the season (null), or n half-days after match 1 starts. */
  registeredAt: (number | null)[]
  deactivated: boolean[]
  goldenRound: number | null
  rounds: { matches: GenMatch[]; marginIndex: number }[]
  tips: { user: number; slot: number; pick: 'home' | 'away'; margin: number | null }[]
}

export interface SeasonShape {
  users: { min: number; max: number }
  matchesPerRound: number
  /** How many times 'complete' is drawn against one 'scheduled' and one 'active'. */
  completeWeight: number
  /** Sixes on a match (and a tip's margin) up to max, null once in `freq` (fast-check's default 5). */
  sixes: { max: number; freq: number }
  margin: { max: number; freq?: number }
}

const option = (max: number, freq: number | undefined) =>
  fc.option(fc.integer({ min: 0, max }), { nil: null, ...(freq === undefined ? {} : { freq }) })

export const matchArb = (shape: SeasonShape): fc.Arbitrary<GenMatch> =>
  fc
    .record({
      status: fc.constantFrom(
        'scheduled' as const,
        'active' as const,
        ...Array.from({ length: shape.completeWeight }, () => 'complete' as const),
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
      sixes: option(shape.sixes.max, shape.sixes.freq),
      sameStart: fc.boolean(),
    })
    .map(({ home, shift, ...m }) => ({ ...m, home, away: (home + shift) % SQUADS }))

export const seasonArb = (shape: SeasonShape): fc.Arbitrary<GenSeason> =>
  fc
    .record({
      users: fc.integer(shape.users),
      rounds: fc.array(
        fc.record({
          matches: fc.array(matchArb(shape), { minLength: 1, maxLength: shape.matchesPerRound }),
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
          { minLength: users, maxLength: users },
        ),
        tips: fc.array(
          fc.record({
            user: fc.integer({ min: 0, max: users - 1 }),
            slot: fc.integer({ min: 0, max: matchCount - 1 }),
            pick: fc.constantFrom('home' as const, 'away' as const),
            margin: option(shape.margin.max, shape.margin.freq),
          }),
          { maxLength: 60 },
        ),
      })
    })

/** The shape of the league tests (season-league, league-honours): up to seven tippers, few sixes. */
export const LEAGUE_SHAPE: SeasonShape = {
  users: { min: 1, max: 7 },
  matchesPerRound: 6,
  completeWeight: 3,
  sixes: { max: 6, freq: 4 },
  margin: { max: 6 },
}

/** A fresh database with the four squads and a venue the generated matches are played at. */
export interface SeasonDatabase {
  handle: DatabaseHandle
  squads: number[]
  venue: number
}

export async function seasonDatabase(): Promise<SeasonDatabase> {
  const handle = await freshDatabase()
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
  const venue = (
    await handle.db
      .insertInto('venues')
      .values({ key: 'v', name: 'V', city: 'C', state: 'S', timezone: 'UTC' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  return { handle, squads: rows.map((r) => r.id), venue }
}

/** The test file's season database: made before its tests, closed after them. */
export function useSeasonDatabase(): () => SeasonDatabase {
  let fixture: SeasonDatabase | undefined
  beforeAll(async () => {
    fixture = await seasonDatabase()
  })
  afterAll(() => fixture?.handle.close())
  return () => fixture!
}

export interface LoadOptions {
  /** Tippers who register after the scoring (placed at once, decision 010), when every match has started. */
  late?: number
  /** Runs after the scoring and before the deactivations (so that they reach it by their trigger). */
  beforeDeactivations?: (db: Database) => Promise<unknown>
  /** Round statuses as the lifecycle keeps them (complete when every match is). */
  roundStatuses?: boolean
}

export type SeasonRegistration = { userId: number; registeredAt: Date; active: boolean }
export type LoadedMatch = SeasonMatch & { awaySquadId: number; homeSquadId: number }

/** Loads the season as the product would hold it, scores it, deactivates some tippers. */
export async function loadSeason(
  { handle, squads, venue }: SeasonDatabase,
  season: GenSeason,
  options: LoadOptions = {},
) {
  const db = handle.db
  await sql`TRUNCATE competitions, users, tips, round_scores, standings, rank_gaps, season_history,
    season_round_points, season_history_state, season_history_stale RESTART IDENTITY CASCADE`.execute(
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
  const matches: LoadedMatch[] = []
  const roundIds: number[] = []
  let number = 0
  let day = 0
  for (const [ri, r] of season.rounds.entries()) {
    const round = await db
      .insertInto('rounds')
      .values({ competition_id: competition.id, number: ri + 1, label: `Week ${ri + 1}` })
      .returning('id')
      .executeTakeFirstOrThrow()
    roundIds.push(round.id)
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
        .returning('id')
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

  const registrations: SeasonRegistration[] = users.map((u, i) => {
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
  const roundIdOf = new Map(matches.map((m) => [m.id, roundIds[m.roundNumber - 1]!] as const))
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

  // Late tippers: no tips, every match has started, so no auto-tips; margin = sixes on a finished
  // margin game.
  const late =
    (options.late ?? 0) === 0
      ? []
      : await db
          .insertInto('users')
          .values(
            Array.from({ length: options.late! }, (_, i) => ({
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
  await options.beforeDeactivations?.(db)
  for (const r of registrations.filter((r) => !r.active))
    await db
      .updateTable('users')
      .set({ deactivated_at: new Date(SEASON_START) })
      .where('id', '=', r.userId)
      .execute()
  if (options.roundStatuses) await refreshRoundStatuses(db, roundIds)

  const rounds = season.rounds.map((_, i) => ({
    number: i + 1,
    isGoldenWeek: season.goldenRound === i + 1,
  }))
  const reference = rankSeason({ registrations, rounds, matches, tips })
  const effective = [...tips, ...autoTips(registrations, matches, tips)]
  return {
    competitionId: competition.id,
    registrations,
    rounds,
    matches,
    tips,
    effective,
    reference,
  }
}
