import { describe, expect, it } from 'vitest'
import { formatCount, formatSixes } from './numbers.ts'

describe('formatCount', () => {
  it('groups thousands as en-AU does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -4321])
      expect(formatCount(n)).toBe(n.toLocaleString('en-AU'))
  })
})

describe('formatSixes', () => {
  it('says one six, and any other count in sixes', () => {
    expect([0, 1, 2, 14, 1200].map(formatSixes)).toEqual([
      '0 sixes',
      '1 six',
      '2 sixes',
      '14 sixes',
      '1,200 sixes',
    ])
  })
})
