import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { clampMargin } from './margin.ts'
import { defaultRoundId, defaultRoundNumber, isRoundLive, isTippable } from './rounds.ts'
import {
  allOpenPicked,
  assertPicksArray,
  canSave,
  INVALID_PICKS_MESSAGE,
  picksToSave,
} from './picks.ts'
import { ballsFromOvers, oversFromBalls } from './cricket.ts'
import { MARGIN_MAX, MARGIN_MIN } from '../constants.ts'

describe('clampMargin', () => {
  it('clamps to 0-100 and drops fractions', () => {
    expect(clampMargin(-5)).toBe(0)
    expect(clampMargin(101)).toBe(100)
    expect(clampMargin(12.9)).toBe(12)
    expect(clampMargin(Number.NaN)).toBe(0)
  })
  it('always lands in range as an integer', () => {
    fc.assert(
      fc.property(fc.double(), (v) => {
        const c = clampMargin(v)
        return Number.isInteger(c) && c >= MARGIN_MIN && c <= MARGIN_MAX
      }),
    )
  })
})

describe('defaultRoundId', () => {
  it('picks the first active or scheduled round', () => {
    expect(
      defaultRoundId([
        { id: 10, status: 'complete' },
        { id: 11, status: 'active' },
        { id: 12, status: 'scheduled' },
      ]),
    ).toBe(11)
    expect(
      defaultRoundId([
        { id: 10, status: 'complete' },
        { id: 12, status: 'scheduled' },
      ]),
    ).toBe(12)
  })
  it('falls back to the last round, then to 1', () => {
    expect(
      defaultRoundId([
        { id: 10, status: 'complete' },
        { id: 11, status: 'complete' },
      ]),
    ).toBe(11)
    expect(defaultRoundId([])).toBe(1)
  })
  it('names that round by its number, which need not be its id', () => {
    const rounds = [
      { id: 40, number: 1, status: 'complete' as const },
      { id: 41, number: 2, status: 'scheduled' as const },
    ]
    expect(defaultRoundNumber(rounds)).toBe(2)
    expect(defaultRoundNumber([rounds[0]!])).toBe(1)
    expect(defaultRoundNumber([{ id: 7, number: 9, status: 'complete' }])).toBe(9)
    expect(defaultRoundNumber([])).toBe(1)
  })
})

describe('round and match timing', () => {
  const now = new Date('2026-01-01T00:00:00Z')
  it('treats a scheduled match whose start has passed as live and locked', () => {
    const started = { status: 'scheduled' as const, date: '2025-12-31T23:59:59.999Z' }
    const later = { status: 'scheduled' as const, date: '2026-01-01T00:00:00.001Z' }
    expect(isRoundLive([later], now)).toBe(false)
    expect(isRoundLive([later, started], now)).toBe(true)
    expect(isRoundLive([{ status: 'active', date: '2026-02-01T00:00:00Z' }], now)).toBe(true)
    expect(isTippable(later, now)).toBe(true)
    expect(isTippable(started, now)).toBe(false)
    expect(isTippable({ status: 'scheduled', date: now.toISOString() }, now)).toBe(false)
  })
})

describe('picks', () => {
  const picks = [
    { match: 1, squad: 5, margin: null, status: 'scheduled' as const },
    { match: 2, squad: 0, margin: null, status: 'scheduled' as const },
    { match: 3, squad: 7, margin: null, status: 'active' as const },
  ]
  it('saves only scheduled picks with a squad', () => {
    expect(picksToSave(picks).map((p) => p.match)).toEqual([1])
  })
  it('enables save only with a pick, saving allowed and the round not complete', () => {
    expect(canSave({ canSave: true, roundStatus: 'active', picks })).toBe(true)
    expect(canSave({ canSave: false, roundStatus: 'active', picks })).toBe(false)
    expect(canSave({ canSave: true, roundStatus: 'complete', picks })).toBe(false)
    expect(canSave({ canSave: true, roundStatus: 'active', picks: [picks[1]!, picks[2]!] })).toBe(
      false,
    )
  })
  it('knows when every open match is picked', () => {
    expect(allOpenPicked(picks)).toBe(false)
    // The active match (3) cannot be picked any more, so it does not hold the rest up.
    expect(allOpenPicked([picks[0]!, { ...picks[2]!, squad: 0 }])).toBe(true)
  })
  it('refuses picks that are not a list', () => {
    expect(() => assertPicksArray({})).toThrow(INVALID_PICKS_MESSAGE)
    expect(() => assertPicksArray([])).not.toThrow()
  })
})

describe('overs notation', () => {
  it('converts both ways', () => {
    expect(ballsFromOvers('19.5')).toBe(119)
    expect(ballsFromOvers('20')).toBe(120)
    expect(oversFromBalls(119)).toBe('19.5')
    expect(oversFromBalls(120)).toBe('20')
    expect(() => ballsFromOvers('19.6')).toThrow()
  })
  it('round-trips every ball count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), (b) => ballsFromOvers(oversFromBalls(b)) === b),
    )
  })
})
