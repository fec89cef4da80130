import { describe, expect, it } from 'vitest'
import {
  averageOf,
  explainRound,
  leagueSeason,
  percentOf,
  seasonNumbers,
  sortTeams,
  type SeasonMatch,
} from './season.ts'
import type { ScoringTip } from './scoring.ts'

const day = (n: number) => new Date(Date.UTC(2025, 11, n))
const match = (
  id: number,
  winner: number | null,
  extra: Partial<SeasonMatch> = {},
): SeasonMatch => ({
  id,
  roundNumber: 1,
  status: 'complete',
  winnerSquadId: winner,
  isMarginGame: false,
  sixes: null,
  startsAt: day(id),
  number: id,
  ...extra,
})
const tip = (matchId: number, squadId: number, extra: Partial<ScoringTip> = {}): ScoringTip => ({
  userId: 1,
  matchId,
  squadId,
  margin: null,
  isAutoTip: false,
  ...extra,
})

describe('seasonNumbers', () => {
  it('runs streaks in start order, skipping no-result and untipped matches', () => {
    // Ids out of play order on purpose: match 5 starts first.
    const matches = [
      match(5, 10, { startsAt: day(1) }),
      match(1, 10, { startsAt: day(2) }),
      match(2, null, { startsAt: day(3) }), // no result: skipped
      match(3, 10, { startsAt: day(4) }), // untipped: skipped
      match(4, 11, { startsAt: day(5) }), // wrong
      match(6, 10, { startsAt: day(6) }),
      match(7, 10, { startsAt: day(7), status: 'active' }), // not over: skipped
    ]
    const tips = [tip(5, 10), tip(1, 10), tip(2, 10), tip(4, 10), tip(6, 10), tip(7, 11)]
    const n = seasonNumbers(1, matches, tips)
    expect(n).toMatchObject({ correct: 3, judged: 4, longestStreak: 2, currentStreak: 1 })
    expect(n.teams).toEqual([{ squadId: 10, correct: 3, tipped: 4 }])
  })

  it('counts auto-tips that named the loser and correct ones past the limit', () => {
    const matches = [1, 2, 3, 4, 5, 6].map((id) => match(id, 10))
    const tips = [
      ...[1, 2, 3, 4].map((id) => tip(id, 10)),
      tip(5, 10, { isAutoTip: true }), // correct, but 4 own correct: not counted
      tip(6, 11, { isAutoTip: true }), // wrong
    ]
    expect(seasonNumbers(1, matches, tips)).toMatchObject({
      autoTipsWrong: 1,
      autoTipsNotCounted: 1,
    })
  })

  it('measures Super Sixes misses only on finished margin games with a tip', () => {
    const matches = [
      match(1, 10, { isMarginGame: true, sixes: 12 }),
      match(2, 10, { isMarginGame: true, sixes: 9, roundNumber: 2 }),
      match(3, 10, { isMarginGame: true, sixes: null, roundNumber: 3 }),
      match(4, 10, { isMarginGame: true, sixes: 20, roundNumber: 4 }),
    ]
    const tips = [tip(1, 10, { margin: 15 }), tip(2, 10), tip(3, 10, { margin: 3 })]
    expect(seasonNumbers(1, matches, tips)).toMatchObject({
      marginGames: 2,
      marginMissTotal: 12,
      bestMiss: 3,
    })
  })
})

describe('sortTeams, percentOf, averageOf', () => {
  it('puts the best-read squad first, more tips first on an equal share', () => {
    expect(
      sortTeams([
        { squadId: 1, correct: 1, tipped: 2 },
        { squadId: 2, correct: 2, tipped: 2 },
        { squadId: 3, correct: 2, tipped: 4 },
      ]).map((t) => t.squadId),
    ).toEqual([2, 3, 1])
  })
  it('rounds and says null when there is nothing to divide', () => {
    expect(percentOf(2, 3)).toBe(67)
    expect(percentOf(0, 0)).toBeNull()
    expect(averageOf(23, 20)).toBe(1.2)
    expect(averageOf(0, 0)).toBeNull()
  })
})

describe('explainRound', () => {
  it('says why each tip earned what it did, doubled in the Golden Week', () => {
    const matches = [1, 2, 3, 4, 5, 6, 7].map((id) => match(id, 10))
    matches[6] = match(7, null)
    const tips = [
      ...[1, 2, 3, 4].map((id) => tip(id, 10)),
      tip(5, 10, { isAutoTip: true }),
      tip(6, 11),
    ]
    const e = explainRound(1, 1, matches, tips, true)
    expect(e.tips.map((t) => [t.verdict, t.points])).toEqual([
      ['counted', 2],
      ['counted', 2],
      ['counted', 2],
      ['counted', 2],
      ['auto-not-counted', 0],
      ['wrong', 0],
      ['not-tipped', 0],
    ])
    expect(e.score.points).toBe(8)
    expect(e.sweep).toBe('missed-a-winner')
  })

  it('names the auto-tip as what cost a clean sweep', () => {
    const matches = [match(1, 10), match(2, 10)]
    const e = explainRound(1, 1, matches, [tip(1, 10), tip(2, 10, { isAutoTip: true })], false)
    expect(e.tips.map((t) => t.verdict)).toEqual(['counted', 'auto-counted'])
    expect(e.sweep).toBe('auto-tip')
    expect(explainRound(1, 1, matches, [tip(1, 10), tip(2, 10)], false)).toMatchObject({
      sweep: 'earned',
      score: { bonus: 2, points: 4 },
    })
  })
})

describe('leagueSeason', () => {
  const s = (userId: number, roundNumber: number, points: number, margin: number) => ({
    userId,
    roundNumber,
    points,
    margin,
    correct: 0,
    counted: 0,
    tipPoints: 0,
    bonus: 0,
  })
  // Members 1, 2, 3; 4 is not one (or not ranked). Round 1 is before the league's start.
  const scores = [
    s(1, 1, 9, 0),
    s(2, 1, 0, 0),
    s(3, 1, 0, 0),
    s(4, 1, 9, 0),
    s(1, 2, 4, 10),
    s(2, 2, 4, 10),
    s(3, 2, 6, 3),
    s(4, 2, 8, 0),
    s(1, 3, 5, 2),
    s(2, 3, 5, 1),
    s(3, 3, 2, 0),
    s(4, 3, 8, 0),
  ]
  const input = { members: [1, 2, 3], startRound: 2, rounds: [1, 2, 3], scores }

  it('counts from the start round over the members only, ties sharing the rank', () => {
    expect(leagueSeason({ ...input, userId: 1 })).toEqual([
      { roundNumber: 2, points: 4, tippers: 3, totalPoints: 14, best: 6, rank: 2 },
      // 9 points each for 1 and 2; margin 12 against 11: 2 is ahead; 3 has 8.
      { roundNumber: 3, points: 5, tippers: 3, totalPoints: 12, best: 5, rank: 2 },
    ])
    // Level on points and margin after week 2: 1 and 2 share second place (RANK()).
    expect(leagueSeason({ ...input, userId: 2 }).map((r) => r.rank)).toEqual([2, 1])
    expect(leagueSeason({ ...input, userId: 3 }).map((r) => r.rank)).toEqual([1, 3])
  })

  it('has no rank for a caller who is not a ranked member', () => {
    expect(leagueSeason({ ...input, userId: 4 }).map((r) => r.rank)).toEqual([null, null])
  })
})
