import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { initialOf } from '@tipping/contract/scores'
import { rankRows } from '@tipping/contract/rules/scoring'
import { KeptLeague } from './kept-league.ts'
import type { MemberScores } from './queries.ts'

// Names as players type them: empty team names, spaces, accents, emoji (an initial of two UTF-16
// units), and the separator's neighbours.
const name = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', 'Ōtautahi', '🦆 Ducks', '𝓩ed', 'a\u0001b'),
)
describe('KeptLeague', () => {
  it('ranks the overall and every week view of a league as the reference ranks them', () => {
    // Members in user id order, each with scores in some of rounds 1-6 (none: a late joiner).
    const member = fc.record({
      team_name: fc.oneof(name, fc.constant(null)),
      first_name: name,
      last_name: name,
      // Few values, so that ties in points and margin are common.
      rounds: fc.uniqueArray(
        fc.record({
          round: fc.integer({ min: 1, max: 6 }),
          points: fc.integer({ min: 0, max: 4 }),
          margin: fc.integer({ min: 0, max: 3 }),
        }),
        { selector: (r) => r.round, maxLength: 6 },
      ),
    })
    const league = fc
      .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 50 })
      .map((ids) => ids.sort((a, b) => a - b))
      .chain((ids) =>
        fc.tuple(
          fc.constant(ids),
          fc.array(member, { minLength: ids.length, maxLength: ids.length }),
        ),
      )
    fc.assert(
      fc.property(league, fc.integer({ min: 1, max: 6 }), ([ids, members], startRound) => {
        const rows: MemberScores[] = members.map((m, i) => ({
          user_id: ids[i]!,
          team_name: m.team_name,
          first_name: m.first_name,
          last_name: m.last_name,
          scores: m.rounds.map((r) => `${r.round} ${r.points} ${r.margin}`).join(' '),
        }))
        const kept = new KeptLeague(rows, startRound, 3)
        const sum = (i: number, keep: (round: number) => boolean, field: 'points' | 'margin') =>
          members[i]!.rounds.filter((r) => keep(r.round)).reduce((t, r) => t + r[field], 0)
        for (const round of [null, 1, 2, 3, 4, 5, 6, 7]) {
          const keep = (n: number) => (round === null ? n >= startRound : n === round)
          // rankRows sorts stably: members given in user id order are listed by it within a rank.
          const expected = rankRows(
            members.map((m, i) => ({
              rank: 0,
              userId: ids[i]!,
              teamName: m.team_name,
              firstName: m.first_name,
              lastNameInitial: initialOf(m.last_name),
              points: sum(i, keep, 'points'),
              margin: sum(i, keep, 'margin'),
              totalPoints: sum(i, (n) => n >= startRound, 'points'),
              totalMargin: sum(i, (n) => n >= startRound, 'margin'),
            })),
          )
          const view = kept.view(round)
          expect(view.size).toBe(members.length)
          expect(view.scoresVersion).toBe(3)
          expect(view.rows(0, members.length)).toEqual(expected)
          for (const row of expected) expect(view.of(row.userId)).toEqual(row)
          expect(view.of(0)).toBeUndefined()
        }
        // Weeks past the last played share one view: a crowd asking for every week up to the
        // route's 1,000 keeps one, not a view each.
        expect(kept.view(999)).toBe(kept.view(7))
      }),
      { numRuns: 300 },
    )
  })
})
