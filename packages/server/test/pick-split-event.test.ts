import path from 'node:path'
import { liveEventPayloadSchemas, type PicksEvent } from '@tipping/contract/live'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../src/config.ts'
import { Scheduler } from '../src/jobs/scheduler.ts'
import { publishPickSplits } from '../src/modules/live/pick-split.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'
import { eventually, openSse } from './live-sse.ts'

// The push channel's `picks` event (decision 015): a round's pick split, coalesced per round
// (at most every PICK_SPLIT_EVENT_MS while tips change, only when it moved), and told at once
// when a match locks; never one event per tip.

// Real BBL|15 fixture: round 3 is matches 17-24, from 2025-12-31; before it, all are open.
const NOW = new Date('2025-12-30T00:00:00Z')
const EVERY_MS = 30_000
let t: TestApp
let base: string
let users: { cookie: string }[]
let m17: { id: number; home: number; away: number; startsAt: Date }

beforeAll(async () => {
  t = await createTestApp({ now: NOW })
  await loadSeasons(t.db)
  const row = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'home_squad_id as home', 'away_squad_id as away', 'starts_at'])
    .where('competitions.sport', '=', 'bbl')
    .where('matches.number', '=', 17)
    .executeTakeFirstOrThrow()
  m17 = { ...row, startsAt: row.starts_at }
  users = []
  for (let i = 0; i < 6; i++) users.push(await registerUser(t.app))
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  base = `http://127.0.0.1:${address.port}`
})
afterAll(async () => {
  // The page's aborted fetch leaves a connection the server still counts, which would hold the
  // close until Fastify's keepAliveTimeout (72 s).
  t.app.server.closeAllConnections()
  await t.close()
})

const run = () => publishPickSplits(t.db, t.clock, { everyMs: EVERY_MS })
const tip = async (user: { cookie: string }, squad: number) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: user.cookie },
    payload: { predictions: [{ match: m17.id, squad }] },
  })
  expect(res.statusCode, res.body).toBe(200)
}
/** The `picks` events of BBL round 3 so far, checked against the contract. */
const round3Events = async (): Promise<PicksEvent[]> =>
  (
    await t.db
      .selectFrom('live_events')
      .select(['payload', 'sport'])
      .where('type', '=', 'picks')
      .orderBy('id')
      .execute()
  )
    .filter((e) => e.sport === 'bbl')
    .map((e) => liveEventPayloadSchemas.picks.parse(e.payload))
    .filter((e) => e.roundNumber === 3)
const splitOf17 = (e: PicksEvent | undefined) => {
  const m = e?.matches.find((x) => x.id === m17.id)
  return m && [m.home_percent, m.away_percent]
}

describe('the picks event', () => {
  it('is coalesced: counted at most every interval, told only when the split moved', async () => {
    // The first count of a round tells nothing: a page reads the same split when it loads.
    expect((await run()).published).toBe(0)
    await tip(users[0]!, m17.home)
    // Within the interval nothing is counted again.
    expect(await run()).toEqual({ counted: 0, published: 0 })
    t.clock.advance(EVERY_MS)
    const page = await openSse(base, 'bbl')
    expect((await run()).published).toBe(1)
    let events = await round3Events()
    expect(events).toHaveLength(1)
    expect(splitOf17(events[0])).toEqual([100, 0])
    // The same figures, under the same names, as the round read the tipping page shows.
    const read = await t.app.inject({
      url: '/api/bbl/predictions/3',
      headers: { cookie: users[0]!.cookie },
    })
    expect(events[0]!.matches).toEqual(
      read
        .json()
        .success.matches.map((m: { id: number; home_percent: number; away_percent: number }) => ({
          id: m.id,
          home_percent: m.home_percent,
          away_percent: m.away_percent,
        })),
    )
    // An open page hears it as a `picks` event.
    await eventually(() => page.events.some((e) => e.event === 'picks'), 5000)
    page.close()
    await page.ended
    const pushed = page.events.find((e) => e.event === 'picks')!
    expect(liveEventPayloadSchemas.picks.parse(JSON.parse(pushed.data))).toEqual(events[0])

    // Three tips inside one interval: one event, with where they left the split.
    await tip(users[1]!, m17.away)
    await tip(users[2]!, m17.home)
    t.clock.advance(EVERY_MS / 3)
    await tip(users[3]!, m17.away)
    expect((await run()).published).toBe(0)
    t.clock.advance(EVERY_MS)
    expect((await run()).published).toBe(1)
    events = await round3Events()
    expect(events).toHaveLength(2)
    expect(splitOf17(events[1])).toEqual([50, 50])
    // Counted again, unchanged: nothing told.
    t.clock.advance(EVERY_MS)
    expect((await run()).published).toBe(0)
    expect(await round3Events()).toHaveLength(2)
  })

  it('has one scheduler count a round when two run at once', async () => {
    await tip(users[4]!, m17.home)
    t.clock.advance(EVERY_MS)
    const [a, b] = await Promise.all([run(), run()])
    expect(a.published + b.published).toBe(1)
    const events = await round3Events()
    expect(events).toHaveLength(3)
    expect(splitOf17(events[2])).toEqual([60, 40])
  })

  it('is told at once when a match locks (the untipped get the away side)', async () => {
    // Counted a moment before the start: a lockout does not wait out the interval.
    t.clock.set(new Date(m17.startsAt.getTime() - 1000))
    await run()
    t.clock.set(new Date(m17.startsAt.getTime() + 1000))
    const scheduler = new Scheduler({
      db: t.db,
      clock: t.clock,
      publisher: new Publisher(t.db, t.clock, {
        staticDir: t.staticDir,
        logosDir: path.join(REPO_ROOT, 'data/logos'),
        matchCentreUrl: undefined,
      }),
      log: { info: () => {}, error: () => {} },
      intervalMs: 0,
      pickSplitEveryMs: EVERY_MS,
    })
    await scheduler.tick()
    await scheduler.stop()
    const events = await round3Events()
    expect(events).toHaveLength(4)
    // Three home, two away, and the sixth tipper's auto-tip on the away side.
    expect(splitOf17(events[3])).toEqual([50, 50])
  })
})
