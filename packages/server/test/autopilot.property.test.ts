import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  autopilotMargin,
  autopilotSquad,
  type AutopilotPickStrategy,
} from '@tipping/contract/rules/autopilot'
import { runAutopilot } from '../src/modules/autopilot/service.ts'
import { createTestApp, loadSeasons, type TestApp } from './helpers.ts'

// What the autopilot job's SQL places (modules/autopilot/queries.ts) equals the reference
// (contract/rules/autopilot.ts) on generated tippers of the men's Week 2 Super Sixes match: their
// own tips, settings, teams, and whether they registered at all or only after the checkpoint's
// tips were counted (a late registrant is a tipper like any other), in batches of any size
// (decision 026: the favourite and the margin are counted once per checkpoint). Both engines.
const RUNS = Number(process.env.AUTOPILOT_RUNS ?? 30)
const PLAYERS = 10
const LEADS = [15, 60, 180] as const

let t: TestApp
let match: {
  id: number
  round_id: number
  competition_id: number
  starts_at: Date
  home: number
  away: number
}
let other: number
const ids: number[] = []

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  const m = await t.db
    .selectFrom('matches as m')
    .innerJoin('rounds as r', 'r.id', 'm.round_id')
    .innerJoin('competitions as c', 'c.id', 'r.competition_id')
    .select([
      'm.id',
      'm.round_id',
      'm.competition_id',
      'm.starts_at',
      'm.home_squad_id as home',
      'm.away_squad_id as away',
    ])
    .where('c.sport', '=', 'bbl')
    .where('r.number', '=', 2)
    .where('m.is_margin_game', '=', true)
    .executeTakeFirstOrThrow()
  match = { ...m, starts_at: new Date(m.starts_at) }
  const squad = await t.db
    .selectFrom('squads')
    .select('id')
    .where('sport', '=', 'bbl')
    .where('id', 'not in', [match.home, match.away])
    .executeTakeFirstOrThrow()
  other = squad.id
  for (let i = 0; i < PLAYERS; i++) {
    const row = await t.db
      .insertInto('users')
      .values({
        email: `autopilot-prop-${i}@example.com`,
        password_hash: null,
        team_name: null,
        external_id: null,
        deactivated_at: null,
        roles: ['ROLE_USER_BBL'],
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    ids.push(row.id)
  }
})
afterAll(() => t.close())

const player = fc.record({
  registered: fc.constantFrom('before', 'late', 'never'),
  // Half without a tip of their own (fc.option's default is 1 in 6), so a run has several
  // tippers for autopilot to serve, in several batches.
  own: fc.option(
    fc.record({ home: fc.boolean(), margin: fc.option(fc.integer({ min: 0, max: 100 })) }),
    { freq: 2 },
  ),
  setting: fc.option(
    fc.record({
      strategy: fc.constantFrom<AutopilotPickStrategy>('favourite', 'home', 'team'),
      lead: fc.constantFrom(...LEADS),
    }),
  ),
  team: fc.constantFrom('none', 'home', 'away', 'other'),
})

describe('autopilot: SQL equals the reference', () => {
  it('places exactly the reference tips on generated tippers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(player, { minLength: PLAYERS, maxLength: PLAYERS }),
        fc.constantFrom(10, 45, 120),
        // Batches of 1 to more than the players: the split never changes what is placed.
        fc.integer({ min: 1, max: PLAYERS + 2 }),
        async (players, minutesBefore, batchSize) => {
          const now = new Date(match.starts_at.getTime() - minutesBefore * 60_000)
          await t.db.deleteFrom('tips').where('user_id', 'in', ids).execute()
          await t.db.deleteFrom('autopilot_passes').execute()
          await t.db.deleteFrom('autopilot_settings').where('user_id', 'in', ids).execute()
          await t.db.deleteFrom('competition_registrations').where('user_id', 'in', ids).execute()
          const teamOf = { none: 0, home: match.home, away: match.away, other }
          for (const [i, p] of players.entries()) {
            const id = ids[i]!
            await t.db
              .updateTable('users')
              .set({ team_supported: teamOf[p.team] })
              .where('id', '=', id)
              .execute()
            if (p.registered !== 'never') {
              const at = p.registered === 'before' ? new Date(now.getTime() - 86_400_000) : now
              await t.db
                .insertInto('competition_registrations')
                .values({ competition_id: match.competition_id, user_id: id, registered_at: at })
                .execute()
              if (p.own)
                await t.db
                  .insertInto('tips')
                  .values({
                    user_id: id,
                    match_id: match.id,
                    round_id: match.round_id,
                    squad_id: p.own.home ? match.home : match.away,
                    margin: p.own.margin,
                  })
                  .execute()
            }
            if (p.setting)
              await t.db
                .insertInto('autopilot_settings')
                .values({
                  user_id: id,
                  sport: 'bbl',
                  strategy: p.setting.strategy,
                  lead_minutes: p.setting.lead,
                })
                .execute()
          }
          t.clock.set(now)
          await runAutopilot(t.db, t.clock, { batchSize })

          // The reference: the checkpoint is the shortest lead the start is within.
          const checkpoint = LEADS.find((l) => minutesBefore <= l)!
          const own = players.filter((p) => p.registered !== 'never' && p.own)
          const crowd = {
            squadIds: own.map((p) => (p.own!.home ? match.home : match.away)),
            margins: own.flatMap((p) => (p.own!.margin === null ? [] : [p.own!.margin])),
          }
          const m = { homeSquadId: match.home, awaySquadId: match.away, isMarginGame: true }
          const expected = players
            .map((p, i) => ({ p, id: ids[i]! }))
            .filter(
              ({ p }) =>
                p.registered !== 'never' && !p.own && p.setting && p.setting.lead >= checkpoint,
            )
            .map(({ p, id }) => ({
              user_id: id,
              squad_id: autopilotSquad(p.setting!.strategy, teamOf[p.team], m, crowd),
              margin: autopilotMargin(m, crowd),
            }))
          const placed = await t.db
            .selectFrom('tips')
            .select(['user_id', 'squad_id', 'margin'])
            .where('match_id', '=', match.id)
            .where('is_autopilot', '=', true)
            .where('user_id', 'in', ids)
            .orderBy('user_id')
            .execute()
          expect(placed).toEqual(expected)
        },
      ),
      { numRuns: RUNS },
    )
  }, 240_000)
})
