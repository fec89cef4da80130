import { describe, expect, it } from 'vitest'
import type { FixtureRound } from '@tipping/contract/static-files'
import { leadersRoundFor } from './side-cards.tsx'

const round = (number: number, statuses: ('scheduled' | 'active' | 'complete')[]): FixtureRound =>
  ({
    id: number * 10,
    number,
    label: `Week ${number}`,
    matches: statuses.map((status, i) => ({ id: number * 100 + i, status })),
  }) as FixtureRound
const rounds = [round(1, ['complete']), round(2, ['complete', 'active']), round(3, ['scheduled'])]

describe('leadersRoundFor (the week a leaders card shows)', () => {
  it('is the week asked for once it has a result', () => {
    expect(leadersRoundFor(rounds, 1)?.number).toBe(1)
    expect(leadersRoundFor(rounds, 2)?.number).toBe(2)
  })

  it('is the latest week with a result otherwise', () => {
    expect(leadersRoundFor(rounds, 3)?.number).toBe(2)
    expect(leadersRoundFor(rounds, null)?.number).toBe(2)
  })

  it('is none before the first result', () => {
    expect(leadersRoundFor([round(1, ['scheduled'])], 1)).toBeNull()
  })
})
