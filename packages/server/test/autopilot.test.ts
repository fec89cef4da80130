import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import {
  AUTOPILOT_NO_YIELD_MS,
  runAutopilot,
  type AutopilotReport,
} from '../src/modules/autopilot/service.ts'
import { autopilotMargin, autopilotSquad } from '@tipping/contract/rules/autopilot'
import { createTestApp, engine, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Autopilot (issue 32, decision 026) on the real 2025-26 fixtures: the men's Week 2 matches,
// tipped by the scheduler's job for the tippers who asked, on both engines.
let t: TestApp
type M = {
  id: number
  round_id: number
  starts_at: Date
  home: number
  away: number
  margin: boolean
}
let matches: M[]
let first: M
type U = { id: number; email: string; cookie: string }

const put = (u: U, body: Record<string, unknown>, sport = 'bbl') =>
  t.app.inject({
    method: 'PUT',
    url: `/api/${sport}/autopilot`,
    headers: { cookie: u.cookie },
    payload: body,
  })

const tipsOn = (matchId: number) =>
  t.db
    .selectFrom('tips')
    .select(['user_id', 'squad_id', 'margin', 'is_auto_tip', 'is_autopilot'])
    .where('match_id', '=', matchId)
    .orderBy('user_id')
    .execute()

const tipOf = async (userId: number, matchId: number) =>
  (await tipsOn(matchId)).find((r) => r.user_id === userId)

const playerTip = (userId: number, m: M, squad: number, margin: number | null = null) =>
  t.db
    .insertInto('tips')
    .values({ user_id: userId, match_id: m.id, round_id: m.round_id, squad_id: squad, margin })
    .execute()

const save = (u: U, m: M, squad: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: u.cookie },
    payload: { predictions: [{ match: m.id, squad, ...(m.margin ? { margin: 7 } : {}) }] },
  })

const at = (m: M, minutesBefore: number) =>
  t.clock.set(new Date(m.starts_at.getTime() - minutesBefore * 60_000))

async function reset() {
  await t.db.deleteFrom('tips').execute()
  await t.db.deleteFrom('autopilot_passes').execute()
  await t.db.deleteFrom('autopilot_settings').execute()
}

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  const rows = await t.db
    .selectFrom('matches as m')
    .innerJoin('rounds as r', 'r.id', 'm.round_id')
    .innerJoin('competitions as c', 'c.id', 'r.competition_id')
    .select([
      'm.id',
      'm.round_id',
      'm.starts_at',
      'm.home_squad_id as home',
      'm.away_squad_id as away',
      'm.is_margin_game as margin',
    ])
    .where('c.sport', '=', 'bbl')
    .where('r.number', '=', 2)
    .orderBy('m.starts_at')
    .execute()
  matches = rows.map((r) => ({ ...r, starts_at: new Date(r.starts_at) }))
  first = matches[0]!
  // Registered a day before Week 2.
  at(first, 24 * 60)
})
beforeEach(reset)
afterAll(() => t.close())

describe('autopilot settings', () => {
  it('is off by default, saves per sport, and refuses a lead it does not offer, naming it', async () => {
    const u = await registerUser(t.app)
    const get = await t.app.inject({ url: '/api/bbl/autopilot', headers: { cookie: u.cookie } })
    expect(get.json().success.autopilot).toEqual({ strategy: 'off', leadMinutes: 60 })
    const set = await put(u, { strategy: 'home', leadMinutes: 180 })
    expect(set.statusCode).toBe(200)
    expect(set.json().success.autopilot).toEqual({ strategy: 'home', leadMinutes: 180 })
    const again = await t.app.inject({ url: '/api/bbl/autopilot', headers: { cookie: u.cookie } })
    expect(again.json().success.autopilot).toEqual({ strategy: 'home', leadMinutes: 180 })
    const bad = await put(u, { strategy: 'home', leadMinutes: 30 })
    expect(bad.statusCode).toBe(400)
    expect(JSON.stringify(bad.json().errors)).toContain('leadMinutes')
    const visitor = await t.app.inject({
      method: 'PUT',
      url: '/api/bbl/autopilot',
      payload: { strategy: 'home', leadMinutes: 60 },
    })
    expect(visitor.statusCode).toBe(401)
    expect((await put(u, { strategy: 'off', leadMinutes: 15 })).json().success.autopilot).toEqual({
      strategy: 'off',
      leadMinutes: 60,
    })
    expect(await t.db.selectFrom('autopilot_settings').selectAll().execute()).toHaveLength(0)
  })
})

