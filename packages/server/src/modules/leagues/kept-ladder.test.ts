import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toRankingRow, type RankedTipper } from '../scores/ranking-row.ts'
import { KeptLadder } from './kept-ladder.ts'

// Names as players type them: empty team names, spaces, accents, emoji (an initial of two UTF-16
// units), and the separator's neighbours.
const name = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', 'Ōtautahi', '🦆 Ducks', '𝓩ed', 'a\u0001b'),
)
const tipper = (userId: number) =>
  fc.record({
    rank: fc.oneof(fc.integer({ min: 1, max: 200_000 }), fc.constant(null)),
    user_id: fc.constant(userId),
    team_name: fc.oneof(name, fc.constant(null)),
    first_name: name,
    last_name: name,
    points: fc.integer({ min: 0, max: 500 }),
    margin: fc.integer({ min: -10_000, max: 10_000 }),
    total_points: fc.integer({ min: 0, max: 5_000 }),
    total_margin: fc.integer({ min: -100_000, max: 100_000 }),
  })
const ladder = fc
  .uniqueArray(fc.integer({ min: 1, max: 2_000_000_000 }), { maxLength: 60 })
  .chain((ids) => fc.tuple(...ids.map(tipper)))
  .map((rows): RankedTipper[] => rows)

describe('KeptLadder', () => {
  it('answers every page and every member as the row objects did', () => {
    fc.assert(
      fc.property(
        ladder,
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 2_000_000_000 }),
        (rows, offset, count, stranger) => {
          const kept = new KeptLadder(rows, 7)
          expect(kept.size).toBe(rows.length)
          expect(kept.scoresVersion).toBe(7)
          expect(kept.rows(offset, count)).toEqual(
            rows.slice(offset, offset + count).map(toRankingRow),
          )
          for (const r of rows) expect(kept.of(r.user_id)).toEqual(toRankingRow(r))
          if (!rows.some((r) => r.user_id === stranger)) expect(kept.of(stranger)).toBeUndefined()
        },
      ),
      { numRuns: 300 },
    )
  })
})
