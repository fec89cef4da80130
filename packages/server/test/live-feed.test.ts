import { spawnSync } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { summariseCricsheet } from '@tipping/contract/cricsheet'
import { asMatchId } from '@tipping/contract/ids'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../src/config.ts'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import { replayCricsheet } from '../src/modules/live/feed.ts'
import { LiveService } from '../src/modules/live/service.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { ResultsService } from '../src/modules/results/service.ts'
import { createTestApp, loadSeasons, type TestApp } from './helpers.ts'
import { eventually, openSse } from './live-sse.ts'

// npm run feed:replay: a real Cricsheet match (BBL 2023-24, Heat v Stars) played ball by ball
// as the live feed of a 2025-26 fixture match between the same squads, at a speed that plays it
// at once; every ball reaches an open page, then the result is set and scored.

const FILE = path.join(REPO_ROOT, 'data/source/cricsheet/bbl-2023-24/1386094.json')
const SCRIPT = path.join(REPO_ROOT, 'packages/server/src/cli/feed-replay.ts')

let t: TestApp
let base: string
let match: { id: number; home: number; away: number; startsAt: Date }
let raw: unknown

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  raw = JSON.parse(await fs.readFile(FILE, 'utf8'))
  const row = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('squads as h', 'h.id', 'matches.home_squad_id')
    .innerJoin('squads as a', 'a.id', 'matches.away_squad_id')
    .select([
      'matches.id',
      'matches.home_squad_id as home',
      'matches.away_squad_id as away',
      'matches.starts_at as startsAt',
    ])
    .where('competitions.sport', '=', 'bbl')
    .where((eb) =>
      eb.or([
        eb.and([eb('h.name', '=', 'Brisbane Heat'), eb('a.name', '=', 'Melbourne Stars')]),
        eb.and([eb('h.name', '=', 'Melbourne Stars'), eb('a.name', '=', 'Brisbane Heat')]),
      ]),
    )
    .orderBy('matches.starts_at')
    .executeTakeFirstOrThrow()
  match = row
  t.clock.set(new Date(match.startsAt.getTime() + 60_000))
  await runLockouts(t.db, t.clock)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  base = `http://127.0.0.1:${address.port}`
})
afterAll(async () => {
  // The page's aborted fetch can leave a connection the server still counts, which held the
  // close until Fastify's keepAliveTimeout (72 s) on PostgreSQL (as in pick-split-event.test.ts).
  t.app.server.closeAllConnections()
  await t.close()
})

describe('npm run feed:replay', () => {
  it('answers --help with its usage, and a call it cannot use with exit code 2', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        timeout: 60_000,
      })
    const help = run('--help')
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: npm run feed:replay/)
    const bad = run('--sport', 'bbl', '--match', 'x', '--file', FILE)
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('Usage:')
    expect(bad.stderr).not.toMatch(/\n\s+at /)
  })

  it('refuses a file whose teams are not the fixture match’s, before any ball', async () => {
    const other = await t.db
      .selectFrom('matches')
      .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
      .innerJoin('squads', 'squads.id', 'matches.home_squad_id')
      .select('matches.id')
      .where('competitions.sport', '=', 'bbl')
      .where('squads.name', 'not in', ['Brisbane Heat', 'Melbourne Stars'])
      .where('matches.away_squad_id', 'not in', [match.home, match.away])
      .executeTakeFirstOrThrow()
    const live = new LiveService(t.db, t.clock)
    await expect(
      replayCricsheet(t.db, live, {
        sport: 'bbl',
        matchId: asMatchId(other.id),
        file: raw,
        speed: 1e9,
      }),
    ).rejects.toThrow(/is neither side/)
    expect(await t.db.selectFrom('live_scores').selectAll().execute()).toEqual([])
  })

  it('plays every ball to an open page, then sets and scores the result', async () => {
    const page = await openSse(base, 'bbl')
    const publisher = new Publisher(t.db, t.clock, {
      staticDir: t.staticDir,
      logosDir: path.join(REPO_ROOT, 'data/logos'),
      matchCentreUrl: undefined,
    })
    const results = new ResultsService(t.db, t.clock, publisher)
    const summary = summariseCricsheet(raw)
    const deliveries = (raw as { innings: { overs: { deliveries: unknown[] }[] }[] }).innings
      .flatMap((i) => i.overs)
      .reduce((n, o) => n + o.deliveries.length, 0)
    const out = await replayCricsheet(t.db, new LiveService(t.db, t.clock), {
      sport: 'bbl',
      matchId: asMatchId(match.id),
      file: raw,
      speed: 1e9,
      setResult: (sport, id, body) => results.setResult(sport, id, body, null),
    })
    expect(out.balls).toBe(deliveries)
    await eventually(() => page.events.some((e) => e.event === 'result'), 5000)
    page.close()
    const lives = page.events.filter((e) => e.event === 'live').map((e) => JSON.parse(e.data))
    expect(lives).toHaveLength(deliveries)
    // Versions rise by one a ball, in order.
    expect(lives.map((l) => l.version)).toEqual(lives.map((_, i) => i + 1))
    const last = lives.at(-1)
    expect(
      last.innings.map((i: { runs: number; wickets: number; overs: string; sixes: number }) => [
        i.runs,
        i.wickets,
        i.overs,
        i.sixes,
      ]),
    ).toEqual(summary.innings.map((i) => [i.runs, i.wickets, oversFromBalls(i.balls), i.sixes]))
    expect(last.sixes).toBe(summary.sixes)
    expect(last.figures.target).toBe(summary.innings[0]!.runs + 1)
    const result = JSON.parse(page.events.find((e) => e.event === 'result')!.data)
    expect(result).toMatchObject({ matchId: match.id, change: 'set', outcome: 'win' })
    const stored = await t.db
      .selectFrom('matches')
      .innerJoin('squads', 'squads.id', 'matches.winner_squad_id')
      .select(['status', 'squads.name', 'sixes'])
      .where('matches.id', '=', match.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ status: 'complete', name: summary.winner, sixes: summary.sixes })
    // Complete: the match takes no more live scores.
    await expect(
      new LiveService(t.db, t.clock).setLive(
        'bbl',
        asMatchId(match.id),
        { innings: last.innings },
        null,
      ),
    ).rejects.toThrow(/complete/)
  })
})
