import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pickSplit } from '@tipping/contract/rules/picks'
import type { RoundStatsFile } from '@tipping/contract/static-files'
import { REPO_ROOT } from '../src/config.ts'
import { redactUrl } from '../src/http/redact-url.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import {
  createLeague,
  createTestApp,
  loadSeasons,
  makeAdmin,
  registerUser,
  type TestApp,
} from './helpers.ts'
import { drivenRoutes, fillUrl } from './route-driver.ts'

// Issue 26 item 8: what the app lets out that it should not. Each test reads what an outsider
// can read (an API answer, a published file, the OpenAPI document, a log line) and looks for the
// private thing in it.

// BBL|15 round 1: match 1 starts 2025-12-14T08:15Z, match 2 the next day.
let t: TestApp
const logLines: string[] = []
let jane: { cookie: string; id: number; email: string }
let tipper: { cookie: string; id: number; email: string }
let match1: { id: number; home: number; away: number }
let match2: { id: number; home: number; away: number }

const get = (url: string, cookie?: string) =>
  t.app.inject({ url, headers: cookie ? { cookie } : {} })
const post = (url: string, cookie: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, payload })

beforeAll(async () => {
  t = await createTestApp({
    now: new Date('2025-12-01T00:00:00Z'),
    config: { LOG_LEVEL: 'info', ENABLE_TEST_ROUTES: true },
    logStream: { write: (line) => void logLines.push(line) },
  })
  await loadSeasons(t.db)
  jane = await registerUser(t.app, { firstName: 'Jane', lastName: 'Smithereens' })
  tipper = await registerUser(t.app, { firstName: 'Tom', lastName: 'Tipper', team_name: 'Toms' })
  const matches = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'matches.number', 'home_squad_id', 'away_squad_id'])
    .where('competitions.sport', '=', 'bbl')
    .where('matches.number', 'in', [1, 2])
    .orderBy('matches.number')
    .execute()
  ;[match1, match2] = matches.map((m) => ({
    id: m.id,
    home: m.home_squad_id,
    away: m.away_squad_id,
  })) as [typeof match1, typeof match2]
})
afterAll(() => t.close())

describe('published round statistics', () => {
  const publisher = () =>
    new Publisher(t.db, t.clock, {
      staticDir: t.staticDir,
      logosDir: path.join(REPO_ROOT, 'data/logos'),
    })
  const roundStats = async (p: Publisher) => {
    await p.publishAll()
    return JSON.parse(
      await fs.readFile(path.join(t.staticDir, 'bbl/roundstats/1.json'), 'utf8'),
    ) as RoundStatsFile
  }

  it('gives no exact pick counts of a match until it is complete, only the API percentages', async () => {
    await post('/api/bbl/predictions_list', jane.cookie, {
      predictions: [
        { match: match1.id, squad: match1.home },
        { match: match2.id, squad: match2.home },
      ],
    })
    // Round 1 under way (match 1 started), so its file is published; match 2 is still open.
    t.clock.set(new Date('2025-12-14T09:00:00Z'))
    const p = publisher()
    const before = await roundStats(p)
    // Another tipper picks match 2 between two publishes: diffing counts would show their pick.
    await post('/api/bbl/predictions_list', tipper.cookie, {
      predictions: [{ match: match2.id, squad: match2.away }],
    })
    const after = await roundStats(p)
    const api = (await get('/api/bbl/predictions/1', tipper.cookie)).json().success.matches as {
      id: number
      home_percent: number
      away_percent: number
    }[]
    for (const file of [before, after]) {
      for (const stats of Object.values(file.matches)) {
        expect(stats).toMatchObject({ homePicks: null, awayPicks: null })
      }
    }
    const open = after.matches[String(match2.id)]!
    const shown = api.find((m) => m.id === match2.id)!
    expect(open).toMatchObject(pickSplit(1, 1))
    expect({ home_percent: open.home_percent, away_percent: open.away_percent }).toEqual({
      home_percent: shown.home_percent,
      away_percent: shown.away_percent,
    })
  })

  it('publishes the exact counts once the match is complete (its tips are public then)', async () => {
    const admin = await registerUser(t.app)
    await makeAdmin(t.db, admin.id)
    t.clock.set(new Date('2025-12-14T13:00:00Z'))
    const result = await post(`/api/admin/bbl/matches/${match1.id}/result`, admin.cookie, {
      outcome: 'win',
      winnerSquadId: match1.home,
      home: null,
      away: null,
      sixes: 12,
    })
    expect(result.statusCode).toBe(200)
    const tips = await t.db
      .selectFrom('effective_tips')
      .select('squad_id')
      .where('match_id', '=', match1.id)
      .execute()
    const home = tips.filter((x) => x.squad_id === match1.home).length
    const away = tips.filter((x) => x.squad_id === match1.away).length
    expect(home).toBeGreaterThan(0)
    const file = await roundStats(publisher())
    expect(file.matches[String(match1.id)]).toMatchObject({
      homePicks: home,
      awayPicks: away,
      ...pickSplit(home, away),
    })
    // Match 2 has not started: still no counts.
    expect(file.matches[String(match2.id)]).toMatchObject({ homePicks: null, awayPicks: null })
  })
})

