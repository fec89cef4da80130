import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Lifecycle } from '../predictions.ts'
import { effectiveStatus, roundStatus } from './status.ts'

const lifecycle = fc.constantFrom<Lifecycle>('scheduled', 'active', 'complete')
const start = new Date('2026-01-10T08:00:00Z')

describe('effectiveStatus', () => {
  it('locks a scheduled match at its start time, before the lifecycle job runs', () => {
    expect(effectiveStatus('scheduled', start, new Date(start.getTime() - 1))).toBe('scheduled')
    expect(effectiveStatus('scheduled', start, start)).toBe('active')
    expect(effectiveStatus('scheduled', start, new Date(start.getTime() + 60_000))).toBe('active')
  })
  it('never moves an active or complete match, whatever the clock says', () => {
    fc.assert(
      fc.property(fc.constantFrom<Lifecycle>('active', 'complete'), fc.integer(), (s, offset) => {
        expect(effectiveStatus(s, start, new Date(start.getTime() + offset))).toBe(s)
      }),
    )
  })
})

describe('roundStatus', () => {
  it('is scheduled until a match starts, complete when every match is', () => {
    expect(roundStatus(['scheduled', 'scheduled'])).toBe('scheduled')
    expect(roundStatus(['active', 'scheduled'])).toBe('active')
    expect(roundStatus(['complete', 'scheduled'])).toBe('active')
    expect(roundStatus(['complete', 'complete'])).toBe('complete')
    expect(roundStatus([])).toBe('scheduled')
  })
  it('is complete exactly when a non-empty round has only complete matches', () => {
    fc.assert(
      fc.property(fc.array(lifecycle, { maxLength: 10 }), (statuses) => {
        const complete = statuses.length > 0 && statuses.every((s) => s === 'complete')
        expect(roundStatus(statuses) === 'complete').toBe(complete)
      }),
    )
  })
})
