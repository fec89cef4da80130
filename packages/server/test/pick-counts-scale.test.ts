import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pickSplit } from '@tipping/contract/rules/picks'
import type { FastifyInstance } from 'fastify'
import { PICK_COUNT_MARKER, roundsToCount } from '../src/modules/predictions/queries.ts'
import {
  appCountingStatements,
  currentCompetitionId,
  createTestApp,
  loadSeasons,
  registerUser,
  signIn,
  type TestApp,
} from './helpers.ts'

// Issue 29 ("thin p99 margins gone"): at a million tippers a round's pick count takes seconds,
// and readers of the round read waited on it (200 time-outs on a slow box). Decision 032: the
// open rounds are counted ahead of their readers when the app is ready (and a round that opens
// later by a timer), those being read are recounted behind their readers, a round with no count
// yet has one count shared by every reader, and the answers agree with the reference
// (effective_tips grouped by match and squad). Both engines.
const TIPPERS = 400
const LATE = 40
const NOW = new Date('2025-12-20T00:00:00Z')

let t: TestApp
let cookie: string
let competitionId: number

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  const boss = await registerUser(t.app, { team_name: 'Reader' })
  competitionId = await currentCompetitionId(t.db, 'bbl')
  await sql`
    INSERT INTO users (email, first_name, last_name, roles)
    SELECT 'picks' || n || '@sim.invalid', 'Sim', 'Tipper' || n, ARRAY['ROLE_USER_BBL']
    FROM generate_series(1, ${TIPPERS + LATE}) AS n
  `.execute(t.db)
  // Most registered before the season; the last LATE on 18 December, after some matches started.
  await sql`
    INSERT INTO competition_registrations (competition_id, user_id, registered_at)
    SELECT ${competitionId}, id,
      CASE WHEN substring(email FROM 'picks([0-9]+)@')::int > ${TIPPERS}
           THEN timestamptz '2025-12-18T00:00:00Z' ELSE timestamptz '2025-11-01T00:00:00Z' END
    FROM users WHERE email LIKE 'picks%@sim.invalid'
  `.execute(t.db)
  // Deterministic "random" tips on the first two rounds, only before each match started and
  // after the tipper registered (as the product takes them); about one in five untipped.
  await sql`
    INSERT INTO tips (user_id, match_id, round_id, squad_id, margin)
    SELECT cr.user_id, m.id, m.round_id,
      CASE WHEN (hashint4(cr.user_id * 7919 + m.id) & 1023) < 300 + (hashint4(m.id) & 511)
           THEN m.home_squad_id ELSE m.away_squad_id END,
      CASE WHEN m.is_margin_game THEN (hashint4(cr.user_id * 31 + m.id) & 2147483647) % 30 END
    FROM competition_registrations cr
    JOIN users u ON u.id = cr.user_id AND u.email LIKE 'picks%@sim.invalid'
    JOIN matches m ON m.competition_id = cr.competition_id
    JOIN rounds r ON r.id = m.round_id
    WHERE cr.competition_id = ${competitionId} AND r.number <= 2
      AND cr.registered_at < m.starts_at
      AND (hashint4(cr.user_id * 613 + m.id) & 2147483647) % 5 <> 0
  `.execute(t.db)
  // Some deactivated: their tips and auto-tips still count.
  await sql`UPDATE users SET deactivated_at = ${NOW}
    WHERE email LIKE 'picks%@sim.invalid' AND substring(email FROM 'picks([0-9]+)@')::int % 17 = 0`.execute(
    t.db,
  )
  // The matches started by NOW have locked (the untipped get the away side).
  await sql`UPDATE matches SET status = 'active'
    WHERE competition_id = ${competitionId} AND starts_at <= ${NOW.toISOString()}::timestamptz`.execute(
    t.db,
  )
  t.clock.set(NOW)
  cookie = await signIn(t.app, boss.email)
})
afterAll(() => t?.close())

