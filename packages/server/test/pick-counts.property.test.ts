import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pickCounts } from '../src/modules/predictions/queries.ts'
import { LEAGUE_SHAPE, loadSeason, seasonArb, useSeasonDatabase } from './generated-season.ts'

// The pick count (decision 032: stored tips grouped by match and squad, and on a locked match the
// away squad's auto-tips derived as registrations before the start less the stored tips) must
// equal the contract's reference (every stored tip plus rules/scoring.ts autoTips, counted per
// match and squad) and the view match_pick_counts it replaces, on any season: tippers registered
// before the season, late (between matches, or exactly at a start), after every match started,
// deactivated ones (still counted, as their tips and auto-tips stand), scheduled, active and
// complete matches, matches starting together. PICK_COUNTS_RUNS raises the number of seasons.

const RUNS = Number(process.env.PICK_COUNTS_RUNS ?? 30)

const database = useSeasonDatabase()

type Row = { match_id: number; squad_id: number; picks: number }
const sorted = (rows: readonly Row[]) =>
  [...rows]
    .map((r) => ({ match_id: r.match_id, squad_id: r.squad_id, picks: Number(r.picks) }))
    .sort((a, b) => a.match_id - b.match_id || a.squad_id - b.squad_id)

describe('the pick count', () => {
  it(`equals the reference and the view on ${RUNS} random seasons`, async () => {
    await fc.assert(
      fc.asyncProperty(seasonArb(LEAGUE_SHAPE), fc.integer({ min: 0, max: 2 }), async (s, late) => {
        const db = database().handle.db
        const loaded = await loadSeason(database(), s, { late })
        const want: Row[] = loaded.matches.flatMap((m) =>
          [m.homeSquadId, m.awaySquadId].map((squad) => ({
            match_id: m.id,
            squad_id: squad,
            picks: loaded.effective.filter((t) => t.matchId === m.id && t.squadId === squad).length,
          })),
        )
        const rounds = await db.selectFrom('rounds').select('id').orderBy('number').execute()
        const byRound = (
          await Promise.all(rounds.map((r) => pickCounts(db, { roundId: r.id })))
        ).flat()
        expect(sorted(byRound)).toEqual(sorted(want))
        // The list form (the publisher's round stats files), across rounds at once.
        const byList = await pickCounts(db, { matchIds: loaded.matches.map((m) => m.id) })
        expect(sorted(byList)).toEqual(sorted(want))
        const view = await db
          .selectFrom('match_pick_counts')
          .select(['match_id', 'squad_id', 'picks'])
          .execute()
        expect(sorted(view)).toEqual(sorted(want))
      }),
      { numRuns: RUNS },
    )
  })

  it('is empty for no matches', async () => {
    expect(await pickCounts(database().handle.db, { matchIds: [] })).toEqual([])
  })
})
