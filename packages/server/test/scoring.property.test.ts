import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  autoTips,
  rankRows,
  type AutoTipMatch,
  scoreSeason,
  type ScoringMatch,
  type ScoringTip,
} from '@tipping/contract/rules/scoring'
import type { DatabaseHandle } from '../src/db/database.ts'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { rescore, rescoreAfterResult } from '../src/modules/scoring/service.ts'
import { freshDatabase, twoSquadsAndAVenue } from './helpers.ts'

// The SQL scorer must equal the contract's reference scorer on any season (GAME_RULES.md).
// SCORING_RUNS raises the number of random seasons (thousands for a long run).
const RUNS = Number(process.env.SCORING_RUNS ?? 150)

interface GenSeason {
  users: number
  /** Per user: registered before the season (null), or n half-days after match 1 starts (1: at it). */
  registeredAt: (number | null)[]
  goldenRound: number | null
  rounds: {
    matches: {
      status: 'scheduled' | 'active' | 'complete'
      winner: 'home' | 'away' | null
      sixes: number | null
    }[]
    marginIndex: number
  }[]
  tips: {
    user: number
    round: number
    match: number
    pick: 'home' | 'away'
    margin: number | null
    auto: boolean
  }[]
}

const matchArb = fc.record({
  status: fc.constantFrom(
    'scheduled' as const,
    'active' as const,
    'complete' as const,
    'complete' as const,
  ),
  winner: fc.constantFrom('home' as const, 'away' as const, null, 'home' as const),
  sixes: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
})
const seasonArb: fc.Arbitrary<GenSeason> = fc
  .record({
    users: fc.integer({ min: 1, max: 6 }),
    rounds: fc.array(
      fc.record({
        matches: fc.array(matchArb, { minLength: 1, maxLength: 7 }),
        marginIndex: fc.nat(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    golden: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  })
  .chain(({ users, rounds, golden }) => {
    const matchCount = rounds.reduce((n, r) => n + r.matches.length, 0)
    const registeredAt = fc.array(
      fc.option(fc.integer({ min: 1, max: 2 * matchCount }), { nil: null, freq: 3 }),
      { minLength: users, maxLength: users },
    )
    const slots = rounds.flatMap((r, ri) => r.matches.map((_, mi) => ({ round: ri, match: mi })))
    const tipArb = fc.record({
      user: fc.integer({ min: 0, max: users - 1 }),
      slot: fc.constantFrom(...slots),
      pick: fc.constantFrom('home' as const, 'away' as const),
      margin: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
      auto: fc.boolean(),
    })
    return fc.tuple(fc.array(tipArb, { maxLength: 40 }), registeredAt).map(([tips, regs]) => ({
      users,
      registeredAt: regs,
      goldenRound: golden,
      rounds,
      tips: tips.map((t) => ({
        user: t.user,
        round: t.slot.round,
        match: t.slot.match,
        pick: t.pick,
        margin: t.margin,
        auto: t.auto,
      })),
    }))
  })

let handle: DatabaseHandle
let squads: [number, number]
let venue: number

beforeAll(async () => {
  handle = await freshDatabase()
  ;({ squads, venue } = await twoSquadsAndAVenue(handle.db))
})
afterAll(() => handle.close())

/**
 * Loads a season and scores it. `all-at-once`: every result is in before one full scoring.
 * `result-by-result`: the season is scored with no results, then registrations and results arrive
 * in time order, each result re-scored as the results service does (from the round's previous
 * scores and that match's tips), with one result entered wrongly and corrected, twice.
 */
async function loadAndScore(season: GenSeason, mode: 'all-at-once' | 'result-by-result') {
  const db = handle.db
  const stepwise = mode === 'result-by-result'
  await sql`TRUNCATE competitions, users, tips, round_scores, standings, rank_gaps RESTART IDENTITY CASCADE`.execute(
    db,
  )
  const competition = await db
    .insertInto('competitions')
    .values({
      sport: 'bbl',
      identifier: 'p-bbl-1',
      season: 1,
      name: 'P',
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
    .values(Array.from({ length: season.users }, (_, i) => ({ email: `p${i}@x.test`, roles: [] })))
    .returning('id')
    .execute()
  // Match n starts on day n of December; a registration may fall at or between starts.
  const registrations = users.map((u, i) => {
    const halfDays = season.registeredAt[i] ?? null
    return {
      userId: u.id,
      registeredAt:
        halfDays === null
          ? new Date(Date.UTC(2025, 10, 1))
          : new Date(Date.UTC(2025, 11, 1) + (halfDays - 1) * 12 * 3600_000),
    }
  })
  // Registered as the app registers them: placed in the rankings at once once scoring has run.
  const registrationOrder: number[] = []
  const register = async (regs: typeof registrations) => {
    for (const r of regs) {
      await db
        .transaction()
        .execute((trx) => enterCurrentCompetitions(trx, r.userId, ['bbl'], r.registeredAt))
      registrationOrder.push(r.userId)
    }
  }
  const seasonStart = new Date(Date.UTC(2025, 11, 1))
  await register(
    stepwise ? registrations.filter((r) => r.registeredAt < seasonStart) : registrations,
  )
  const autoTipMatches: AutoTipMatch[] = []
  const matchIds: number[][] = []
  const refMatches: ScoringMatch[] = []
  let number = 0
  for (const [ri, r] of season.rounds.entries()) {
    const round = await db
      .insertInto('rounds')
      .values({ competition_id: competition.id, number: ri + 1, label: `Week ${ri + 1}` })
      .returning('id')
      .executeTakeFirstOrThrow()
    const ids: number[] = []
    for (const [mi, m] of r.matches.entries()) {
      const winner =
        m.status === 'complete' && m.winner ? (m.winner === 'home' ? squads[0] : squads[1]) : null
      const isMargin = mi === r.marginIndex % r.matches.length
      const row = await db
        .insertInto('matches')
        .values({
          competition_id: competition.id,
          round_id: round.id,
          number: ++number,
          // stepwise, a completed match starts locked and gets its result later
          status: stepwise && m.status === 'complete' ? 'active' : m.status,
          starts_at: new Date(Date.UTC(2025, 11, number)),
          venue_id: venue,
          home_squad_id: squads[0],
          away_squad_id: squads[1],
          is_margin_game: isMargin,
          winner_squad_id: stepwise ? null : winner,
          outcome: m.status === 'complete' && !stepwise ? (winner ? 'win' : 'no_result') : null,
          sixes: m.status === 'complete' && !stepwise ? m.sixes : null,
          assumed: '[]',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.push(row.id)
      autoTipMatches.push({
        id: row.id,
        status: m.status,
        startsAt: new Date(Date.UTC(2025, 11, number)),
        awaySquadId: squads[1],
        isMarginGame: isMargin,
      })
      refMatches.push({
        id: row.id,
        roundNumber: ri + 1,
        status: m.status,
        winnerSquadId: winner,
        isMarginGame: isMargin,
        sixes: m.status === 'complete' ? m.sixes : null,
      })
    }
    matchIds.push(ids)
  }
  // One tip per user and match: the last generated one wins, as an upsert would.
  const tipMap = new Map<string, ScoringTip & { roundId: number }>()
  for (const t of season.tips) {
    const matchId = matchIds[t.round]![t.match]!
    const userId = users[t.user]!.id
    tipMap.set(`${userId}:${matchId}`, {
      userId,
      matchId,
      squadId: t.pick === 'home' ? squads[0] : squads[1],
      margin: t.margin,
      isAutoTip: t.auto,
      roundId: 0,
    })
  }
  // Stepwise, only tips the product could take: by a user registered before the match started.
  const startOf = new Map(autoTipMatches.map((m) => [m.id, m.startsAt]))
  const registeredOf = new Map(registrations.map((r) => [r.userId, r.registeredAt]))
  const tips = [...tipMap.values()].filter(
    (t) => !stepwise || registeredOf.get(t.userId)! < startOf.get(t.matchId)!,
  )
  if (tips.length > 0) {
    const roundOf = new Map(
      (await db.selectFrom('matches').select(['id', 'round_id']).execute()).map((m) => [
        m.id,
        m.round_id,
      ]),
    )
    await db
      .insertInto('tips')
      .values(
        tips.map((t) => ({
          user_id: t.userId,
          match_id: t.matchId,
          round_id: roundOf.get(t.matchId)!,
          squad_id: t.squadId,
          margin: t.margin,
          is_auto_tip: t.isAutoTip,
        })),
      )
      .execute()
  }
  await rescore(db, competition.id)
  if (stepwise) await replay(competition.id, refMatches, registrations, register)

  const expected = scoreSeason({
    users: users.map((u) => u.id),
    rounds: season.rounds.map((_, i) => ({
      number: i + 1,
      isGoldenWeek: season.goldenRound === i + 1,
    })),
    matches: refMatches,
    // Auto-tips are not stored: the SQL scorer derives them (effective_tips), as must the reference.
    tips: [...tips, ...autoTips(registrations, autoTipMatches, tips)],
  })
  const actualRounds = await db
    .selectFrom('round_scores')
    .innerJoin('rounds', 'rounds.id', 'round_scores.round_id')
    .select([
      'user_id',
      'rounds.number',
      'correct',
      'counted',
      'tip_points',
      'bonus',
      'points',
      'margin',
      'rank',
      'position',
    ])
    .orderBy('rounds.number')
    .orderBy('user_id')
    .execute()
  const actualStandings = await db
    .selectFrom('standings')
    .select(['user_id', 'total_points', 'total_margin', 'rank', 'position'])
    .orderBy('user_id')
    .execute()
  return { expected, actualRounds, actualStandings, registrationOrder }
}

type Registration = { userId: number; registeredAt: Date }

/** Registrations and results in time order; results re-scored one match at a time. */
async function replay(
  competitionId: number,
  matches: ScoringMatch[],
  registrations: Registration[],
  register: (r: Registration[]) => Promise<unknown>,
): Promise<void> {
  const db = handle.db
  const results = matches.filter((m) => m.status === 'complete')
  const wrong = (m: ScoringMatch) => ({
    ...m,
    winnerSquadId: m.winnerSquadId === squads[0] ? squads[1] : squads[0],
    sixes: (m.sixes ?? 0) + 3,
  })
  // match n starts on day n; its result comes hours later
  const resultAt = (m: ScoringMatch, hours: number) =>
    Date.UTC(2025, 11, 1) + (matches.indexOf(m) * 24 + hours) * 3600_000
  type Event = { at: number; register?: Registration; result?: ScoringMatch }
  const first = results[0]
  const events: Event[] = [
    ...registrations
      .filter((r) => r.registeredAt >= new Date(Date.UTC(2025, 11, 1)))
      .map((r) => ({ at: r.registeredAt.getTime(), register: r })),
    ...results.map((m) => ({ at: resultAt(m, 7), result: m })),
    ...(first
      ? [
          { at: resultAt(first, 6), result: wrong(first) },
          { at: Infinity, result: wrong(first) },
          { at: Infinity, result: first },
        ]
      : []),
  ]
  // stable: the two corrections at the end keep their order
  events.sort((a, b) => (a.at === b.at ? 0 : a.at - b.at))
  for (const e of events) {
    if (e.register) await register([e.register])
    if (!e.result) continue
    const m = e.result
    await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('matches')
        .select(['round_id', 'status', 'winner_squad_id'])
        .where('id', '=', m.id)
        .executeTakeFirstOrThrow()
      await trx
        .updateTable('matches')
        .set({
          status: 'complete',
          winner_squad_id: m.winnerSquadId,
          outcome: m.winnerSquadId ? 'win' : 'no_result',
          sixes: m.sixes,
        })
        .where('id', '=', m.id)
        .execute()
      // On PostgreSQL through the helper connections, as the app does; PGlite in the one statement.
      await rescoreAfterResult(
        trx,
        competitionId,
        before.round_id,
        { id: m.id, complete: before.status === 'complete', winnerSquadId: before.winner_squad_id },
        handle.engine === 'postgres' ? db : undefined,
      )
    })
  }
}

/**
 * Positions are the ranking order with ties listed in registration order (`order`, user ids):
 * what rankings pages read by.
 */
function withPositions<T extends { points: number; margin: number; userId: number }>(
  rows: readonly T[],
  order: readonly number[],
): (T & { position: number })[] {
  const seq = new Map(order.map((id, i) => [id, i]))
  return [...rows]
    .sort(
      (a, b) =>
        b.points - a.points || a.margin - b.margin || seq.get(a.userId)! - seq.get(b.userId)!,
    )
    .map((row, i) => ({ ...row, position: i + 1 }))
}

describe('SQL scoring equals the reference scorer', () => {
  it.each(['all-at-once', 'result-by-result'] as const)(
    `on ${RUNS} random seasons, %s`,
    async (mode) => {
      await fc.assert(
        fc.asyncProperty(seasonArb, async (season) => {
          const { expected, actualRounds, actualStandings, registrationOrder } = await loadAndScore(
            season,
            mode,
          )
          // Every registered user has a row in every round, whenever they registered.
          const roundNumbers = [...new Set(expected.rounds.map((s) => s.roundNumber))]
          const ranked = roundNumbers.flatMap((n) =>
            withPositions(
              rankRows(expected.rounds.filter((s) => s.roundNumber === n)),
              registrationOrder,
            ),
          )
          expect(actualRounds).toEqual(
            ranked
              .sort((a, b) => a.roundNumber - b.roundNumber || a.userId - b.userId)
              .map((s) => ({
                user_id: s.userId,
                number: s.roundNumber,
                correct: s.correct,
                counted: s.counted,
                tip_points: s.tipPoints,
                bonus: s.bonus,
                points: s.points,
                margin: s.margin,
                rank: s.rank,
                position: s.position,
              })),
          )
          const standings = withPositions(
            rankRows(
              expected.standings.map((s) => ({
                ...s,
                points: s.totalPoints,
                margin: s.totalMargin,
              })),
            ),
            registrationOrder,
          )
          expect(actualStandings).toEqual(
            standings
              .sort((a, b) => a.userId - b.userId)
              .map((s) => ({
                user_id: s.userId,
                total_points: s.totalPoints,
                total_margin: s.totalMargin,
                rank: s.rank,
                position: s.position,
              })),
          )
        }),
        { numRuns: RUNS },
      )
    },
    600_000,
  )
})