describe('the autopilot job', () => {
  it('tips the untipped at each lead with the strategy, never over a tip, once per checkpoint', async () => {
    at(first, 24 * 60)
    const fav = await registerUser(t.app)
    const home = await registerUser(t.app)
    const team = await registerUser(t.app)
    const late = await registerUser(t.app)
    const off = await registerUser(t.app)
    const tipped = await registerUser(t.app)
    const crowd = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)]
    await t.db
      .updateTable('users')
      .set({ team_supported: first.away })
      .where('id', '=', team.id)
      .execute()
    expect((await put(fav, { strategy: 'favourite', leadMinutes: 60 })).statusCode).toBe(200)
    await put(home, { strategy: 'home', leadMinutes: 180 })
    await put(team, { strategy: 'team', leadMinutes: 60 })
    await put(late, { strategy: 'home', leadMinutes: 15 })
    await put(tipped, { strategy: 'home', leadMinutes: 180 })
    // The players' own picks: the away side is the favourite, 2 to 1.
    await playerTip(crowd[0]!.id, first, first.away, first.margin ? 10 : null)
    await playerTip(crowd[1]!.id, first, first.away, first.margin ? 30 : null)
    await playerTip(crowd[2]!.id, first, first.home, first.margin ? 20 : null)
    await playerTip(tipped.id, first, first.away)

    at(first, 181)
    expect(await runAutopilot(t.db, t.clock)).toEqual({ checkpoints: 0, placed: 0 })
    at(first, 170)
    const r180 = await runAutopilot(t.db, t.clock)
    expect((await tipOf(home.id, first.id))?.squad_id).toBe(first.home)
    expect(await tipOf(fav.id, first.id)).toBeUndefined()
    expect(r180.placed).toBeGreaterThanOrEqual(1)

    at(first, 59)
    await runAutopilot(t.db, t.clock)
    const favTip = await tipOf(fav.id, first.id)
    expect(favTip).toMatchObject({ squad_id: first.away, is_autopilot: true, is_auto_tip: false })
    expect((await tipOf(team.id, first.id))?.squad_id).toBe(first.away)
    expect(favTip?.margin).toBe(first.margin ? 20 : null)
    expect(await tipOf(late.id, first.id)).toBeUndefined()
    expect(await tipOf(off.id, first.id)).toBeUndefined()
    expect(await tipOf(tipped.id, first.id)).toMatchObject({
      squad_id: first.away,
      is_autopilot: false,
    })
    // The same checkpoint again places nothing.
    expect(await runAutopilot(t.db, t.clock)).toEqual({ checkpoints: 0, placed: 0 })

    at(first, 14)
    await runAutopilot(t.db, t.clock)
    expect((await tipOf(late.id, first.id))?.squad_id).toBe(first.home)
    // Every tip on the match matches the reference (rules/autopilot.ts).
    // At the 60-minute checkpoint: the three players, `tipped` and the 180-minute autopilot tip.
    const players = {
      squadIds: [first.away, first.away, first.home, first.away, first.home],
      margins: first.margin ? [10, 30, 20, 20] : [],
    }
    const match = { homeSquadId: first.home, awaySquadId: first.away, isMarginGame: first.margin }
    expect(favTip?.squad_id).toBe(autopilotSquad('favourite', 0, match, players))
    expect(favTip?.margin).toBe(autopilotMargin(match, players))
    expect(await tipsOn(first.id)).toHaveLength(8)
  })

  it("predicts the tippers' median on the Super Sixes match, 0 when nobody has guessed", async () => {
    const game = matches.find((m) => m.margin)!
    at(game, 24 * 60)
    const [a, b] = [await registerUser(t.app), await registerUser(t.app)]
    const crowd = await Promise.all([4, 30, 12, 9].map(() => registerUser(t.app)))
    await put(a, { strategy: 'favourite', leadMinutes: 180 })
    at(game, 170)
    await runAutopilot(t.db, t.clock)
    expect(await tipOf(a.id, game.id)).toMatchObject({ squad_id: game.home, margin: 0 })
    for (const [i, m] of [4, 30, 12, 9].entries()) await playerTip(crowd[i]!.id, game, game.away, m)
    await put(b, { strategy: 'home', leadMinutes: 60 })
    at(game, 50)
    await runAutopilot(t.db, t.clock)
    // Stored guesses 0 (a's autopilot tip), 4, 9, 12, 30: the median is 9.
    expect(await tipOf(b.id, game.id)).toMatchObject({ squad_id: game.home, margin: 9 })
    expect(
      autopilotMargin(
        { homeSquadId: game.home, awaySquadId: game.away, isMarginGame: true },
        { squadIds: [], margins: [0, 4, 30, 12, 9] },
      ),
    ).toBe(9)
  })

  it('shows the tip as placed by autopilot until the player saves their own', async () => {
    at(first, 24 * 60)
    const u = await registerUser(t.app)
    await put(u, { strategy: 'home', leadMinutes: 60 })
    at(first, 30)
    await runAutopilot(t.db, t.clock)
    const read = async () =>
      (await t.app.inject({ url: '/api/bbl/predictions/2', headers: { cookie: u.cookie } })).json()
        .success.predictions as { match: number; squad: number; isAutopilot?: true }[]
    expect((await read()).find((p) => p.match === first.id)).toMatchObject({
      squad: first.home,
      isAutopilot: true,
    })
    expect((await save(u, first, first.away)).statusCode).toBe(200)
    const mine = (await read()).find((p) => p.match === first.id)!
    expect(mine.squad).toBe(first.away)
    expect(mine.isAutopilot).toBeUndefined()
    expect(await tipOf(u.id, first.id)).toMatchObject({ is_autopilot: false })
  })

  it('never tips after the lockout, even for a checkpoint never run', async () => {
    at(first, 24 * 60)
    const u = await registerUser(t.app)
    await put(u, { strategy: 'home', leadMinutes: 180 })
    t.clock.set(new Date(first.starts_at.getTime() + 1000))
    await runLockouts(t.db, t.clock)
    await runAutopilot(t.db, t.clock)
    expect(await tipOf(u.id, first.id)).toBeUndefined()
    // Each batch re-checks the lock: the match it would tip is not open to it.
    const { lockOpenMatch } = await import('../src/modules/autopilot/queries.ts')
    expect(await lockOpenMatch(t.db, first.id, t.clock.now())).toBeUndefined()
    await t.db
      .updateTable('matches')
      .set({ status: 'scheduled' })
      .where('id', '=', first.id)
      .execute()
    await t.db
      .updateTable('rounds')
      .set({ status: 'scheduled' })
      .where('id', '=', first.round_id)
      .execute()
  })

  it('is safe with two schedulers racing and a player saving at the same moment', async () => {
    at(first, 24 * 60)
    const racers = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)))
    for (const u of racers) await put(u, { strategy: 'home', leadMinutes: 60 })
    const saver = racers[0]!
    at(first, 30)
    const [a, b, saved] = await Promise.all([
      runAutopilot(t.db, t.clock),
      runAutopilot(t.db, t.clock),
      save(saver, first, first.away),
      runAutopilot(t.db, t.clock),
    ])
    expect(saved.statusCode).toBe(200)
    const rows = (await tipsOn(first.id)).filter((r) => racers.some((u) => u.id === r.user_id))
    expect(rows).toHaveLength(racers.length)
    // The player's choice stands whoever came first.
    expect(rows.find((r) => r.user_id === saver.id)).toMatchObject({
      squad_id: first.away,
      is_autopilot: false,
    })
    expect(rows.filter((r) => r.is_autopilot).every((r) => r.squad_id === first.home)).toBe(true)
    // Each checkpoint ran once: one process claimed it, the others got nothing.
    const passes = await t.db.selectFrom('autopilot_passes').selectAll().execute()
    expect(passes).toHaveLength(new Set(passes.map((p) => p.match_id)).size)
    expect(a.checkpoints + b.checkpoints).toBeLessThanOrEqual(passes.length)
  })
})

