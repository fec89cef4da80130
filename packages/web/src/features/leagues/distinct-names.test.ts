import { describe, expect, it } from 'vitest'
import { distinctNames } from './distinct-names.ts'

describe('distinctNames', () => {
  it('leaves names that no one else has as they are', () => {
    const labels = distinctNames([
      { userId: 1, name: 'Sam W.', rank: 1 },
      { userId: 2, name: 'The Gabba Gang', rank: 2 },
    ])
    expect([...labels]).toEqual([
      [1, 'Sam W.'],
      [2, 'The Gabba Gang'],
    ])
  })

  it('tells a shared name apart by its ladder position', () => {
    const labels = distinctNames([
      { userId: 7, name: 'Sam W.', rank: 3 },
      { userId: 8, name: 'Ash K.', rank: 4 },
      { userId: 9, name: 'Sam W.', rank: 12 },
    ])
    expect(labels.get(7)).toBe('Sam W. (3rd)')
    expect(labels.get(8)).toBe('Ash K.')
    expect(labels.get(9)).toBe('Sam W. (12th)')
  })

  it('numbers those a position does not tell apart: a tie, or no position known', () => {
    const labels = distinctNames([
      { userId: 1, name: 'Sam W.', rank: 5 },
      { userId: 2, name: 'Sam W.', rank: 5 },
      { userId: 3, name: 'Sam W.', rank: null },
      { userId: 4, name: 'Sam W.', rank: 0 },
      { userId: 5, name: 'Sam W.', rank: 2 },
    ])
    expect([...labels.values()]).toEqual([
      'Sam W. (5th) #1',
      'Sam W. (5th) #2',
      'Sam W. #1',
      'Sam W. #2',
      'Sam W. (2nd)',
    ])
    expect(new Set(labels.values()).size).toBe(5)
  })
})
