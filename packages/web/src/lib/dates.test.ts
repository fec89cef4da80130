import { describe, expect, it } from 'vitest'
import { formatMatchTime, formatRoundDate, formatTipDate } from './dates.ts'

describe('dates (spec 2, all in UTC)', () => {
  it('formats a tip date as ccc dd-MM-yyyy', () => {
    expect(formatTipDate('2025-12-04T08:15:00Z')).toBe('Thu 04-12-2025')
  })

  it('keeps the UTC day late in the UTC day, whatever the local zone', () => {
    expect(formatTipDate('2025-12-31T23:45:00Z')).toBe('Wed 31-12-2025')
    expect(formatTipDate('2026-01-01T00:15:00Z')).toBe('Thu 01-01-2026')
  })

  it('formats match times and round dates in their own formats', () => {
    expect(formatMatchTime('2025-12-04T08:15:00Z')).toBe('04-12-2025 08:15 AM')
    expect(formatRoundDate('2025-12-04T08:15:00Z')).toBe('Thu 4 Dec')
  })
})
