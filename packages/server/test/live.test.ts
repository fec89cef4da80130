import fs from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { AdjustableClock } from '../src/clock.ts'
import { testConfig } from '../src/config.ts'
import type { DatabaseHandle } from '../src/db/database.ts'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import { pruneEvents } from '../src/modules/live/queries.ts'
import { loadSeasons, freshDatabase, makeAdmin, registerUser } from './helpers.ts'
import { eventually, openSse, type SseClient } from './live-sse.ts'
import { changedTables, fingerprint } from './route-driver.ts'

// Issue 30, the server half: a live score entered by an admin reaches open pages over the push
// channel (Server-Sent Events through a real listener), resumably, with heartbeats; two API
// processes on one database (two apps on one handle) hear each other's events through the
// database; and a live score scores nothing.

// Round 1 of BBL|15, 2025-12-14 to 2025-12-21: the clock starts before it.

let handle: DatabaseHandle
let staticDir: string
const apps: FastifyInstance[] = []
let a: FastifyInstance
let b: FastifyInstance
let baseA: string
let baseB: string
let admin: { cookie: string; id: number }
let tipper: { cookie: string; id: number }
const clock = new AdjustableClock(new Date('2025-12-01T00:00:00Z'))
let live: { id: number; home: number; away: number }
let later: { id: number; home: number; away: number }
let done: { id: number; home: number; away: number }
const clients: SseClient[] = []

async function build(overrides: Parameters<typeof testConfig>[0] = {}) {
  const { app } = await buildApp({
    config: testConfig({
      STATIC_DIR: staticDir,
      WEB_DIST_DIR: path.join(staticDir, 'no-web'),
      SSE_HEARTBEAT_MS: 200,
      ...overrides,
    }),
    db: handle.db,
    engine: handle.engine,
    clock,
    listen: handle.listen,
  })
  // A test setting: on PostgreSQL a connection outlived closeAllConnections in afterAll and
  // held the first close until Fastify's keepAliveTimeout (72 s of the file's 76 s).
  app.server.keepAliveTimeout = 1000
  await app.listen({ port: 0, host: '127.0.0.1' })
  apps.push(app)
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return { app, base: `http://127.0.0.1:${address.port}` }
}

const open = async (base: string, lastEventId?: string | number, sport = 'bbl') => {
  const c = await openSse(base, sport, lastEventId)
  clients.push(c)
  return c
}

const score = (runs: number, overs = '10', wickets = 2, sixes = 3) => ({
  innings: [{ battingSquadId: live.home, runs, wickets, overs, sixes }],
})

const putLive = (app: FastifyInstance, matchId: number, body: object, cookie = admin.cookie) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/bbl/matches/${matchId}/live`,
    headers: { cookie },
    payload: body,
  })
/** The admin's result (or correction) for a match, through process `app`. */
const postResult = (app: FastifyInstance, matchId: number, body: object) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/bbl/matches/${matchId}/result`,
    headers: { cookie: admin.cookie },
    payload: body,
  })

beforeAll(async () => {
  handle = await freshDatabase()
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-static-'))
  ;({ app: a, base: baseA } = await build())
  ;({ app: b, base: baseB } = await build())
  await loadSeasons(handle.db)
  admin = await registerUser(a)
  await makeAdmin(handle.db, admin.id)
  tipper = await registerUser(a)
  const rows = await handle.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'home_squad_id as home', 'away_squad_id as away'])
    .where('competitions.sport', '=', 'bbl')
    .where('rounds.number', '=', 1)
    .orderBy('matches.number')
    .execute()
  // The tipper tips round 1 before it starts, so there are scores a live score must not touch.
  const tip = await a.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: tipper.cookie },
    payload: { predictions: rows.map((m) => ({ match: m.id, squad: m.home, margin: null })) },
  })
  expect(tip.statusCode).toBe(200)
  // Match 1 is over by match 2's start and has its result; match 2 is the one in progress.
  clock.set(new Date('2025-12-15T09:00:00Z'))
  await runLockouts(handle.db, clock)
  done = rows[0]!
  live = rows[1]!
  later = rows[2]!
  const result = await postResult(a, done.id, {
    outcome: 'win',
    winnerSquadId: done.home,
    home: { runs: 160, wickets: 6, overs: '20' },
    away: { runs: 150, wickets: 9, overs: '20' },
    sixes: 9,
  })
  expect(result.statusCode, result.body).toBe(200)
})

