import { describe, expect, it } from 'vitest'
import { FINISHED_SEASON, NEXT_SEASON, nextSeasonLabel } from './seasons.ts'

describe('season labels', () => {
  it.each([
    ['2025-26', '2026-27'],
    ['2009-10', '2010-11'],
    ['2098-99', '2099-00'],
    ['2099-00', '2100-01'],
  ])('the season after %s is %s', (label, next) => {
    expect(nextSeasonLabel(label)).toBe(next)
  })

  it('refuses what is not a season label', () => {
    expect(() => nextSeasonLabel('2025')).toThrow(/Not a season label/)
  })

  it('puts the offseason between the promoted season and the one after it', () => {
    expect(FINISHED_SEASON).toBe('2025-26')
    expect(NEXT_SEASON).toBe('2026-27')
  })
})
