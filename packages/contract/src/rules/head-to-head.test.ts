import { describe, expect, it } from 'vitest'
import { headToHeadQuerySchema } from '../head-to-head.ts'
import {
  headToHead,
  roundWinner,
  tipDifferences,
  type HeadToHeadMatch,
  type HeadToHeadTip,
} from './head-to-head.ts'

const s = (roundNumber: number, points: number, margin: number) => ({
  roundNumber,
  points,
  margin,
})

describe('roundWinner', () => {
  it('more points wins whatever the margin', () => {
    expect(roundWinner({ points: 5, margin: 30 }, { points: 4, margin: 0 })).toBe('a')
    expect(roundWinner({ points: 2, margin: 0 }, { points: 3, margin: 9 })).toBe('b')
  })
  it('on equal points the smaller margin wins; equal in both is a draw', () => {
    expect(roundWinner({ points: 4, margin: 3 }, { points: 4, margin: 7 })).toBe('a')
    expect(roundWinner({ points: 4, margin: 8 }, { points: 4, margin: 7 })).toBe('b')
    expect(roundWinner({ points: 4, margin: 7 }, { points: 4, margin: 7 })).toBe('draw')
  })
})

/** Rounds 1..complete complete, then up to `active` in play, the rest not begun. */
const statuses = (complete: number, active = complete) =>
  new Map(
    Array.from({ length: 10 }, (_, i) => [
      i + 1,
      i + 1 <= complete
        ? ('complete' as const)
        : i + 1 <= active
          ? ('active' as const)
          : ('scheduled' as const),
    ]),
  )

describe('headToHead', () => {
  it('decides complete rounds from the start round and sums points and margin', () => {
    const a = [s(1, 9, 0), s(2, 5, 3), s(3, 4, 2), s(4, 4, 5), s(5, 1, 0)]
    const b = [s(1, 0, 0), s(2, 3, 1), s(3, 4, 6), s(4, 4, 5), s(5, 6, 0)]
    const r = headToHead(a, b, 2, statuses(4, 5))
    expect(r.rounds.map((x) => [x.roundNumber, x.winner])).toEqual([
      [2, 'a'],
      [3, 'a'],
      [4, 'draw'],
      [5, null],
    ])
    expect(r.a).toEqual({ won: 2, points: 5 + 4 + 4 + 1, margin: 3 + 2 + 5 + 0 })
    expect(r.b).toEqual({ won: 0, points: 3 + 4 + 4 + 6, margin: 1 + 6 + 5 + 0 })
    expect(r.drawn).toBe(1)
  })

  it('leaves out rounds only one of them was counted in (a late joiner), in either order', () => {
    const a = [s(3, 2, 0), s(1, 1, 0), s(2, 1, 0)]
    const b = [s(3, 1, 0)]
    const r = headToHead(a, b, 1, statuses(3))
    expect(r.rounds.map((x) => x.roundNumber)).toEqual([3])
    expect(r.a).toEqual({ won: 1, points: 2, margin: 0 })
    expect(r.b).toEqual({ won: 0, points: 1, margin: 0 })
  })

  it('is symmetric: swapping the two swaps the sides', () => {
    const a = [s(1, 3, 2), s(2, 3, 2)]
    const b = [s(1, 3, 4), s(2, 5, 0)]
    const ab = headToHead(a, b, 1, statuses(2))
    const ba = headToHead(b, a, 1, statuses(2))
    expect(ab.a).toEqual(ba.b)
    expect(ab.b).toEqual(ba.a)
    expect(ab.drawn).toBe(ba.drawn)
  })

  it('leaves out rounds not yet begun', () => {
    const r = headToHead(
      [s(1, 2, 0), s(2, 0, 0), s(3, 0, 0)],
      [s(1, 1, 0), s(2, 0, 0), s(3, 0, 0)],
      1,
      statuses(1, 2),
    )
    expect(r.rounds.map((x) => [x.roundNumber, x.winner])).toEqual([
      [1, 'a'],
      [2, null],
    ])
  })

  it('is empty with no shared rounds', () => {
    expect(headToHead([], [s(1, 1, 1)], 1, statuses(1))).toEqual({
      rounds: [],
      a: { won: 0, points: 0, margin: 0 },
      b: { won: 0, points: 0, margin: 0 },
      drawn: 0,
    })
  })
})

describe('tipDifferences', () => {
  const at = (d: number) => new Date(Date.UTC(2025, 11, d))
  const matches: HeadToHeadMatch[] = [
    { id: 10, status: 'complete', isMarginGame: false, startsAt: at(2), number: 2 },
    { id: 11, status: 'complete', isMarginGame: false, startsAt: at(1), number: 1 },
    { id: 12, status: 'active', isMarginGame: false, startsAt: at(3), number: 3 },
    { id: 13, status: 'complete', isMarginGame: true, startsAt: at(4), number: 4 },
    { id: 14, status: 'complete', isMarginGame: false, startsAt: at(5), number: 5 },
  ]
  const tip = (
    userId: number,
    matchId: number,
    squadId: number,
    margin: number | null = null,
    isAutoTip = false,
  ): HeadToHeadTip => ({ userId, matchId, squadId, margin, isAutoTip })

  it('lists completed matches they tipped differently, in play order, and counts the rest', () => {
    const tips = [
      tip(1, 10, 5),
      tip(2, 10, 6, null, true),
      tip(1, 11, 5),
      tip(2, 11, 5),
      tip(1, 12, 5),
      tip(2, 12, 6),
      tip(1, 13, 5, 20),
      tip(2, 13, 5, 22),
      tip(2, 14, 7),
    ]
    const r = tipDifferences(matches, tips, 1, 2)
    expect(r.agreed).toBe(1)
    expect(r.differences.map((d) => d.matchId)).toEqual([10, 13, 14])
    expect(r.differences[0]!.b?.isAutoTip).toBe(true)
    expect(r.differences[2]!.a).toBeNull()
    // The active match is never compared, however the two tipped it.
    expect(r.differences.some((d) => d.matchId === 12)).toBe(false)
  })

  it('skips a match neither had a tip on; equal sixes on the margin game agree', () => {
    const r = tipDifferences(matches, [tip(1, 13, 5, 20), tip(2, 13, 5, 20)], 1, 2)
    expect(r).toEqual({ differences: [], agreed: 1 })
  })
})

describe('the head-to-head query', () => {
  it('names the field at fault', () => {
    const fail = (q: object) =>
      headToHeadQuerySchema.safeParse(q).error?.issues.map((i) => i.path.join('.'))
    expect(fail({ b: '2' })).toEqual(['a'])
    expect(fail({ a: '2', b: '2' })).toEqual(['b'])
    expect(fail({ a: '1', b: 'x' })).toEqual(['b'])
    expect(fail({ a: '1', b: '2', round: '0' })).toEqual(['round'])
    expect(headToHeadQuerySchema.parse({ a: '1', b: '2', round: '3' })).toEqual({
      a: 1,
      b: 2,
      round: 3,
    })
  })
})
