import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { LiveMatch, LiveRoundResponse } from '@tipping/contract/live'
import { liveFigures } from '@tipping/contract/rules/live'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from './api.ts'
import { liveApi } from './live-api.ts'
import { handleLiveEvent, RESULT_SPREAD_MS } from './live-channel.ts'
import { createTestStore } from './test-store.ts'

// The push channel's events through the real store: what each event writes into the cache, and
// what it reads again (and when). Only the network is replaced, by a stubbed fetch.

const ROUND = asRoundNumber(3)
const live = (version: number, runs: number): LiveMatch => {
  const innings = [{ runs, wickets: 1, balls: 30, ballsAllotted: null }]
  return {
    matchId: asMatchId(7),
    roundNumber: ROUND,
    status: 'active',
    version,
    updatedAt: '2026-12-01T08:30:00Z',
    innings: [
      {
        battingSquadId: asSquadId(1),
        runs,
        wickets: 1,
        overs: '5',
        oversAllotted: null,
        sixes: 2,
      },
    ],
    sixes: 2,
    figures: liveFigures(innings),
  }
}

afterEach(() => vi.unstubAllGlobals())

/** A read tagged as the score header is, to see what a result makes the page read again. */
const probe = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, void>({
      query: () => ({ path: 'probe' }),
      providesTags: ['Snapshot'],
    }),
  }),
})

async function storeWithRound(first: LiveRoundResponse) {
  const calls: string[] = []
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(String(url))
    return new Response(JSON.stringify({ success: first }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
  })
  const store = createTestStore()
  await store.dispatch(liveApi.endpoints.liveRound.initiate({ sport: 'bbl', round: ROUND }))
  const read = () =>
    liveApi.endpoints.liveRound.select({ sport: 'bbl', round: ROUND })(store.getState()).data
  return { store, calls, read }
}

describe('the push channel in the browser', () => {
  it('writes a live event into the round, and ignores one older than what the page has', async () => {
    const { store, read } = await storeWithRound({ round: ROUND, matches: [live(2, 40)] })
    handleLiveEvent(store.dispatch, () => store.getState(), 'bbl', 'live', live(3, 46))
    expect(read()?.matches[0]?.innings[0]?.runs).toBe(46)
    // A resumed stream replays an older event: the newer score stays.
    handleLiveEvent(store.dispatch, () => store.getState(), 'bbl', 'live', live(2, 40))
    expect(read()?.matches[0]?.innings[0]?.runs).toBe(46)
    // A match not yet in the page's list joins it.
    handleLiveEvent(store.dispatch, () => store.getState(), 'bbl', 'live', {
      ...live(1, 3),
      matchId: asMatchId(8),
    })
    expect(read()?.matches.map((m) => m.matchId)).toEqual([7, 8])
  })

  it('marks the match complete at a result and reads the scores once per version, spread', async () => {
    const { store, read, calls } = await storeWithRound({ round: ROUND, matches: [live(2, 40)] })
    const scheduled: number[] = []
    const runs: (() => void)[] = []
    const schedule = (run: () => void, ms: number) => {
      scheduled.push(ms)
      runs.push(run)
    }
    const result = {
      matchId: asMatchId(7),
      roundNumber: ROUND,
      roundStatus: 'active' as const,
      change: 'set' as const,
      outcome: 'win' as const,
      winnerSquadId: asSquadId(1),
      sixes: 11,
      scoresVersion: 5,
    }
    handleLiveEvent(store.dispatch, () => store.getState(), 'bbl', 'result', result, schedule)
    expect(read()?.matches[0]?.status).toBe('complete')
    expect(store.getState().push.scoresVersion).toBe(5)
    // The same version again (another process's copy, a replay) asks for nothing more.
    handleLiveEvent(store.dispatch, () => store.getState(), 'bbl', 'result', result, schedule)
    expect(scheduled).toHaveLength(1)
    expect(scheduled[0]).toBeGreaterThanOrEqual(0)
    expect(scheduled[0]).toBeLessThan(RESULT_SPREAD_MS)
    // When its moment comes, what the page shows (here a read tagged as the score header is) is
    // read again; before it, nothing is.
    const before = calls.length
    const subscription = store.dispatch(probe.endpoints.probe.initiate())
    await new Promise((r) => setTimeout(r, 10))
    expect(calls.length).toBe(before + 1)
    runs[0]!()
    await new Promise((r) => setTimeout(r, 10))
    expect(calls.length).toBe(before + 2)
    subscription.unsubscribe()
    // A correction with a newer version is read again too.
    handleLiveEvent(
      store.dispatch,
      () => store.getState(),
      'bbl',
      'result',
      { ...result, scoresVersion: 6 },
      schedule,
    )
    expect(scheduled).toHaveLength(2)
  })

  it('reads the round again when an event arrives before the first read has answered', async () => {
    let answer: (r: Response) => void = () => undefined
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)))
    const store = createTestStore()
    const first = store.dispatch(
      liveApi.endpoints.liveRound.initiate({ sport: 'bbl', round: ROUND }),
    )
    const scheduled: number[] = []
    handleLiveEvent(
      store.dispatch,
      () => store.getState(),
      'bbl',
      'live',
      live(3, 46),
      (_, ms) => scheduled.push(ms),
    )
    // The event had nowhere to go: a read is asked for, once the first has had time to land.
    expect(scheduled).toEqual([1000])
    answer(new Response(JSON.stringify({ success: { round: ROUND, matches: [] } })))
    await first
    first.unsubscribe()
    // With the round in, the next event is written in place and asks for nothing.
    const store2 = (await storeWithRound({ round: ROUND, matches: [live(2, 40)] })).store
    const later: number[] = []
    handleLiveEvent(
      store2.dispatch,
      () => store2.getState(),
      'bbl',
      'live',
      live(3, 46),
      (_, ms) => later.push(ms),
    )
    expect(later).toEqual([])
  })

  it('reads everything again after a reset, at a moment within the spread the server gives', async () => {
    const { store } = await storeWithRound({ round: ROUND, matches: [] })
    const scheduled: number[] = []
    handleLiveEvent(
      store.dispatch,
      () => store.getState(),
      'bbl',
      'reset',
      { spreadMs: 5000 },
      (_, ms) => scheduled.push(ms),
    )
    expect(scheduled).toHaveLength(1)
    expect(scheduled[0]).toBeLessThan(5000)
  })
})
