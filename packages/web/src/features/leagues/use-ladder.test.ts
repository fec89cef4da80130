import { describe, expect, it } from 'vitest'
import type { RankingRow } from '@tipping/contract/scores'
import { arrangeLadder } from './use-ladder.ts'

const row = (userId: number, rank: number): RankingRow => ({
  userId,
  rank,
  teamName: null,
  firstName: `T${userId}`,
  lastNameInitial: 'X',
  points: 0,
  totalPoints: 0,
  margin: 0,
  totalMargin: 0,
})
const page = (from: number, user: RankingRow | null, next: number | null) => ({
  rankings: Array.from({ length: 20 }, (_, i) => row(from + i, from + i)),
  nextPage: next,
  user,
})

describe('ladder display (spec 4)', () => {
  it('does not repeat the user who is on the first page', () => {
    const { rows, pinned } = arrangeLadder([page(1, row(5, 5), 2)], 5)
    expect(pinned).toBeNull()
    expect(rows.filter((r) => r.userId === 5)).toHaveLength(1)
  })

  it('moves a user ranked beyond 20 to the top and drops them from the appended pages', () => {
    const me = row(25, 25)
    const { rows, pinned } = arrangeLadder([page(1, me, 2), page(21, null, null)], 25)
    expect(pinned).toEqual(me)
    expect(rows).toHaveLength(39)
    expect(rows.some((r) => r.userId === 25)).toBe(false)
  })

  it('pins nobody when the user has no row', () => {
    expect(arrangeLadder([page(1, null, null)], 99).pinned).toBeNull()
  })
})
