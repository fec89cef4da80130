import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { roundHonours } from '@tipping/contract/rules/honours'
import {
  honoursByMembers,
  honoursByWalk,
  type HonourRow,
} from '../src/modules/leagues/honours/queries.ts'
import { ladderPage } from '../src/modules/leagues/queries.ts'
import { LEAGUE_SHAPE, loadSeason, seasonArb, useSeasonDatabase } from './generated-season.ts'

// Issue 31 round honours: both statements of leagues/honours/queries.ts (the member join of a small
// league, the ranking walk of a big one, with a walk depth small enough to fall back to the join)
// must equal the contract's roundHonours, and the first places of the league's week ladder
// (ladderPage), on random seasons: late registrations (placed after the season started),
// deactivated members, auto-tips, no results, Golden Week, a random start round and a random
// subset of tippers in the league. HONOURS_RUNS raises the number of seasons.
const RUNS = Number(process.env.HONOURS_RUNS ?? 50)
const database = useSeasonDatabase()

const fullArb = seasonArb(LEAGUE_SHAPE).chain((s) =>
  fc.record({
    season: fc.constant(s),
    late: fc.integer({ min: 0, max: 2 }),
    inLeague: fc.array(
      fc.nat(3).map((n) => n > 0),
      { minLength: s.users + 2, maxLength: s.users + 2 },
    ),
    startRound: fc.integer({ min: 1, max: s.rounds.length }),
    depth: fc.integer({ min: 1, max: 4 }),
  }),
)

/** Rows as round -> winners, for comparing with the reference. */
const byRound = (rows: readonly HonourRow[]) => {
  const out = new Map<
    number,
    { points: number; margin: number; count: number; winners: number[] }
  >()
  for (const r of rows) {
    const got = out.get(r.round) ?? {
      points: r.points,
      margin: r.margin,
      count: r.winner_count,
      winners: [],
    }
    got.winners.push(r.user_id)
    out.set(r.round, got)
  }
  return out
}

describe('round honours equal the reference and the week ladder', () => {
  it(`on ${RUNS} random seasons, both statements`, async () => {
    await fc.assert(
      fc.asyncProperty(fullArb, async ({ season, late, inLeague, startRound, depth }) => {
        const db = database().handle.db
        const { registrations, reference, competitionId } = await loadSeason(database(), season, {
          late,
          roundStatuses: true,
        })
        const owner = registrations[0]!.userId
        const league = await db
          .insertInto('leagues')
          .values({
            competition_id: competitionId,
            user_id: owner,
            name: 'Honours',
            description: '',
            privacy: 'private',
            code: 'HONOURS123',
            start_round: startRound,
            num_users: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        const members = registrations.filter((_, i) => inLeague[i]).map((r) => r.userId)
        if (members.length > 0)
          await db
            .insertInto('league_members')
            .values(members.map((user_id) => ({ league_id: league.id, user_id })))
            .execute()
        const active = new Set(registrations.filter((r) => r.active).map((r) => r.userId))
        const complete = (
          await db.selectFrom('rounds').select('number').where('status', '=', 'complete').execute()
        ).map((r) => r.number)

        const expected = roundHonours({
          members: members.filter((m) => active.has(m)),
          startRound,
          completeRounds: complete,
          scores: reference.rounds,
        })
        const want = new Map(
          expected.map((h) => [
            h.round,
            { points: h.points, margin: h.margin, count: h.winners.length, winners: h.winners },
          ]),
        )
        const q = { leagueId: league.id, competitionId, startRound, namesMax: 100 }
        expect(byRound(await honoursByMembers(db, q))).toEqual(want)
        expect(byRound(await honoursByWalk(db, { ...q, depth }))).toEqual(want)

        // The same first places as the league's week ladder shows, round by round.
        for (const h of expected) {
          const week = await ladderPage(db, {
            leagueId: league.id,
            competitionId,
            startRound,
            roundNumber: h.round,
            offset: 0,
            limit: 1000,
          })
          expect(week.filter((r) => r.rank === 1).map((r) => r.user_id)).toEqual(h.winners)
        }

        // The names listed are capped; the count is not.
        for (const rows of [
          await honoursByMembers(db, { ...q, namesMax: 1 }),
          await honoursByWalk(db, { ...q, namesMax: 1, depth }),
        ]) {
          expect(rows.map((r) => [r.round, r.user_id, r.winner_count])).toEqual(
            expected.map((h) => [h.round, h.winners[0], h.winners.length]),
          )
        }
      }),
      { numRuns: RUNS },
    )
  }, 600_000)
})
