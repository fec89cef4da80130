import { describe, expect, it } from 'vitest'
import { formatInstant, formatMatchTime, formatRoundDate, formatTipDate } from './dates.ts'

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

  it('writes a 12-hour clock: midnight and noon are 12, the afternoon is PM', () => {
    expect(formatMatchTime('2025-12-04T00:05:00Z')).toBe('04-12-2025 12:05 AM')
    expect(formatMatchTime('2025-12-04T12:00:00Z')).toBe('04-12-2025 12:00 PM')
    expect(formatMatchTime('2025-12-04T19:40:00Z')).toBe('04-12-2025 07:40 PM')
    expect(formatMatchTime('2025-12-31T23:59:00Z')).toBe('31-12-2025 11:59 PM')
  })

  it('names every weekday and month in English', () => {
    expect(formatRoundDate('2026-01-04T00:00:00Z')).toBe('Sun 4 Jan')
    expect(formatRoundDate('2026-06-20T23:00:00Z')).toBe('Sat 20 Jun')
    expect(formatTipDate('2026-02-02T10:00:00Z')).toBe('Mon 02-02-2026')
  })

  it("writes the console's instants to the second, in UTC and saying so", () => {
    expect(formatInstant('2025-12-04T08:15:03.456Z')).toBe('04-12-2025 08:15:03 UTC')
    // The same instant written with an offset reads the same.
    expect(formatInstant('2025-12-04T19:15:03+11:00')).toBe('04-12-2025 08:15:03 UTC')
  })
})
