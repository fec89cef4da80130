import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { openDatabase } from '../../src/db/database.ts'
import { rescore } from '../../src/modules/scoring/service.ts'
import {
  Client,
  attachCluster,
  openMatches,
  seededDatabase,
  sleep,
  startServer,
  type Cluster,
  type ServerProcess,
} from './harness.ts'

/**
 * Crash and restart (docs/RELIABILITY.md): the server is killed with SIGKILL in the middle of a
 * deadline rush of tip lists, and in the middle of re-scoring after a result; after a restart every
 * acknowledged list is stored, no list is half stored, and the scores equal a clean re-score.
 */
const USERS = 40
const RUSH_MS = 3000

interface Submitted {
  tips: Map<number, number>
  acked: boolean
}

describe('kill -9 and restart', () => {
  let cluster: Cluster
  let url: string
  let server: ServerProcess
  let db: pg.Client
  const env = () => ({ DATABASE_URL: url, SCHEDULER_INTERVAL_MS: '0' })

  beforeAll(async () => {
    cluster = attachCluster(inject('reliabilityCluster'))
    url = await seededDatabase(cluster, 'tipping_crash')
    server = await startServer(env())
    db = new pg.Client({ connectionString: url })
    await db.connect()
  })

  afterAll(async () => {
    await db?.end()
    await server?.stop()
  })

  it('keeps every acknowledged tip list whole through a kill during a deadline rush', async () => {
    const clients = Array.from({ length: USERS }, () => new Client(server.baseURL))
    const ids = await Promise.all(clients.map((c, i) => c.register(`rush${i}@reliability.example`)))
    const matches = (await openMatches(clients[0]!, 'bbl', 4)).slice(0, 8)
    expect(matches.length).toBeGreaterThanOrEqual(3)

    // Each user saves list after list, one at a time, each differing from the one before in
    // several matches, so a half-saved list would mix two of them and show.
    const history = ids.map(() => [] as Submitted[])
    let stop = false
    const rush = clients.map(async (client, u) => {
      for (let k = 0; !stop; k++) {
        const tips = new Map(
          matches.map((m, j) => [
            m.id,
            ((u + k * 7 + j * (k + 1)) & 1) === 0 ? m.homeSquadId : m.awaySquadId,
          ]),
        )
        const entry: Submitted = { tips, acked: false }
        history[u]!.push(entry)
        try {
          const res = await client.request('POST', '/api/bbl/predictions_list', {
            predictions: [...tips].map(([match, squad]) => ({ match, squad })),
          })
          if (res.status !== 200) throw new Error(`save refused: ${JSON.stringify(res.json)}`)
          entry.acked = true
        } catch (err) {
          if ((err as Error).message.startsWith('save refused')) throw err
          return // the connection died with the server
        }
      }
    })
    await sleep(RUSH_MS)
    await server.kill9()
    stop = true
    await Promise.all(rush)
    server = await startServer(env())

    const rows = await db.query<{ user_id: number; match_id: number; squad_id: number }>(
      'SELECT user_id, match_id, squad_id FROM tips WHERE user_id = ANY($1) AND match_id = ANY($2)',
      [ids, matches.map((m) => m.id)],
    )
    let acked = 0
    let committedUnacked = 0
    let lostInFlight = 0
    ids.forEach((id, u) => {
      const stored = new Map(
        rows.rows.filter((r) => r.user_id === id).map((r) => [r.match_id, r.squad_id]),
      )
      const lists = history[u]!
      acked += lists.filter((l) => l.acked).length
      const lastAcked = lists.findLastIndex((l) => l.acked)
      // Saves are sequential per user: what is stored is the last acknowledged list or the one
      // that was in flight when the process died, whole, and nothing else.
      const candidates = lists.slice(Math.max(lastAcked, 0))
      const same = (a: Map<number, number>) =>
        a.size === stored.size && [...a].every(([m, s]) => stored.get(m) === s)
      const match = candidates.findIndex((l) => same(l.tips))
      if (lastAcked < 0 && stored.size === 0) {
        lostInFlight++
        return
      }
      expect(
        match,
        `user ${u}: stored tips are not one whole submitted list`,
      ).toBeGreaterThanOrEqual(0)
      if (candidates[match] !== lists[lastAcked]) committedUnacked++
      else if (lists.at(-1) !== lists[lastAcked]) lostInFlight++
    })
    console.log(
      `[reliability] crash rush: ${JSON.stringify({ users: USERS, matchesPerList: matches.length, acked, inFlightCommitted: committedUnacked, inFlightLost: lostInFlight })}`,
    )
    expect(acked).toBeGreaterThan(USERS)
    // The kill really landed mid-rush: some lists were in flight.
    expect(committedUnacked + lostInFlight).toBeGreaterThan(0)
  })

  it('leaves the same numbers as a clean re-score after a kill during re-scoring', async () => {
    const admin = new Client(server.baseURL)
    const adminId = await admin.register('results-admin@reliability.example')
    await db.query(`UPDATE users SET roles = array_append(roles, 'ROLE_ADMIN') WHERE id = $1`, [
      adminId,
    ])
    const { rows: done } = await db.query<{
      id: number
      competition_id: number
      home_squad_id: number
      away_squad_id: number
      winner_squad_id: number
    }>(
      `SELECT m.id, r.competition_id, m.home_squad_id, m.away_squad_id, m.winner_squad_id
       FROM matches m JOIN rounds r ON r.id = m.round_id JOIN competitions c ON c.id = r.competition_id
       WHERE c.sport = 'bbl' AND m.status = 'complete' AND m.winner_squad_id IS NOT NULL
       ORDER BY m.starts_at DESC LIMIT 8`,
    )
    expect(done.length).toBeGreaterThanOrEqual(6)
    const flip = (m: (typeof done)[number]) => ({
      outcome: 'win' as const,
      winnerSquadId: m.winner_squad_id === m.home_squad_id ? m.away_squad_id : m.home_squad_id,
      home: { runs: 150, wickets: 6, overs: '20' },
      away: { runs: 151, wickets: 4, overs: '19.2' },
      sixes: 9,
    })
    const post = (m: (typeof done)[number]) =>
      admin.request('POST', `/api/admin/bbl/matches/${m.id}/result`, flip(m))

    // How long an uninterrupted correction takes (result, re-score, publish), to aim the kills.
    const started = Date.now()
    expect((await post(done[0]!)).status).toBe(200)
    const cleanMs = Date.now() - started

    const snapshot = async () => {
      const scores = await db.query(
        `SELECT round_id, user_id, correct, counted, tip_points, bonus, points, margin, rank
         FROM round_scores ORDER BY round_id, user_id`,
      )
      const standings = await db.query(
        `SELECT competition_id, user_id, total_points, total_margin, rank
         FROM standings ORDER BY competition_id, user_id`,
      )
      return [...scores.rows, ...standings.rows].map((r) => JSON.stringify(r))
    }
    const fullRescore = async () => {
      const handle = await openDatabase({ databaseUrl: url, poolSize: 2 })
      try {
        for (const id of new Set(done.map((m) => m.competition_id))) await rescore(handle.db, id)
      } finally {
        await handle.close()
      }
    }
    // Accounts registered above joined mid-season and are scored for earlier rounds only by a
    // full re-score; start from one so that the comparisons below isolate the kill.
    await fullRescore()

    const outcomes: string[] = []
    const fractions = [0.1, 0.5, 0.9, 1.3]
    for (const [i, fraction] of fractions.entries()) {
      const m = done[i + 1]!
      const before = m.winner_squad_id
      let answered = false
      const request = post(m).then(
        (r) => {
          answered = r.status === 200
        },
        () => undefined,
      )
      await sleep(Math.round(cleanMs * fraction))
      await server.kill9()
      await request
      server = await startServer(env())

      const { rows } = await db.query<{ winner_squad_id: number }>(
        'SELECT winner_squad_id FROM matches WHERE id = $1',
        [m.id],
      )
      const now = rows[0]!.winner_squad_id
      expect([before, flip(m).winnerSquadId]).toContain(now)
      if (answered) expect(now).toBe(flip(m).winnerSquadId)
      outcomes.push(now === before ? 'rolled back' : answered ? 'committed' : 'committed unacked')

      // A clean run: re-score the whole competition from the stored results and tips.
      const after = await snapshot()
      await fullRescore()
      const clean = await snapshot()
      const differing = clean.filter((row, r) => after[r] !== row)
      expect(differing.slice(0, 5), `kill at ${fraction} of ${cleanMs} ms`).toEqual([])
      expect(after.length).toBe(clean.length)
    }
    console.log(`[reliability] crash scoring: ${JSON.stringify({ cleanMs, fractions, outcomes })}`)
    // At least one kill landed before the correction committed.
    expect(outcomes).toContain('rolled back')
  })
})
