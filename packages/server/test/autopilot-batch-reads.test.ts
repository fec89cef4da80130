import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { nextBatch, type DueCheckpoint } from '../src/modules/autopilot/queries.ts'
import { createTestApp, currentCompetitionId, loadSeasons, type TestApp } from './helpers.ts'

// The autopilot job lists each batch's tippers by a bounded range of autopilot_settings per lead
// (queries.ts nextBatch), however the tippers spread over the leads. Most tippers keep one lead;
// a lead nobody chose must not cost a read of every setting after the batch's start.

const TIPPERS = 3000
const SIZE = 500

let t: TestApp
let checkpoint: DueCheckpoint
let expected: number[]

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  const competitionId = await currentCompetitionId(t.db, 'bbl')
  await sql`
    INSERT INTO users (email, first_name, last_name, roles)
    SELECT 'pilot' || n || '@sim.invalid', 'Sim', 'Pilot' || n, ARRAY['ROLE_USER_BBL']
    FROM generate_series(1, ${TIPPERS}) AS n
  `.execute(t.db)
  // All an hour ahead (as in the bench), so a checkpoint an hour ahead also looks at the
  // three-hour lead, which nobody chose.
  await sql`
    INSERT INTO autopilot_settings (user_id, sport, strategy, lead_minutes)
    SELECT id, 'bbl', 'home', 60 FROM users WHERE email LIKE 'pilot%@sim.invalid'
  `.execute(t.db)
  await sql`ANALYZE autopilot_settings`.execute(t.db)
  const match = await t.db
    .selectFrom('matches')
    .select('id')
    .where('competition_id', '=', competitionId)
    .orderBy('starts_at')
    .executeTakeFirstOrThrow()
  checkpoint = { match_id: match.id, lead_minutes: 60, competition_id: competitionId, sport: 'bbl' }
  expected = (
    await sql<{ user_id: number }>`
      SELECT user_id FROM autopilot_settings WHERE sport = 'bbl' ORDER BY user_id LIMIT ${SIZE}
    `.execute(t.db)
  ).rows.map((r) => r.user_id)
})
afterAll(() => t.close())

it('lists a batch from a bounded range per lead, an empty one included', async () => {
  // The rows autopilot_settings gave up for one batch (to its scans, by index or not), from this
  // session's counters read before and after in one transaction. An index scan that filters by
  // lead fetches each row it passes over; a range of the lead's own index fetches only its own.
  const { batch, entries } = await t.db.transaction().execute(async (trx) => {
    const read = async () =>
      (
        await sql<{ n: number }>`
          SELECT coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::int AS n
          FROM pg_stat_xact_user_tables WHERE relname = 'autopilot_settings'`.execute(trx)
      ).rows[0]!.n
    const before = await read()
    const batch = await nextBatch(trx, checkpoint, 0, SIZE)
    return { batch, entries: (await read()) - before }
  })
  expect(batch).toEqual(expected)
  // One range per lead (60 and 180): the batch's own rows and none of the empty lead's, where
  // filtering every setting by lead would read all TIPPERS.
  expect(entries).toBeGreaterThanOrEqual(SIZE)
  expect(entries).toBeLessThanOrEqual(SIZE + 2)
})

it('resumes after the last tipper listed; a checkpoint for the empty lead lists nobody', async () => {
  const rest = await nextBatch(t.db, checkpoint, expected.at(-1)!, TIPPERS)
  expect(rest).toHaveLength(TIPPERS - SIZE)
  expect(rest[0]).toBeGreaterThan(expected.at(-1)!)
  expect(await nextBatch(t.db, { ...checkpoint, lead_minutes: 180 }, 0, SIZE)).toEqual([])
})
