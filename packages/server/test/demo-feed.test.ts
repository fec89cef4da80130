import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { AdjustableClock } from '../src/clock.ts'
import { REPO_ROOT, loadConfig, testConfig, type Config } from '../src/config.ts'
import type { DatabaseHandle } from '../src/db/database.ts'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import { demoFeedEnabled } from '../src/modules/live/demo-feed.ts'
import { DEMO_ROUND, seedDemo } from '../src/seed/demo.ts'
import { freshDatabase, loadSeasons } from './helpers.ts'

// `npm start` on PGlite: the demo server plays a Cricsheet match as the live feed of each sport's
// match in progress, in its own process, so the demo's live card moves; never in production.

const now = new Date('2026-11-23T09:00:00Z')
let handle: DatabaseHandle
let clock: AdjustableClock
let staticDir: string

beforeAll(async () => {
  handle = await freshDatabase()
  clock = new AdjustableClock(now)
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-demo-feed-'))
  await seedDemo(handle.db, {
    dataDir: path.join(REPO_ROOT, 'data'),
    sponsorPrefix: '',
    now,
    users: 20,
  })
  // What the scheduler's first pass does at start: the match that began an hour ago goes live.
  await runLockouts(handle.db, clock)
}, 120_000)
afterAll(async () => {
  await handle.close()
  await fs.rm(staticDir, { recursive: true, force: true })
})

const demoApp = async (config: Partial<Config>) => {
  const { app } = await buildApp({
    config: testConfig({
      STATIC_DIR: staticDir,
      WEB_DIST_DIR: path.join(staticDir, 'no-web'),
      SEED: 'demo',
      DEMO_LIVE_FEED_BALL_MS: 10,
      ...config,
    }),
    db: handle.db,
    engine: handle.engine,
    clock,
    listen: handle.listen,
  })
  await app.ready()
  return app
}

/** Asks until the check holds (each ask a request), failing past `ms`. */
async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

type LiveRound = {
  matches: {
    matchId: number
    status: string
    version: number
    innings: { runs: number; wickets: number; overs: string }[]
  }[]
}

const versions = async (on: DatabaseHandle = handle) =>
  (await on.db.selectFrom('live_scores').select(['match_id', 'version']).execute()).sort(
    (a, b) => a.match_id - b.match_id,
  )

describe('the demo live feed', () => {
  it('is on for the demo by default, and never in production or when switched off', () => {
    expect(demoFeedEnabled(loadConfig({}))).toBe(true)
    expect(demoFeedEnabled(loadConfig({ SEED: 'none' }))).toBe(false)
    expect(demoFeedEnabled(loadConfig({ DEMO_LIVE_FEED: 'false' }))).toBe(false)
    // Production refuses SEED=demo at start; the feed does not rely on that alone.
    expect(demoFeedEnabled({ ...loadConfig({}), DEPLOY_ENV: 'production', SEED: 'demo' })).toBe(
      false,
    )
  })

  it("moves each sport's live match ball by ball, and leaves its result unset", async () => {
    const app = await demoApp({})
    try {
      for (const sport of ['bbl', 'wbbl']) {
        const read = async () =>
          (await app.inject({ url: `/api/${sport}/live/${DEMO_ROUND}` })).json()
            .success as LiveRound
        let first: LiveRound['matches'][number] | undefined
        await until(async () => {
          first = (await read()).matches[0]
          return first !== undefined && first.innings[0]!.runs > 0
        }, 20_000)
        expect(first!.status).toBe('active')
        let later: LiveRound['matches'][number] | undefined
        await until(async () => {
          later = (await read()).matches.find((m) => m.matchId === first!.matchId)
          return later !== undefined && later.version > first!.version + 5
        }, 20_000)
        // Six deliveries on: the score has moved (runs, wickets or overs).
        expect(later!.innings).not.toEqual(first!.innings)
      }
    } finally {
      await app.close()
    }
    // Stopped with the app: nothing is written after the close.
    const after = await versions()
    await new Promise((r) => setTimeout(r, 200))
    expect(await versions()).toEqual(after)
    const matches = await handle.db
      .selectFrom('matches')
      .select(['status', 'outcome'])
      .where(
        'id',
        'in',
        after.map((v) => v.match_id),
      )
      .execute()
    expect(matches.every((m) => m.status === 'active' && m.outcome === null)).toBe(true)
  }, 60_000)

  it.each([
    ['in production', { DEPLOY_ENV: 'production' as const }],
    ['with DEMO_LIVE_FEED=false', { DEMO_LIVE_FEED: false }],
  ])('plays nothing %s', async (_, config) => {
    const before = await versions()
    const app = await demoApp(config)
    try {
      await new Promise((r) => setTimeout(r, 300))
      expect(await versions()).toEqual(before)
    } finally {
      await app.close()
    }
  })
})

describe('the demo live feed with no match in progress', () => {
  it('starts the next match with a Cricsheet file, and plays it once it is locked', async () => {
    // The seasons as published, the clock before either begins: nothing is live.
    const db = await freshDatabase()
    const before = new AdjustableClock(new Date('2025-10-01T00:00:00Z'))
    try {
      await loadSeasons(db.db)
      const { app } = await buildApp({
        config: testConfig({
          STATIC_DIR: staticDir,
          WEB_DIST_DIR: path.join(staticDir, 'no-web'),
          SEED: 'demo',
          DEMO_LIVE_FEED_BALL_MS: 10,
        }),
        db: db.db,
        engine: db.engine,
        clock: before,
        listen: db.listen,
      })
      try {
        const started = () =>
          db.db
            .selectFrom('matches')
            .select(['id', 'status'])
            .where('starts_at', '=', before.now())
            .execute()
        // One match of each sport is brought to now; none is locked by the feed itself.
        await until(async () => (await started()).length === 2, 20_000)
        expect((await started()).every((m) => m.status === 'scheduled')).toBe(true)
        // The scheduler's lockout starts them; the feed then plays them.
        await runLockouts(db.db, before)
        await until(async () => (await versions(db)).length === 2, 20_000)
        expect((await versions(db)).map((v) => v.match_id).sort()).toEqual(
          (await started()).map((m) => m.id).sort(),
        )
      } finally {
        await app.close()
      }
    } finally {
      await db.close()
    }
  }, 60_000)
})