/** An app over the test database counting the pick count statements it sends. */
async function countingApp(pickCountsMs = 60_000) {
  const { app, sent } = await appCountingStatements(t, PICK_COUNT_MARKER, {
    PICK_COUNTS_CACHE_MS: pickCountsMs,
  })
  return { app, counts: sent }
}

/** The reference split of each match of round `number`: effective tips grouped by squad. */
async function reference(number: number) {
  const matches = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select(['matches.id', 'home_squad_id', 'away_squad_id'])
    .where('rounds.competition_id', '=', competitionId)
    .where('rounds.number', '=', number)
    .orderBy('matches.number')
    .execute()
  const tips = await t.db
    .selectFrom('effective_tips')
    .select(['match_id', 'squad_id'])
    .where(
      'match_id',
      'in',
      matches.map((m) => m.id),
    )
    .execute()
  const of = (match: number, squad: number) =>
    tips.filter((e) => e.match_id === match && e.squad_id === squad).length
  return matches.map((m) => ({
    id: m.id,
    ...pickSplit(of(m.id, m.home_squad_id), of(m.id, m.away_squad_id)),
  }))
}

/** `n` reads of round `number` at once; every answer 200 with the reference's split. */
async function crowd(app: FastifyInstance, n: number, number: number) {
  const want = await reference(number)
  // The tipped rounds are worth checking: picks on both sides (round 1 with auto-tips in).
  if (number <= 2) expect(want.some((m) => m.home_percent > 0 && m.away_percent > 0)).toBe(true)
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      app.inject({ url: `/api/bbl/predictions/${number}`, headers: { cookie } }),
    ),
  )
  for (const res of answers) {
    expect(res.statusCode).toBe(200)
    const matches = res.json().success.matches as {
      id: number
      home_percent: number
      away_percent: number
    }[]
    expect(
      matches.map((m) => ({
        id: m.id,
        home_percent: m.home_percent,
        away_percent: m.away_percent,
      })),
    ).toEqual(want)
  }
}

async function until(what: string, done: () => boolean, ms = 20_000) {
  const end = Date.now() + ms
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('pick counts under a crowd', () => {
  it('counts the open rounds when the app is ready, before any reader asks', async () => {
    const { app, counts } = await countingApp()
    try {
      // Rounds 1 (being played) and 2 (the next) of each current competition.
      const open = (await roundsToCount(t.db)).length
      expect(open).toBe(4)
      await app.ready()
      // One statement per open round, with nobody reading.
      await until('the start-up count', () => counts() === open)
      await crowd(app, 100, 1)
      await crowd(app, 100, 2)
      expect(counts()).toBe(open)
      // A round not counted ahead (past or far ahead): one count, shared by the crowd at once.
      await crowd(app, 100, 3)
      expect(counts()).toBe(open + 1)
    } finally {
      await app.close()
    }
  })

  it('gives a crowd on a cold app one count between them', async () => {
    const { app, counts } = await countingApp()
    try {
      // The first inject readies the app: the warm-up and the crowd share round 1's count.
      await crowd(app, 150, 1)
      const open = (await roundsToCount(t.db)).length
      await until('the start-up count of the other open rounds', () => counts() === open)
      await new Promise((r) => setTimeout(r, 100))
      expect(counts()).toBe(open)
    } finally {
      await app.close()
    }
  })

  it('recounts the open rounds being read behind their readers, and leaves the unread ones alone', async () => {
    const { app, counts } = await countingApp(200)
    try {
      await app.ready()
      const open = (await roundsToCount(t.db)).length
      await until('the start-up count', () => counts() === open)
      // Nobody reading for several TTLs: nothing is counted again.
      await new Promise((r) => setTimeout(r, 700))
      expect(counts()).toBe(open)
      // Round 1 read now and then: recounted behind its readers, who never wait for it.
      const end = Date.now() + 1_500
      while (Date.now() < end) {
        await crowd(app, 5, 1)
        await new Promise((r) => setTimeout(r, 50))
      }
      expect(counts()).toBeGreaterThanOrEqual(open + 2)
    } finally {
      await app.close()
    }
  })
})
