import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import {
  averageOf,
  explainRound,
  percentOf,
  rankHistory,
  roundComparisons,
  seasonNumbers,
  TIE_BREAK_RULE,
} from '@tipping/contract/rules/season'
import { rankSeason, type RoundScore } from '@tipping/contract/rules/scoring'
import { enterCurrentCompetitions } from '../src/modules/auth/service.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import { ScoresService } from '../src/modules/scores/service.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import { rebuildSeasonHistories, SeasonService } from '../src/modules/season/service.ts'
import {
  DAY,
  loadSeason,
  SEASON_START,
  seasonArb,
  useSeasonDatabase,
  type GenSeason,
  type SeasonShape,
} from './generated-season.ts'

// Every number of the My season page (issue 31) as the server computes it (set-based SQL over
// effective_tips and round_scores) must equal the contract's reference (rules/season.ts) on any
// season: late registrations, deactivated tippers, auto-tips, no results, Golden Week, four squads
// so that the by-team record means something. SEASON_RUNS raises the number of seasons.
const RUNS = Number(process.env.SEASON_RUNS ?? 60)
const SHAPE: SeasonShape = {
  users: { min: 1, max: 5 },
  matchesPerRound: 6,
  completeWeight: 3,
  sixes: { max: 40, freq: 4 },
  margin: { max: 60 },
}

const database = useSeasonDatabase()

/** The generated season, its history built before the deactivations reach it by their trigger. */
async function load(season: GenSeason) {
  const loaded = await loadSeason(database(), season, {
    beforeDeactivations: rebuildSeasonHistories,
  })
  const db = database().handle.db
  const service = new SeasonService(
    db,
    new CurrentCompetitions(db),
    new ScoresService(db, new CurrentCompetitions(db)),
  )
  return { ...loaded, service }
}

describe('the My season numbers equal the reference', () => {
  it(`on ${RUNS} random seasons`, async () => {
    await fc.assert(
      fc.asyncProperty(seasonArb(SHAPE), async (season) => {
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
  const db = database().handle.db
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
  const db = database().handle.db
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