afterAll(async () => {
  for (const c of clients) c.close()
  // Aborted pages can leave connections the server still counts, which held each close until
  // Fastify's keepAliveTimeout (72 s; as in pick-split-event.test.ts).
  for (const app of apps) {
    app.server.closeAllConnections()
    await app.close()
  }
  await handle.close()
  await fs.rm(staticDir, { recursive: true, force: true })
})

describe('entering a live score', () => {
  it('answers the live state with its figures, and the round read has it', async () => {
    const res = await putLive(a, live.id, {
      innings: [
        { battingSquadId: live.home, runs: 180, wickets: 6, overs: '20', sixes: 8 },
        { battingSquadId: live.away, runs: 90, wickets: 2, overs: '10', sixes: 4 },
      ],
    })
    expect(res.statusCode, res.body).toBe(200)
    const state = res.json().success
    expect(state).toMatchObject({
      matchId: live.id,
      roundNumber: 1,
      status: 'active',
      sixes: 12,
      figures: { runRates: [9, 9], target: 181, runsNeeded: 91, ballsLeft: 60, requiredRate: 9.1 },
    })
    const round = await b.inject({ url: '/api/bbl/live/1' })
    expect(round.statusCode).toBe(200)
    expect(round.json().success.matches).toContainEqual(state)
    // A correction replaces it, one version on.
    const again = await putLive(a, live.id, score(45, '5.3'))
    expect(again.json().success.version).toBe(state.version + 1)
    expect(again.json().success.innings).toEqual([
      {
        battingSquadId: live.home,
        runs: 45,
        wickets: 2,
        overs: '5.3',
        oversAllotted: null,
        sixes: 3,
      },
    ])
  })

  it('refuses bad input with 400 naming the field, others with 403, and changes nothing', async () => {
    const before = await fingerprint(handle.db)
    const cases: [object, string][] = [
      [{ innings: [{ ...score(1).innings[0], wickets: 11 }] }, 'innings.0.wickets'],
      [{ innings: [{ ...score(1).innings[0], overs: '12.6' }] }, 'innings.0.overs'],
      [{ innings: [{ ...score(1).innings[0], overs: '20.1' }] }, 'innings.0.overs'],
      [{ innings: [{ ...score(1).innings[0], runs: 1000 }] }, 'innings.0.runs'],
      [{ innings: [{ ...score(1).innings[0], sixes: -1 }] }, 'innings.0.sixes'],
      [{ innings: [] }, 'innings'],
      [{ innings: [score(1).innings[0], score(1).innings[0]] }, 'innings.1.battingSquadId'],
      [
        { innings: [{ ...score(1).innings[0], battingSquadId: 999_999 }] },
        'innings.0.battingSquadId',
      ],
    ]
    for (const [body, param] of cases) {
      const res = await putLive(a, live.id, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().errors.map((e: { param: string }) => e.param)).toContain(param)
    }
    expect((await putLive(a, live.id, score(1), tipper.cookie)).statusCode).toBe(403)
    expect((await putLive(a, live.id, score(1), '')).statusCode).toBe(401)
    for (const m of [later, done]) {
      const res = await putLive(a, m.id, score(1))
      expect(res.statusCode).toBe(409)
      expect(res.json().errors[0].param).toBe('id')
    }
    expect(changedTables(before, await fingerprint(handle.db))).toEqual([])
  })

  it('never changes scores, standings or results', async () => {
    const before = await fingerprint(handle.db)
    expect((await putLive(a, live.id, score(201, '19.5', 9, 14))).statusCode).toBe(200)
    expect(changedTables(before, await fingerprint(handle.db)).sort()).toEqual([
      'audit_log',
      'live_events',
      'live_scores',
    ])
  })
})

