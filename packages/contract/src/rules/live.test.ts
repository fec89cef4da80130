import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { FULL_INNINGS_BALLS, liveFigures, liveLeader } from './live.ts'

const inn = (
  runs: number,
  wickets: number,
  balls: number,
  ballsAllotted: number | null = null,
) => ({
  runs,
  wickets,
  balls,
  ballsAllotted,
})

describe('liveFigures', () => {
  it('has no rates before the first ball and no chase figures in the first innings', () => {
    expect(liveFigures([inn(0, 0, 0)])).toEqual({
      runRates: [null],
      target: null,
      runsNeeded: null,
      ballsLeft: null,
      requiredRate: null,
    })
  })

  it('gives the run rate per over from legal balls (12.3 overs is 75 balls)', () => {
    expect(liveFigures([inn(100, 3, 75)]).runRates).toEqual([8])
    expect(liveFigures([inn(7, 0, 4)]).runRates).toEqual([10.5])
    expect(liveFigures([inn(10, 0, 7)]).runRates).toEqual([8.57])
  })

  it('sets the chase: target, runs needed, balls left and the required rate', () => {
    const f = liveFigures([inn(180, 6, 120), inn(90, 2, 60)])
    expect(f.target).toBe(181)
    expect(f.runsNeeded).toBe(91)
    expect(f.ballsLeft).toBe(60)
    expect(f.requiredRate).toBe(9.1)
    expect(f.runRates).toEqual([9, 9])
  })

  it('counts a reduced chase from its own allotment', () => {
    const f = liveFigures([inn(150, 8, 120), inn(40, 1, 30, 84)])
    expect(f.ballsLeft).toBe(54)
    expect(f.requiredRate).toBe(12.33)
  })

  it('has no required rate once the target is reached or no ball is left', () => {
    expect(liveFigures([inn(150, 8, 120), inn(151, 4, 100)])).toMatchObject({
      runsNeeded: 0,
      requiredRate: null,
    })
    expect(liveFigures([inn(150, 8, 120), inn(140, 9, 120)])).toMatchObject({
      runsNeeded: 11,
      ballsLeft: 0,
      requiredRate: null,
    })
  })

  it('never gives a negative figure and always needs the runs at the rate it says', () => {
    const innings = fc.record({
      runs: fc.integer({ min: 0, max: 999 }),
      wickets: fc.integer({ min: 0, max: 10 }),
      balls: fc.integer({ min: 0, max: FULL_INNINGS_BALLS }),
      ballsAllotted: fc.constant(null),
    })
    fc.assert(
      fc.property(innings, innings, (a, b) => {
        const f = liveFigures([a, b])
        if (f.runsNeeded === null || f.ballsLeft === null) return false
        if (f.runsNeeded < 0 || f.ballsLeft < 0) return false
        if (f.runRates.some((r) => r !== null && r < 0)) return false
        if (f.requiredRate === null) return f.runsNeeded === 0 || f.ballsLeft === 0
        return Math.abs((f.requiredRate * f.ballsLeft) / 6 - f.runsNeeded) < f.ballsLeft / 6 / 100
      }),
    )
  })
})

describe('liveLeader', () => {
  const leader = (innings: ReturnType<typeof inn>[]) => liveLeader(innings, liveFigures(innings))

  it('calls nobody in the first innings or before the chase has faced a ball', () => {
    expect(leader([inn(150, 3, 100)])).toBeNull()
    expect(leader([inn(150, 8, 120), inn(0, 0, 0)])).toBeNull()
  })

  it('gives the chase to the side scoring at least at the rate it needs', () => {
    // 151 to win; 75 from 60 balls is 7.5 an over, and 76 are needed from 60: 7.6.
    expect(leader([inn(150, 8, 120), inn(75, 1, 60)])).toBe('defending')
    expect(leader([inn(150, 8, 120), inn(76, 1, 60)])).toBe('chasing')
  })

  it('settles on the target reached, and on the chase out of wickets or balls', () => {
    expect(leader([inn(150, 8, 120), inn(151, 9, 119)])).toBe('chasing')
    expect(leader([inn(150, 8, 120), inn(149, 10, 100)])).toBe('defending')
    expect(leader([inn(150, 8, 120), inn(149, 4, 120)])).toBe('defending')
  })

  it('always names a side once the chase has started and is never both', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: FULL_INNINGS_BALLS }),
        (first, runs, wickets, balls) => {
          const result = leader([inn(first, 10, FULL_INNINGS_BALLS), inn(runs, wickets, balls)])
          expect(['chasing', 'defending']).toContain(result)
          if (runs > first) expect(result).toBe('chasing')
        },
      ),
    )
  })
})
