import { describe, expect, it } from 'vitest'
import { formatCount } from './numbers.ts'

describe('formatCount', () => {
  it('groups thousands as en-AU does', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -4321])
      expect(formatCount(n)).toBe(n.toLocaleString('en-AU'))
  })
})