describe('the push channel', () => {
  it('sends a live score to a connected page within a second, with id, retry and headers', async () => {
    const page = await open(baseA)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/event-stream')
    expect(page.headers.get('cache-control')).toContain('no-cache')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    // The stream's head is short and fixed: it is held for the life of every page's connection.
    expect(page.headers.get('content-security-policy')).toBeNull()
    const sent = Date.now()
    expect((await putLive(a, live.id, score(60, '7.2'))).statusCode).toBe(200)
    await eventually(() => page.events.some((e) => e.event === 'live'))
    expect(Date.now() - sent).toBeLessThan(1000)
    const event = page.events.find((e) => e.event === 'live')!
    expect(Number(event.id)).toBeGreaterThan(0)
    expect(JSON.parse(event.data)).toMatchObject({ matchId: live.id, innings: [{ runs: 60 }] })
    expect(page.retry).toBeGreaterThan(0)
  })

  it('reaches the pages of the other process too', async () => {
    const onB = await open(baseB)
    expect((await putLive(a, live.id, score(61, '7.3'))).statusCode).toBe(200)
    await eventually(() => onB.events.some((e) => JSON.parse(e.data).innings?.[0]?.runs === 61))
  })

  it('keeps sports apart: a BBL score is not sent to WBBL pages', async () => {
    const wbbl = await open(baseA, undefined, 'wbbl')
    const bbl = await open(baseA)
    expect((await putLive(a, live.id, score(62, '7.4'))).statusCode).toBe(200)
    await eventually(() => bbl.events.length > 0)
    expect(wbbl.events).toEqual([])
  })

  it('sends heartbeats to an idle page', async () => {
    const page = await open(baseB)
    await eventually(() => page.heartbeats >= 2, 2000)
  })

  it('resumes after a drop with Last-Event-ID: the missed events, in order, and no repeat', async () => {
    const page = await open(baseA)
    await putLive(a, live.id, score(70, '8'))
    await eventually(() => page.events.length === 1)
    const seen = page.events[0]!.id!
    page.close()
    await putLive(a, live.id, score(71, '8.1'))
    await putLive(a, live.id, score(72, '8.2'))
    for (const base of [baseA, baseB]) {
      const back = await open(base, seen)
      await eventually(() => back.events.length === 2)
      expect(back.events.map((e) => JSON.parse(e.data).innings[0].runs)).toEqual([71, 72])
      expect(Number(back.events[0]!.id)).toBeGreaterThan(Number(seen))
    }
  })

  it('resumes from the table in a process started after the events, and resets when they are gone', async () => {
    const first = await open(baseA)
    await putLive(a, live.id, score(80, '9'))
    await eventually(() => first.events.length === 1)
    const seen = first.events[0]!.id!
    await putLive(a, live.id, score(81, '9.1'))
    // A process started now holds none of these in memory.
    const { base: baseC } = await build()
    const back = await open(baseC, seen)
    await eventually(() => back.events.length === 1)
    expect(JSON.parse(back.events[0]!.data).innings[0].runs).toBe(81)
    // An id this database never issued (a restored backup): the page is told to reload.
    const stranger = await open(baseC, 999_999_999)
    await eventually(() => stranger.events.length === 1)
    expect(stranger.events[0]!.event).toBe('reset')
    expect(JSON.parse(stranger.events[0]!.data).spreadMs).toBeGreaterThan(0)
    // Events pruned past the page's id: a reset too, not a silent gap.
    await handle.db
      .deleteFrom('live_events')
      .where('id', '<=', Number(seen) + 1)
      .execute()
    await putLive(a, live.id, score(82, '9.2'))
    const stale = await open(baseC, Number(seen) - 1)
    await eventually(() => stale.events.length >= 1)
    expect(stale.events[0]!.event).toBe('reset')
  })

  it('tells every page of a result, with the new scores version', async () => {
    const page = await open(baseB)
    const res = await postResult(a, done.id, {
      outcome: 'win',
      winnerSquadId: done.away,
      home: { runs: 150, wickets: 9, overs: '20' },
      away: { runs: 151, wickets: 3, overs: '18' },
      sixes: 11,
    })
    expect(res.statusCode, res.body).toBe(200)
    await eventually(() => page.events.some((e) => e.event === 'result'))
    const version = await handle.db
      .selectFrom('competitions')
      .select('scores_version')
      .where('sport', '=', 'bbl')
      .where('is_current', '=', true)
      .executeTakeFirstOrThrow()
    expect(JSON.parse(page.events.find((e) => e.event === 'result')!.data)).toEqual({
      matchId: done.id,
      roundNumber: 1,
      roundStatus: 'active',
      change: 'corrected',
      outcome: 'win',
      winnerSquadId: done.away,
      sixes: 11,
      scoresVersion: version.scores_version,
    })
  })

  it("empties a process's cached scores reads when it hears of a result, before its pages do", async () => {
    // A third process that keeps the current competition (with its scores version, which keys the
    // rankings pages) for a minute: only the result's event can make it read afresh in time.
    const { app: c, base: baseC } = await build({ READ_CACHE_MS: 60_000, PAGE_CACHE_MS: 60_000 })
    const tipperRow = async (app: FastifyInstance) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/bbl/rankings/overall/rankings',
        headers: { cookie: tipper.cookie },
      })
      expect(res.statusCode, res.body).toBe(200)
      const { rankings } = res.json<{
        success: { rankings: { userId: number; totalPoints: number }[] }
      }>().success
      return rankings.find((r) => r.userId === tipper.id)!.totalPoints
    }
    const before = await tipperRow(c)
    const page = await open(baseC)
    const seen = page.events.length
    // The tipper tipped the home side: the corrected result gives them the match.
    const res = await postResult(a, done.id, {
      outcome: 'win',
      winnerSquadId: done.home,
      home: { runs: 170, wickets: 4, overs: '20' },
      away: { runs: 120, wickets: 10, overs: '17' },
      sixes: 8,
    })
    expect(res.statusCode, res.body).toBe(200)
    await eventually(() => page.events.slice(seen).some((e) => e.event === 'result'))
    const after = await tipperRow(c)
    expect(after).toBe(before + 1)
    expect(after).toBe(await tipperRow(b))
  })

  it('refuses a request that is not for an event stream, and a malformed Last-Event-ID', async () => {
    const plain = await a.inject({ url: '/api/bbl/events' })
    expect(plain.statusCode).toBe(400)
    expect(plain.json().errors[0].param).toBe('accept')
    const bad = await a.inject({
      url: '/api/bbl/events',
      headers: { accept: 'text/event-stream', 'last-event-id': 'x1' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('last-event-id')
  })

  it('refuses pages past the per-process cap with 503', async () => {
    const { base } = await build({ SSE_MAX_CONNECTIONS: 1 })
    const first = await open(base)
    expect(first.status).toBe(200)
    const second = await open(base)
    expect(second.status).toBe(503)
    expect(JSON.parse(second.body).errors[0].code).toBe('SERVICE_UNAVAILABLE')
    // Its place is free again once the first page has gone.
    first.close()
    await first.ended
    for (let tries = 0; ; tries++) {
      const again = await open(base)
      if (again.status === 200) break
      expect(tries).toBeLessThan(50)
      await new Promise((r) => setTimeout(r, 20))
    }
  })
  it('drops a page that stops reading instead of buffering for it without bound', async () => {
    const { base } = await build()
    const { port } = new URL(base)
    const socket = net.connect(Number(port), '127.0.0.1')
    await new Promise((r) => socket.once('connect', r))
    socket.write(
      `GET /api/bbl/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
    )
    let received = 0
    socket.on('data', (chunk: Buffer) => (received += chunk.length))
    await eventually(() => received > 0)
    // The page stops reading; 1,000 events of 7 KB (7 MB, past the sockets' buffers) follow, in
    // bursts a reading page takes as they come.
    socket.pause()
    const closed = new Promise((r) => socket.once('close', r))
    socket.on('error', () => {})
    const reader = await open(base)
    for (let burst = 0; burst < 20; burst++) {
      await sql`INSERT INTO live_events (sport, competition_id, type, payload)
        SELECT 'bbl', (SELECT id FROM competitions WHERE sport = 'bbl' AND is_current), 'live',
          jsonb_build_object('pad', repeat('x', 7000))
        FROM generate_series(1, 50)`.execute(handle.db)
      await new Promise((r) => setTimeout(r, 100))
    }
    // A page that reads gets every one of them.
    await eventually(() => reader.events.length === 1000, 20_000)
    socket.resume()
    await closed
    expect(received).toBeLessThan(1000 * 7000)
  })
  it('prunes events past their keeping time, but never the newest', async () => {
    const ids = async () =>
      (await handle.db.selectFrom('live_events').select('id').orderBy('id').execute()).map((r) =>
        Number(r.id),
      )
    const kept = await ids()
    expect(kept.length).toBeGreaterThan(1)
    // Everything is older than "a minute from now": all but the newest go.
    await pruneEvents(handle.db, new Date(Date.now() + 60_000))
    expect(await ids()).toEqual([kept.at(-1)])
    await pruneEvents(handle.db, new Date(Date.now() + 60_000))
    expect(await ids()).toEqual([kept.at(-1)])
  })
})
