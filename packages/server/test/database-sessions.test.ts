import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withoutJit } from '../src/db/database.ts'
import { roundStats } from '../src/modules/season/queries.ts'
import {
  createTestApp,
  currentCompetitionId,
  engine,
  loadResults,
  loadSeasons,
  registerUser,
  type TestApp,
} from './helpers.ts'

// What the app's database sessions cost, beyond their answers (decision 040): no JIT compiling
// on PostgreSQL, and a round's stats read from that round's partition of round_scores alone.

describe('withoutJit', () => {
  const options = (url: string) => new URL(withoutJit(url)).searchParams.get('options')

  it('asks every session for jit=off at its start', () => {
    expect(options('postgres://app:s%40cret@db.example:5432/tipping')).toBe('-c jit=off')
    // the rest of the URL is untouched (the password stays encoded the same way)
    expect(withoutJit('postgres://app:s%40cret@db.example:5432/tipping')).toMatch(
      /^postgres:\/\/app:s%40cret@db\.example:5432\/tipping\?options=/,
    )
  })

  it("keeps an operator's options, after its own, so theirs win", () => {
    expect(
      options('postgres://db/tipping?options=-c%20statement_timeout%3D5s&sslmode=require'),
    ).toBe('-c jit=off -c statement_timeout=5s')
    expect(options('postgres://db/tipping?options=-c%20jit%3Don')).toBe('-c jit=off -c jit=on')
  })
})

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-10T00:00:00Z') })
  await loadSeasons(t.db)
  await registerUser(t.app, { team_name: 'Stats A' })
  await registerUser(t.app, { team_name: 'Stats B' })
  // Results in both competitions, so each has several scored partitions.
  const at = new Date('2026-01-05T00:00:00Z')
  t.clock.set(at)
  await loadResults(t.db, 'bbl', at)
  await loadResults(t.db, 'wbbl', at)
})
afterAll(() => t.close())

it('runs the pool without JIT on PostgreSQL', async () => {
  // PGlite has no JIT compiler to turn off, and no startup options.
  if (engine() !== 'postgres') return
  const { rows } = await sql<{ jit: string }>`SHOW jit`.execute(t.db)
  expect(rows[0]!.jit).toBe('off')
})

it("counts a round's stats from that round's partition only", async () => {
  const competitionId = await currentCompetitionId(t.db, 'bbl')
  const played = (
    await sql<{ id: number; number: number }>`
      SELECT r.id, r.number FROM rounds r
      WHERE r.competition_id = ${competitionId}
        AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
      ORDER BY r.number`.execute(t.db)
  ).rows
  expect(played.length).toBeGreaterThan(2)
  const scored = (
    await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'round\\_scores\\_r%'
        AND relkind = 'r'`.execute(t.db)
  ).rows[0]!.n
  const after = played.at(-2)!.number
  const last = played.at(-1)!

  await t.db.transaction().execute(async (trx) => {
    const stats = await roundStats(trx, competitionId, after)
    // The same numbers as the rows themselves give (every tipper here is active).
    const expected = (
      await sql<{ tippers: number; total: number; best: number }>`
        SELECT count(*)::int AS tippers, sum(points)::int AS total, max(points)::int AS best
        FROM round_scores WHERE round_id = ${last.id}`.execute(trx)
    ).rows[0]!
    expect(stats).toEqual([{ number: last.number, ...expected }])
    expect(expected.tippers).toBe(2)
  })
  // The rows each partition gave up while it counted, from this session's table counters
  // (pg_stat_xact_user_tables holds what the session has not reported yet, which may include
  // earlier transactions, so the counters are read before and after, in one transaction). A scan
  // pruned at run time reads no row, though PostgreSQL 17 counts it as a scan.
  const read = await t.db.transaction().execute(async (trx) => {
    const counters = async () =>
      new Map(
        (
          await sql<{ relname: string; n: number }>`
            SELECT relname, (seq_tup_read + coalesce(idx_tup_fetch, 0))::int AS n
            FROM pg_stat_xact_user_tables WHERE relname LIKE 'round\\_scores\\_r%'`.execute(trx)
        ).rows.map((r) => [r.relname, r.n]),
      )
    const before = await counters()
    await roundStats(trx, competitionId, after)
    const now = await counters()
    return [...now].filter(([name, n]) => n > (before.get(name) ?? 0)).map(([name]) => name)
  })
  expect(scored).toBeGreaterThan(played.length)
  expect(read).toEqual([`round_scores_r${last.id}`])
})