describe('the autopilot job in batches (decision 026, "Batches")', () => {
  type Tip = Awaited<ReturnType<typeof tipsOn>>[number]
  const mine = (rows: Tip[], users: U[]) =>
    rows.filter((r) => users.some((u) => u.id === r.user_id))

  /**
   * Three players' own picks (the away side the favourite, 2 to 1) and seven tippers on autopilot,
   * an hour ahead, in user order: three 'home' first, then four 'favourite'. Had each batch
   * counted the favourite again, the home tips of the first batches would turn it to home.
   */
  async function tippers() {
    at(first, 24 * 60)
    const crowd = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)]
    await playerTip(crowd[0]!.id, first, first.away, first.margin ? 10 : null)
    await playerTip(crowd[1]!.id, first, first.away, first.margin ? 30 : null)
    await playerTip(crowd[2]!.id, first, first.home, first.margin ? 20 : null)
    const auto: U[] = []
    for (let i = 0; i < 7; i++) {
      const u = await registerUser(t.app)
      await put(u, { strategy: i < 3 ? 'home' : 'favourite', leadMinutes: 60 })
      auto.push(u)
    }
    at(first, 30)
    return auto
  }

  const undo = async () => {
    await t.db.deleteFrom('tips').where('is_autopilot', '=', true).execute()
    await t.db.deleteFrom('autopilot_passes').execute()
  }

  it('places exactly the tips of one batch when split into several, and resumes after a crash', async () => {
    const auto = await tippers()
    const one = await runAutopilot(t.db, t.clock)
    const whole = mine(await tipsOn(first.id), auto)
    expect(whole).toHaveLength(7)
    expect(whole.slice(3).every((r) => r.squad_id === first.away && r.is_autopilot)).toBe(true)
    for (const size of [1, 2, 3, 7]) {
      await undo()
      const batches: number[] = []
      const split = await runAutopilot(t.db, t.clock, {
        batchSize: size,
        afterBatch: (b) => void batches.push(b.placed),
      })
      expect(mine(await tipsOn(first.id), auto)).toEqual(whole)
      expect(split).toEqual(one)
      // Keyset batches: ceil(7 / size) of them, and one more that finds nobody after a full one.
      expect(batches.length).toBe(Math.floor(7 / size) + 1)
    }
    // A crash after the second batch commits: the next run carries on from the recorded progress.
    await undo()
    let seen = 0
    const crash = runAutopilot(t.db, t.clock, {
      batchSize: 2,
      afterBatch: () => {
        if (++seen === 2) throw new Error('process killed')
      },
    })
    await expect(crash).rejects.toThrow('process killed')
    expect(mine(await tipsOn(first.id), auto)).toHaveLength(4)
    const resumed = await runAutopilot(t.db, t.clock, { batchSize: 2 })
    expect(resumed).toEqual({ checkpoints: 1, placed: 3 })
    expect(mine(await tipsOn(first.id), auto)).toEqual(whole)
    const pass = await t.db.selectFrom('autopilot_passes').selectAll().executeTakeFirstOrThrow()
    expect(pass).toMatchObject({ placed: 7, through_user_id: auto.at(-1)!.id })
    expect(pass.finished_at).not.toBeNull()
  })

  it('yields between batches while other sessions are at work, not when alone nor near a kick-off', async () => {
    // Decision 026, "Yielding to savers": after a batch, while another session of the database
    // runs a statement, the job waits twice the batch's time before the next.
    const auto = await tippers()
    const waits: number[] = []
    const sleep = (ms: number) => {
      waits.push(ms)
      return Promise.resolve()
    }
    const run = () => runAutopilot(t.db, t.clock, { batchSize: 2, sleep })
    // Alone (PGlite is always alone: one connection).
    expect(await run()).toEqual({ checkpoints: 1, placed: 7 })
    expect(waits).toEqual([])
    if (engine() !== 'postgres') return
    // Another session at work through the whole run: a statement still running on a connection
    // of its own. Batches of 2, 2, 2 and 1: a wait after each of the first three.
    const busy = async (job: () => Promise<unknown>) => {
      const other = sql`SELECT pg_sleep(2)`.execute(t.db)
      for (let i = 0; i < 100; i++) {
        const running = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%'
            AND state = 'active'`.execute(t.db)
        if (running.rows[0]!.n > 0) break
        await new Promise((r) => setTimeout(r, 20))
      }
      try {
        return await job()
      } finally {
        await other
      }
    }
    await undo()
    expect(await busy(run)).toEqual({ checkpoints: 1, placed: 7 })
    expect(waits).toHaveLength(3)
    expect(waits.every((ms) => ms > 0)).toBe(true)
    expect(mine(await tipsOn(first.id), auto)).toHaveLength(7)
    // Another match, of any competition, kicking off within 5 minutes: no waiting, so that its
    // lockout (after the job, in the same scheduler pass) is not held back.
    await undo()
    waits.length = 0
    // (the season's last match, brought forward: its own 15-minute checkpoint tips it as well)
    const other = await t.db
      .selectFrom('matches')
      .select(['id', 'starts_at'])
      .where('status', '=', 'scheduled')
      .where('starts_at', '>', first.starts_at)
      .orderBy('starts_at', 'desc')
      .executeTakeFirstOrThrow()
    const soon = new Date(t.clock.now().getTime() + AUTOPILOT_NO_YIELD_MS - 60_000)
    await t.db.updateTable('matches').set({ starts_at: soon }).where('id', '=', other.id).execute()
    try {
      expect(await busy(run)).toEqual({ checkpoints: 2, placed: 14 })
      expect(waits).toEqual([])
      expect(mine(await tipsOn(first.id), auto)).toHaveLength(7)
    } finally {
      await t.db
        .updateTable('matches')
        .set({ starts_at: other.starts_at })
        .where('id', '=', other.id)
        .execute()
    }
    // Close to its own kick-off (the 15-minute checkpoint, 4 minutes before): no waiting either.
    await undo()
    t.clock.set(new Date(first.starts_at.getTime() - AUTOPILOT_NO_YIELD_MS + 60_000))
    expect(await busy(run)).toEqual({ checkpoints: 1, placed: 7 })
    expect(waits).toEqual([])
  })

  it("keeps a player's save made between two batches, before or after their turn", async () => {
    const auto = await tippers()
    const [early, late] = [auto[0]!, auto[6]!]
    let saved = false
    await runAutopilot(t.db, t.clock, {
      batchSize: 2,
      afterBatch: async () => {
        if (saved) return
        saved = true
        // early was tipped by the first batch; late's batch has not run yet.
        expect(await tipOf(early.id, first.id)).toMatchObject({ is_autopilot: true })
        expect((await save(early, first, first.away)).statusCode).toBe(200)
        expect((await save(late, first, first.home)).statusCode).toBe(200)
      },
    })
    expect(await tipOf(early.id, first.id)).toMatchObject({
      squad_id: first.away,
      is_autopilot: false,
    })
    expect(await tipOf(late.id, first.id)).toMatchObject({
      squad_id: first.home,
      is_autopilot: false,
    })
    const rows = mine(await tipsOn(first.id), auto)
    expect(rows).toHaveLength(7)
    expect(rows.filter((r) => r.is_autopilot)).toHaveLength(5)
  })

  it('places each tip once with two jobs at once, taking turns on the batches', async () => {
    const auto = await tippers()
    const single: number[] = []
    await runAutopilot(t.db, t.clock, { batchSize: 2, afterBatch: () => void single.push(1) })
    const whole = mine(await tipsOn(first.id), auto)
    await undo()
    // Two schedulers at once (on PostgreSQL truly concurrent; PGlite interleaves transactions).
    const batches: number[] = []
    const count = (b: { placed: number }) => void batches.push(b.placed)
    const [a, b] = await Promise.all([
      runAutopilot(t.db, t.clock, { batchSize: 2, afterBatch: count }),
      runAutopilot(t.db, t.clock, { batchSize: 2, afterBatch: count }),
    ])
    expect(mine(await tipsOn(first.id), auto)).toEqual(whole)
    // No batch ran twice: together they ran the single job's batches, placing each tip once.
    expect(batches).toHaveLength(single.length)
    expect(a.placed + b.placed).toBe(7)
    expect(a.checkpoints + b.checkpoints).toBe(1)
    // One job starting the other between its batches: the second carries on, the first stops.
    await undo()
    let other: Promise<AutopilotReport> | undefined
    const first_ = await runAutopilot(t.db, t.clock, {
      batchSize: 2,
      afterBatch: async () => {
        other ??= runAutopilot(t.db, t.clock, { batchSize: 2 })
        await other
      },
    })
    expect(first_.placed + (await other!).placed).toBe(7)
    expect(mine(await tipsOn(first.id), auto)).toEqual(whole)
  })

  it('follows a change of the Super Sixes match between batches, with the median counted once', async () => {
    const auto = await tippers()
    // One Super Sixes match per round: move it to or away from `first`, and back after.
    const setGame = async (id: number | undefined) => {
      await t.db
        .updateTable('matches')
        .set({ is_margin_game: false })
        .where('round_id', '=', first.round_id)
        .execute()
      if (id !== undefined)
        await t.db
          .updateTable('matches')
          .set({ is_margin_game: true })
          .where('id', '=', id)
          .execute()
    }
    const game = matches.find((m) => m.margin)?.id
    const flip = () => setGame(first.margin ? undefined : first.id)
    let flipped = false
    try {
      await runAutopilot(t.db, t.clock, {
        batchSize: 3,
        afterBatch: async () => {
          if (!flipped) await flip()
          flipped = true
        },
      })
      const margins = mine(await tipsOn(first.id), auto).map((r) => r.margin)
      // The players' guesses 10, 30 and 20 on a margin game (median 20); none on another (0).
      const [before, after] = first.margin ? [20, null] : [null, 0]
      expect(margins).toEqual([before, before, before, after, after, after, after])
    } finally {
      await setGame(game)
    }
  })

  it('stops at the lockout arriving between batches, whatever the clock says', async () => {
    const auto = await tippers()
    const before = t.clock.now()
    let lockedOut = false
    const report = await runAutopilot(t.db, t.clock, {
      batchSize: 2,
      afterBatch: async () => {
        if (lockedOut) return
        lockedOut = true
        t.clock.set(new Date(first.starts_at.getTime() + 1000))
        expect((await runLockouts(t.db, t.clock)).locked).toBeGreaterThanOrEqual(1)
        // A scheduler whose clock still reads half an hour before: the match's status stops it.
        t.clock.set(before)
      },
    })
    try {
      expect(report).toEqual({ checkpoints: 1, placed: 2 })
      const rows = mine(await tipsOn(first.id), auto)
      expect(rows.map((r) => r.user_id)).toEqual([auto[0]!.id, auto[1]!.id])
      const pass = await t.db.selectFrom('autopilot_passes').selectAll().executeTakeFirstOrThrow()
      expect(pass.finished_at).not.toBeNull()
      expect(await runAutopilot(t.db, t.clock)).toEqual({ checkpoints: 0, placed: 0 })
    } finally {
      const locked = await t.db
        .updateTable('matches')
        .set({ status: 'scheduled', locked_at: null })
        .where('status', '=', 'active')
        .where('round_id', '=', first.round_id)
        .returning('round_id')
        .execute()
      if (locked.length > 0)
        await t.db
          .updateTable('rounds')
          .set({ status: 'scheduled' })
          .where('id', '=', first.round_id)
          .execute()
    }
  })
})