describe('rankings search', () => {
  const search = async (text: string, round?: number) => {
    const query = new URLSearchParams({ search: text, ...(round ? { round: String(round) } : {}) })
    const res = await get(`/api/bbl/rankings/overall/rankings?${query.toString()}`, tipper.cookie)
    expect(res.statusCode).toBe(200)
    return (res.json().success.rankings as { userId: number }[]).map((r) => r.userId)
  }

  it('matches only what a row shows: team name, first name and the last name initial', async () => {
    for (const round of [undefined, 1]) {
      // Shown as "Jane S.": her surname, or any of it past the initial, finds nobody.
      expect(await search('Smithereens', round)).toEqual([])
      expect(await search('ithere', round)).toEqual([])
      expect(await search('Tipper', round)).toEqual([])
      expect(await search('Jane Smith', round)).toEqual([])
      // What is shown finds them, the name as shown included.
      expect(await search('Jane', round)).toEqual([jane.id])
      expect(await search('jane s', round)).toEqual([jane.id])
      expect(await search('Jane S.', round)).toEqual([jane.id])
      expect(await search('toms', round)).toEqual([tipper.id])
    }
  })
})

describe('the OpenAPI document', () => {
  it('leaves the admin and test routes out of the public document', async () => {
    const res = await get('/api/docs')
    expect(res.statusCode).toBe(200)
    const doc = res.json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>()
    const paths = Object.keys(doc.paths)
    expect(paths).toEqual(expect.arrayContaining(['/api/auth/register', '/api/{sport}/user']))
    // The app has admin routes and, here, the test clock: none of them is described.
    const admin = drivenRoutes(t.app).filter((r) => r.policy === 'admin')
    expect(admin.length).toBeGreaterThan(10)
    expect(drivenRoutes(t.app).some((r) => r.url === '/api/test/clock')).toBe(true)
    expect(paths.filter((p) => p.startsWith('/api/admin') || p.startsWith('/api/test'))).toEqual([])
    const tagged = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).flatMap((op) => op.tags ?? []),
    )
    expect(tagged).not.toContain('admin')
    expect(res.body).not.toContain('/api/admin')
  })
})

describe('admin routes', () => {
  it('refuse a visitor (401) and a user (403) before reading the input, never a 400', async () => {
    const admin = drivenRoutes(t.app).filter((r) => r.policy === 'admin')
    expect(admin.length).toBeGreaterThan(10)
    const callers = [
      { who: 'visitor', cookie: undefined, status: 401 },
      { who: 'expired session', cookie: 'tip_session=not-a-session', status: 401 },
      { who: 'user', cookie: tipper.cookie, status: 403 },
    ]
    // Every part of the input wrong: params that are no id or sport, a query of the wrong
    // types, and a body that is not the route's shape or not JSON at all.
    const bodies = ['{"bogus": true, "__shape": [1, "x"]}', '{"broken":', '[]']
    const failures: string[] = []
    for (const route of admin) {
      const url = `${fillUrl(route.url, { '*': 'probe' })}?page=-1&limit=abc&round=x`
      for (const caller of callers) {
        for (const payload of route.method === 'GET' ? [undefined] : bodies) {
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers: {
              ...(caller.cookie ? { cookie: caller.cookie } : {}),
              ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(payload === undefined ? {} : { payload }),
          })
          const envelope = res.json<{ errors?: { code: string }[] }>()
          if (res.statusCode !== caller.status || !envelope.errors?.length)
            failures.push(`${route.method} ${route.url} as ${caller.who}: ${res.statusCode}`)
        }
      }
    }
    expect(failures).toEqual([])
  })
})

describe('request logs', () => {
  it('never carry a join code: the join call, the invite link pages, a search by code', async () => {
    const owner = await registerUser(t.app)
    const league = await createLeague(t.app, owner.cookie, 'Quiet Quolls')
    const code = league.code
    logLines.length = 0
    const joined = await post(`/api/bbl/league/${code}/join`, jane.cookie, {})
    expect(joined.statusCode).toBe(200)
    // The code's letters percent-encoded, and lower case: the router takes both.
    const encoded = [...code.toLowerCase()].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')
    expect((await post(`/api/bbl/league/${encoded}/join`, tipper.cookie, {})).statusCode).toBe(200)
    await get(`/api/bbl/league/show-for-join?code=${code}`, tipper.cookie)
    await get(`/bbl/leagues/join/${code}`)
    await get(`/leagues/join/${code}?utm=mail`)
    const log = logLines.join('')
    expect(log).toContain('incoming request')
    expect(log).toContain('/api/bbl/league/[redacted]/join')
    expect(log).toContain('/bbl/leagues/join/[redacted]')
    expect(log).toContain('/leagues/join/[redacted]?utm=mail')
    expect(log.toUpperCase()).not.toContain(code)
    expect(log.toLowerCase()).not.toContain(encoded)
  })

  it('redacts the code wherever a URL carries it, and leaves other URLs as they are', () => {
    expect(redactUrl('/api/bbl/league/ABCD1234/join')).toBe('/api/bbl/league/[redacted]/join')
    expect(redactUrl('/api/wbbl/league/abcd1234/join/')).toBe('/api/wbbl/league/[redacted]/join/')
    expect(redactUrl('/api/bbl/%6Ceague/%41BCD1234/%6Aoin')).toBe('/api/bbl/league/[redacted]/join')
    expect(redactUrl('/WBBL/Leagues/Join/ABCD1234?x=1')).toBe('/WBBL/Leagues/Join/[redacted]?x=1')
    expect(redactUrl('/api/bbl/league/show-for-join?code=ABCD1234&page=2')).toBe(
      '/api/bbl/league/show-for-join?code=%5Bredacted%5D&page=2',
    )
    expect(redactUrl('/api/bbl/league/12/leave')).toBe('/api/bbl/league/12/leave')
    expect(redactUrl('/bbl/leagues/join')).toBe('/bbl/leagues/join')
    expect(redactUrl('/bbl/tipping?round=3')).toBe('/bbl/tipping?round=3')
  })
})
