import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { oneAtATime } from '../src/db/transaction.ts'
import * as scoring from '../src/modules/scoring/queries.ts'
import { createTestApp, engine, loadSeasons, type TestApp } from './helpers.ts'

// docs/decisions/050-registrations-wait-their-turn-in-the-process.md

describe('oneAtATime', () => {
  it('runs each call after the one before has settled, in order, past a failure', async () => {
    const line = oneAtATime()
    const seen: string[] = []
    let running = 0
    const step = (name: string, ms: number, fail = false) =>
      line(async () => {
        running++
        expect(running).toBe(1)
        seen.push(`${name} starts`)
        await new Promise((r) => setTimeout(r, ms))
        seen.push(`${name} ends`)
        running--
        if (fail) throw new Error(`${name} failed`)
        return name
      })
    const results = await Promise.allSettled([step('a', 30), step('b', 5, true), step('c', 1)])
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      'a',
      'Error: b failed',
      'c',
    ])
    expect(seen).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends'])
  })
})

describe('a burst of sign-ups while scoring holds its lock', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await loadSeasons(t.db)
  })
  afterAll(() => t.close())

  const signUp = (i: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: `turn-${i}@example.com`,
        password: 'correct horse battery',
        firstName: 'Turn',
        lastName: `Taker ${i}`,
      },
    })

  /** Connections of the pool waiting for the scoring lock's table lock. */
  const waitingOnTheLock = async () =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE 'LOCK TABLE round_scores%'`.execute(t.db)
    ).rows[0]!.n

  it('holds one connection waiting, not one per sign-up, and registers them all in order', async () => {
    const burst = 6
    let answers: Awaited<ReturnType<typeof signUp>>[] = []
    if (engine() === 'postgres') {
      // A result being scored: its transaction holds the scoring lock until it commits.
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      const scorer = t.db.transaction().execute(async (trx) => {
        await scoring.lockScoringTables(trx)
        await held
      })
      const signing = Promise.all(Array.from({ length: burst }, (_, i) => signUp(i)))
      let most = 0
      // Watch for a second: sign-ups queued at the lock would pile up in it by then.
      for (let i = 0; i < 20; i++) {
        most = Math.max(most, await waitingOnTheLock())
        await new Promise((r) => setTimeout(r, 50))
      }
      release()
      await scorer
      answers = await signing
      expect(most).toBe(1)
    } else {
      // PGlite has one connection: the sign-ups still all land, each in its turn.
      answers = await Promise.all(Array.from({ length: burst }, (_, i) => signUp(i)))
    }
    expect(answers.map((a) => a.statusCode)).toEqual(Array(burst).fill(200))
    const registered = await t.db
      .selectFrom('competition_registrations as cr')
      .innerJoin('users as u', 'u.id', 'cr.user_id')
      .select(['u.email', 'cr.competition_id'])
      .where('u.email', 'like', 'turn-%')
      .execute()
    const competitions = new Set(registered.map((r) => r.competition_id)).size
    expect(competitions).toBeGreaterThan(0)
    expect(registered).toHaveLength(burst * competitions)
  })
})
