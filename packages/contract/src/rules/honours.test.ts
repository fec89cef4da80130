import { describe, expect, it } from 'vitest'
import { CLEAN_SWEEP_BONUS } from '../constants.ts'
import {
  canStillWin,
  remainingChances,
  roundHonours,
  roundWins,
  showStillInIt,
  STILL_IN_IT_LATE_ROUNDS,
} from './honours.ts'

const s = (userId: number, roundNumber: number, points: number, margin: number) => ({
  userId,
  roundNumber,
  points,
  margin,
})

describe('roundHonours', () => {
  it('takes the first of each completed round from the start round, sharing ties', () => {
    const scores = [
      s(1, 1, 5, 2),
      s(2, 1, 6, 9),
      s(1, 2, 4, 3),
      s(2, 2, 4, 3),
      s(3, 2, 4, 4),
      s(1, 3, 7, 0),
      s(2, 3, 2, 0),
    ]
    expect(
      roundHonours({ members: [1, 2, 3], startRound: 2, completeRounds: [3, 1, 2], scores }),
    ).toEqual([
      { round: 2, points: 4, margin: 3, winners: [1, 2] },
      { round: 3, points: 7, margin: 0, winners: [1] },
    ])
  })

  it('counts only members, and skips a round none of them has a score in', () => {
    const scores = [s(9, 1, 8, 0), s(1, 1, 3, 5), s(9, 2, 8, 0)]
    expect(roundHonours({ members: [1], startRound: 1, completeRounds: [1, 2], scores })).toEqual([
      { round: 1, points: 3, margin: 5, winners: [1] },
    ])
  })

  it('the lower margin wins a tie on points', () => {
    const scores = [s(1, 1, 3, 5), s(2, 1, 3, 4)]
    expect(
      roundHonours({ members: [1, 2], startRound: 1, completeRounds: [1], scores })[0]?.winners,
    ).toEqual([2])
  })

  it('tallies wins per member', () => {
    expect([...roundWins([{ winners: [1, 2] }, { winners: [1] }])].sort()).toEqual([
      [1, 2],
      [2, 1],
    ])
  })
})

const m = (
  roundNumber: number,
  status: 'scheduled' | 'active' | 'complete',
  isMarginGame = false,
) => ({
  roundNumber,
  status,
  isMarginGame,
})

describe('remainingChances', () => {
  const rounds = [
    { number: 1, isGoldenWeek: false },
    { number: 2, isGoldenWeek: true },
    { number: 3, isGoldenWeek: false },
  ]

  it('counts every match not complete, doubled in the Golden Week, and a bonus per open round', () => {
    const matches = [
      m(1, 'complete', true),
      m(1, 'complete'),
      m(2, 'complete'),
      m(2, 'active', true),
      m(2, 'scheduled'),
      m(3, 'scheduled'),
      m(3, 'scheduled', true),
    ]
    expect(remainingChances(rounds, matches)).toEqual({
      maxPoints: 2 * 2 + CLEAN_SWEEP_BONUS + 2 + CLEAN_SWEEP_BONUS,
      rounds: 2,
      marginGameLeft: true,
    })
  })

  it('is nothing once every match is complete', () => {
    expect(remainingChances(rounds, [m(1, 'complete', true), m(3, 'complete')])).toEqual({
      maxPoints: 0,
      rounds: 0,
      marginGameLeft: false,
    })
  })

  it('knows when the margin games are all played', () => {
    expect(
      remainingChances(rounds, [m(3, 'complete', true), m(3, 'scheduled')]).marginGameLeft,
    ).toBe(false)
  })
})

describe('canStillWin', () => {
  const left = (maxPoints: number, marginGameLeft: boolean) => ({
    maxPoints,
    rounds: maxPoints > 0 ? 1 : 0,
    marginGameLeft,
  })
  const leader = { points: 40, margin: 10 }

  it('is in when the points left can take them past the leader', () => {
    expect(canStillWin({ points: 30, margin: 99 }, leader, left(11, false))).toBe(true)
  })

  it('is out when even every point left falls short', () => {
    expect(canStillWin({ points: 30, margin: 0 }, leader, left(9, true))).toBe(false)
  })

  it('level on points at best: a margin game left keeps any margin in it', () => {
    expect(canStillWin({ points: 30, margin: 50 }, leader, left(10, true))).toBe(true)
  })

  it('level on points at best with margins final: in with a margin no worse (a shared first)', () => {
    expect(canStillWin({ points: 30, margin: 10 }, leader, left(10, false))).toBe(true)
    expect(canStillWin({ points: 30, margin: 9 }, leader, left(10, false))).toBe(true)
    expect(canStillWin({ points: 30, margin: 11 }, leader, left(10, false))).toBe(false)
  })

  it('after the season only the first are in; the leader always is', () => {
    expect(canStillWin(leader, leader, left(0, false))).toBe(true)
    expect(canStillWin({ points: 40, margin: 11 }, leader, left(0, false))).toBe(false)
    expect(canStillWin({ points: 39, margin: 0 }, leader, left(0, false))).toBe(false)
  })
})

describe('showStillInIt', () => {
  it('shows in the last rounds, or once someone is out', () => {
    const left = (rounds: number) => ({ maxPoints: rounds * 10, rounds, marginGameLeft: true })
    expect(showStillInIt(left(STILL_IN_IT_LATE_ROUNDS), false)).toBe(true)
    expect(showStillInIt(left(STILL_IN_IT_LATE_ROUNDS + 1), false)).toBe(false)
    expect(showStillInIt(left(STILL_IN_IT_LATE_ROUNDS + 1), true)).toBe(true)
    expect(showStillInIt(left(0), false)).toBe(false)
  })
})
