import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  autoTips,
  marginResult,
  maxRoundPoints,
  rankRows,
  scoreRound,
  tipOutcomes,
  type ScoringMatch,
  type ScoringTip,
} from './scoring.ts'

const match = (
  id: number,
  winner: number | null,
  extra: Partial<ScoringMatch> = {},
): ScoringMatch => ({
  id,
  roundNumber: 1,
  status: 'complete',
  winnerSquadId: winner,
  isMarginGame: false,
  sixes: null,
  ...extra,
})
const tip = (
  matchId: number,
  squadId: number,
  isAutoTip = false,
  margin: number | null = null,
): ScoringTip => ({
  userId: 1,
  matchId,
  squadId,
  margin,
  isAutoTip,
})

describe('scoreRound (GAME_RULES.md)', () => {
  it('awards a point per correct tip and the clean sweep bonus when every tip is right', () => {
    const ms = [match(1, 10), match(2, 20), match(3, 30, { isMarginGame: true, sixes: 12 })]
    const s = scoreRound(1, 1, ms, [tip(1, 10), tip(2, 20), tip(3, 30, false, 9)], false)
    expect(s).toMatchObject({
      correct: 3,
      counted: 3,
      tipPoints: 3,
      bonus: 2,
      points: 5,
      margin: 3,
    })
  })

  it('doubles tip points in the Golden Week but not the bonus', () => {
    const ms = [match(1, 10), match(2, 20)]
    expect(scoreRound(1, 1, ms, [tip(1, 10), tip(2, 20)], true)).toMatchObject({
      tipPoints: 4,
      bonus: 2,
      points: 6,
    })
  })

  it('breaks the clean sweep with one auto-tip, even a correct one', () => {
    const ms = [match(1, 10), match(2, 20)]
    expect(scoreRound(1, 1, ms, [tip(1, 10), tip(2, 20, true)], false)).toMatchObject({
      correct: 2,
      bonus: 0,
      points: 2,
    })
  })

  it('leaves a no-result match out of the sweep and gives nobody a point for it', () => {
    const ms = [match(1, 10), match(2, null)]
    expect(scoreRound(1, 1, ms, [tip(1, 10), tip(2, 21)], false)).toMatchObject({
      correct: 1,
      bonus: 2,
      points: 3,
    })
  })

  it('gives no bonus before the last match of the round is complete', () => {
    const ms = [match(1, 10), match(2, null, { status: 'scheduled' })]
    expect(scoreRound(1, 1, ms, [tip(1, 10)], false).bonus).toBe(0)
  })

  it('stops counting correct auto-tips once four own tips are correct', () => {
    const ms = [1, 2, 3, 4, 5, 6].map((id) => match(id, id * 10))
    const three = [tip(1, 10), tip(2, 20), tip(3, 30), tip(5, 50, true), tip(6, 60, true)]
    expect(scoreRound(1, 1, ms, three, false)).toMatchObject({ correct: 5, counted: 5 })
    const four = [
      tip(1, 10),
      tip(2, 20),
      tip(3, 30),
      tip(4, 40),
      tip(5, 50, true),
      tip(6, 60, true),
    ]
    expect(scoreRound(1, 1, ms, four, false)).toMatchObject({ correct: 6, counted: 4, points: 4 })
  })

  it('measures the margin on the margin game, with a missing margin as 0', () => {
    const ms = [match(1, 10, { isMarginGame: true, sixes: 7 })]
    expect(scoreRound(1, 1, ms, [tip(1, 10)], false).margin).toBe(7)
    expect(scoreRound(1, 1, ms, [tip(1, 10, false, 20)], false).margin).toBe(13)
  })
})

