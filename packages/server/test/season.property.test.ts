import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import {
  averageOf,
  explainRound,
  percentOf,
  rankHistory,
  roundComparisons,
  seasonNumbers,
  TIE_BREAK_RULE,
  type SeasonMatch,
} from '@tipping/contract/rules/season'
import {
  autoTips,
  rankSeason,
  type RoundScore,
  type ScoringTip,
} from '@tipping/contract/rules/scoring'
import type { DatabaseHandle } from '../src/db/database.ts'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import { ScoresService } from '../src/modules/scores/service.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import { rebuildSeasonHistories, SeasonService } from '../src/modules/season/service.ts'
import { freshDatabase } from './helpers.ts'

// Every number of the My season page (issue 31) as the server computes it (set-based SQL over
// effective_tips and round_scores) must equal the contract's reference (rules/season.ts) on any
// season: late registrations, deactivated tippers, auto-tips, no results, Golden Week, four squads
// so that the by-team record means something. SEASON_RUNS raises the number of seasons.
const RUNS = Number(process.env.SEASON_RUNS ?? 60)
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
    sixes: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null, freq: 4 }),
    sameStart: fc.boolean(),
  })
  .map(({ home, shift, ...m }) => ({ ...m, home, away: (home + shift) % SQUADS }))

const seasonArb: fc.Arbitrary<GenSeason> = fc
  .record({
    users: fc.integer({ min: 1, max: 5 }),
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
          margin: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
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
  // The history is built before the deactivations, so that they reach it through their trigger.
  await rebuildSeasonHistories(db)
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
  const effective = [...tips, ...autoTips(registrations, matches, tips)]
  const service = new SeasonService(
    db,
    new CurrentCompetitions(db),
    new ScoresService(db, new CurrentCompetitions(db)),
  )
  return {
    competitionId: competition.id,
    registrations,
    rounds,
    matches,
    tips,
    effective,
    reference,
    service,
  }
}

describe('the My season numbers equal the reference', () => {
  it(`on ${RUNS} random seasons`, async () => {
    await fc.assert(
      fc.asyncProperty(seasonArb, async (season) => {
        const loaded = await load(season)
        const { registrations, rounds, matches, effective, reference, service } = loaded
        const active = new Set(registrations.filter((r) => r.active).map((r) => r.userId))
        const played = rounds
          .map((r) => r.number)
          .filter((n) => matches.some((m) => m.roundNumber === n && m.status === 'complete'))
        const ranked = reference.rounds.filter((s) => active.has(s.userId))
        for (const { userId } of registrations) {
          const actual = await service.season('bbl', userId)
          const ref = seasonNumbers(userId, matches, effective)
          const mine = reference.rounds.filter((s) => s.userId === userId)
          expect(actual).toEqual({
            tips: {
              judged: ref.judged,
              correct: ref.correct,
              percent: percentOf(ref.correct, ref.judged),
            },
            teams: ref.teams.map((t) => ({
              squad: t.squadId,
              correct: t.correct,
              tipped: t.tipped,
            })),
            streaks: { longest: ref.longestStreak, current: ref.currentStreak },
            cleanSweeps: mine.filter((s) => s.bonus > 0).map((s) => s.roundNumber),
            goldenWeek:
              season.goldenRound === null
                ? null
                : {
                    round: season.goldenRound,
                    points: mine.find((s) => s.roundNumber === season.goldenRound)?.points ?? 0,
                  },
            autoTips: { wrong: ref.autoTipsWrong, notCounted: ref.autoTipsNotCounted },
            superSixes: {
              games: ref.marginGames,
              averageMiss: averageOf(ref.marginMissTotal, ref.marginGames),
              bestMiss: ref.bestMiss,
            },
            rounds: roundComparisons(userId, played, ranked).map((c) => ({
              round: c.roundNumber,
              isGoldenWeek: c.roundNumber === season.goldenRound,
              points: mine.find((s) => s.roundNumber === c.roundNumber)?.points ?? 0,
              tippers: c.tippers,
              average: averageOf(c.totalPoints, c.tippers),
              best: c.best,
              rank: rankHistory(userId, [c.roundNumber], ranked)[0] ?? null,
            })),
          })

          const overall = reference.standings.find((s) => s.userId === userId)
          for (const r of rounds) {
            const explained = await service.round('bbl', userId, asRoundNumber(r.number))
            const ref = explainRound(userId, r.number, matches, effective, r.isGoldenWeek)
            const stored = mine.find((s) => s.roundNumber === r.number)!
            const roundRow = reference.roundRankings.get(r.number)!.find((s) => s.userId === userId)
            expect(explained).toMatchObject({
              round: r.number,
              isGoldenWeek: r.isGoldenWeek,
              pointsPerTip: ref.pointsPerTip,
              correct: stored.correct,
              counted: stored.counted,
              tipPoints: stored.tipPoints,
              bonus: stored.bonus,
              sweep: ref.sweep,
              points: stored.points,
              margin: stored.margin,
              roundRank: roundRow?.rank ?? 0,
              overallRank: overall?.rank ?? 0,
              overallPoints: overall?.points ?? 0,
              overallMargin: overall?.margin ?? 0,
              tieBreak: TIE_BREAK_RULE,
            })
            // Tip by tip, in play order, and the lines add up to the round's tip points.
            expect(
              explained.tips.map((t) => ({
                matchId: t.match,
                squadId: t.squad === 0 ? null : t.squad,
                isAutoTip: t.isAutoTip,
                correct: t.correct,
                counted: t.counted,
                verdict: t.verdict,
                points: t.points,
                marginResult: t.marginResult,
              })),
            ).toEqual(ref.tips)
            expect(explained.tips.reduce((n, t) => n + t.points, 0)).toBe(stored.tipPoints)
          }
        }
        await historyFollowsEvents(loaded)
      }),
      { numRuns: RUNS },
    )
  }, 600_000)
})

/** The stored history (migration 2026-11-27T0200) as comparable rows. */
async function storedHistory(competitionId: number) {
  const db = handle.db
  const cumulative = await db
    .selectFrom('season_history')
    .select(['round_number', 'points', 'margin', 'n'])
    .where('competition_id', '=', competitionId)
    .orderBy(['round_number', 'points', 'margin'])
    .execute()
  const points = await db
    .selectFrom('season_round_points')
    .select(['round_number', 'points', 'n'])
    .where('competition_id', '=', competitionId)
    .orderBy(['round_number', 'points'])
    .execute()
  return { cumulative, points }
}

/** The same from the reference's round scores of the ranked tippers, rounds 1..last. */
function referenceHistory(ranked: readonly RoundScore[], last: number) {
  const cumulative = new Map<string, number>()
  const points = new Map<string, number>()
  const users = [...new Set(ranked.map((s) => s.userId))]
  for (let round = 1; round <= last; round++)
    for (const u of users) {
      const upTo = ranked.filter((s) => s.userId === u && s.roundNumber <= round)
      const p = upTo.reduce((a, s) => a + s.points, 0)
      const m = upTo.reduce((a, s) => a + s.margin, 0)
      const own = upTo.find((s) => s.roundNumber === round)?.points ?? 0
      cumulative.set(`${round}:${p}:${m}`, (cumulative.get(`${round}:${p}:${m}`) ?? 0) + 1)
      points.set(`${round}:${own}`, (points.get(`${round}:${own}`) ?? 0) + 1)
    }
  return {
    cumulative: [...cumulative]
      .map(([k, n]) => {
        const [round_number, p, m] = k.split(':').map(Number) as [number, number, number]
        return { round_number, points: p, margin: m, n }
      })
      .sort(
        (a, b) => a.round_number - b.round_number || a.points - b.points || a.margin - b.margin,
      ),
    points: [...points]
      .map(([k, n]) => {
        const [round_number, p] = k.split(':').map(Number) as [number, number]
        return { round_number, points: p, n }
      })
      .sort((a, b) => a.round_number - b.round_number || a.points - b.points),
  }
}

/**
 * The rank history after the scheduler built it and deactivations reached it by their trigger
 * (load()), then after a tipper registers late and deactivated ones come back (each changing
 * it in its own transaction, no rebuild): the stored groups equal the reference's, every ranked
 * tipper's rank after each round equals rankHistory, and a full re-score rebuilt by the job
 * changes nothing.
 */
async function historyFollowsEvents(loaded: Awaited<ReturnType<typeof load>>) {
  const db = handle.db
  const { competitionId, rounds, matches, tips, service } = loaded
  const played = rounds
    .map((r) => r.number)
    .filter((n) => matches.some((m) => m.roundNumber === n && m.status === 'complete'))
  const last = Math.max(0, ...played)

  const check = async (registrations: typeof loaded.registrations) => {
    const reference = rankSeason({ registrations, rounds, matches, tips })
    const active = new Set(registrations.filter((r) => r.active).map((r) => r.userId))
    const ranked = reference.rounds.filter((s) => active.has(s.userId))
    expect(await storedHistory(competitionId)).toEqual(referenceHistory(ranked, last))
    for (const { userId } of registrations) {
      const actual = await service.season('bbl', userId)
      expect(actual.rounds.map((r) => r.rank)).toEqual(rankHistory(userId, played, ranked))
    }
  }
  await check(loaded.registrations)

  // A tipper registers after every match has started; the deactivated come back.
  const late = await db
    .insertInto('users')
    .values({ email: 'late@x.test', roles: [] })
    .returning('id')
    .executeTakeFirstOrThrow()
  const lateAt = new Date(SEASON_START + 1000 * DAY)
  await db.transaction().execute((trx) => enterCurrentCompetitions(trx, late.id, ['bbl'], lateAt))
  const gone = loaded.registrations.filter((r) => !r.active).map((r) => r.userId)
  if (gone.length > 0)
    await db.updateTable('users').set({ deactivated_at: null }).where('id', 'in', gone).execute()
  const now = [
    ...loaded.registrations.map((r) => ({ ...r, active: true })),
    { userId: late.id, registeredAt: lateAt, active: true },
  ]
  await check(now)

  // A full re-score, rebuilt by the job from round 1, changes nothing.
  const before = await storedHistory(competitionId)
  await rescore(db, competitionId)
  expect(await rebuildSeasonHistories(db)).toBe(1)
  expect(await storedHistory(competitionId)).toEqual(before)
  expect(await rebuildSeasonHistories(db)).toBe(0)
  await check(now)
}