describe('tipOutcomes (GAME_RULES.md "Counting auto-tips")', () => {
  it('judges a tip once its match is complete with a winner, and has no entry without a tip', () => {
    const ms = [
      match(1, 10),
      match(2, 20),
      match(3, null),
      match(4, 40, { status: 'active', winnerSquadId: null }),
      match(5, 50),
    ]
    const out = tipOutcomes(ms, [tip(1, 10), tip(2, 21), tip(3, 30), tip(4, 40)])
    expect(out.get(1)).toEqual({ correct: true, counted: true })
    expect(out.get(2)).toEqual({ correct: false, counted: false })
    expect(out.get(3)).toEqual({ correct: null, counted: null })
    expect(out.get(4)).toEqual({ correct: null, counted: null })
    expect(out.has(5)).toBe(false)
  })

  it('counts a correct auto-tip only under four correct own tips', () => {
    const ms = [1, 2, 3, 4, 5].map((id) => match(id, id * 10))
    const auto = tip(5, 50, true)
    const three = tipOutcomes(ms, [tip(1, 10), tip(2, 20), tip(3, 30), tip(4, 41), auto])
    expect(three.get(5)).toEqual({ correct: true, counted: true })
    const four = tipOutcomes(ms, [tip(1, 10), tip(2, 20), tip(3, 30), tip(4, 40), auto])
    expect(four.get(5)).toEqual({ correct: true, counted: false })
  })

  it('agrees with scoreRound on how many tips count', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            winner: fc.constantFrom(1, 2, null),
            pick: fc.constantFrom(1, 2, null),
            auto: fc.boolean(),
          }),
          { maxLength: 9 },
        ),
        (rows) => {
          const ms = rows.map((r, i) => match(i + 1, r.winner))
          const ts = rows.flatMap((r, i) => (r.pick === null ? [] : [tip(i + 1, r.pick, r.auto)]))
          const counted = [...tipOutcomes(ms, ts).values()].filter((o) => o.counted).length
          expect(counted).toBe(scoreRound(1, 1, ms, ts, false).counted)
        },
      ),
    )
  })
})

describe('marginResult', () => {
  it('measures the complete margin game only, a missing margin as 0', () => {
    const game = match(1, 10, { isMarginGame: true, sixes: 7 })
    expect(marginResult(game, 10)).toBe(3)
    expect(marginResult(game, null)).toBe(7)
    expect(marginResult({ ...game, status: 'active' }, 10)).toBeNull()
    expect(marginResult({ ...game, sixes: null }, 10)).toBeNull()
    expect(marginResult(match(2, 10), 10)).toBeNull()
  })
})

describe('maxRoundPoints (GAME_RULES.md)', () => {
  it('counts completed matches with a winner, doubled in the Golden Week, the bonus once over', () => {
    const open = match(3, null, { status: 'scheduled' })
    expect(maxRoundPoints([match(1, 10), match(2, null), open], false)).toBe(1)
    expect(maxRoundPoints([match(1, 10), match(2, null)], false)).toBe(3)
    expect(maxRoundPoints([match(1, 10), match(2, 20)], true)).toBe(6)
    expect(maxRoundPoints([match(1, null)], false)).toBe(0)
    expect(maxRoundPoints([], false)).toBe(0)
  })

  it('is never beaten by any tipper', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            winner: fc.constantFrom(1, 2, null),
            complete: fc.boolean(),
            pick: fc.constantFrom(1, 2, null),
            auto: fc.boolean(),
          }),
          { maxLength: 9 },
        ),
        fc.boolean(),
        (rows, golden) => {
          const ms = rows.map((r, i) =>
            match(i + 1, r.complete ? r.winner : null, {
              status: r.complete ? 'complete' : 'active',
            }),
          )
          const ts = rows.flatMap((r, i) => (r.pick === null ? [] : [tip(i + 1, r.pick, r.auto)]))
          expect(scoreRound(1, 1, ms, ts, golden).points).toBeLessThanOrEqual(
            maxRoundPoints(ms, golden),
          )
        },
      ),
    )
  })
})

describe('rankRows', () => {
  it('ranks points down then margin up, ties share and the next rank skips', () => {
    const ranked = rankRows([
      { id: 'a', points: 5, margin: 3 },
      { id: 'b', points: 7, margin: 9 },
      { id: 'c', points: 5, margin: 3 },
      { id: 'd', points: 5, margin: 1 },
    ])
    expect(ranked.map((r) => [r.id, r.rank])).toEqual([
      ['b', 1],
      ['d', 2],
      ['a', 3],
      ['c', 3],
    ])
  })
})

describe('autoTips (GAME_RULES.md)', () => {
  const start = new Date('2025-12-14T08:15:00Z')
  const match = (id: number, status: ScoringMatch['status'], isMarginGame = false) => ({
    id,
    status,
    startsAt: start,
    awaySquadId: 20,
    isMarginGame,
  })
  const early = { userId: 1, registeredAt: new Date('2025-11-01T00:00:00Z') }
  const atStart = { userId: 2, registeredAt: start }

  it('gives the away squad on a locked match to users registered before it started', () => {
    expect(autoTips([early, atStart], [match(7, 'active', true)], [])).toEqual([
      { userId: 1, matchId: 7, squadId: 20, margin: 0, isAutoTip: true },
    ])
  })

  it('gives nothing on an open match or where the user has a tip', () => {
    const own: ScoringTip = { userId: 1, matchId: 8, squadId: 10, margin: null, isAutoTip: false }
    expect(autoTips([early], [match(7, 'scheduled'), match(8, 'complete')], [own])).toEqual([])
  })
})
