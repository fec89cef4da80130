import 'fake-indexeddb/auto'
import { configureStore } from '@reduxjs/toolkit'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { Prediction, PredictionsResponse } from '@tipping/contract/predictions'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../lib/api.ts'
import { globalErrorReducer, selectVisibleError } from '../../lib/global-error-slice.ts'
import { deviceTipQueue } from '../../lib/offline-queue.ts'
import { picksActions, picksReducer } from './picks-slice.ts'
import { saveRoundPicks, tippingApi } from './tipping-api.ts'

// Issue 32: a save that gets no answer keeps the picks on the device (IndexedDB: fake-indexeddb
// here, Chromium's in e2e/offline.spec.ts); the server's own refusal is never queued.

const USER = 7
const prediction = (match: number, squad = 0): Prediction => ({
  match: asMatchId(match),
  squad: squad === 0 ? 0 : asSquadId(squad),
  margin: null,
  isMarginGame: false,
  isAutoTip: false,
  isCorrect: null,
  counted: null,
  marginResult: null,
  status: 'scheduled' as const,
})
const roundAnswer: PredictionsResponse = {
  round: {
    id: asRoundId(1),
    number: asRoundNumber(1),
    label: 'Week 1',
    status: 'scheduled',
    startDate: '2026-12-01T08:00:00Z',
    endDate: '2026-12-02T08:00:00Z',
    isGoldenWeek: false,
  },
  matches: [1, 2].map((id) => ({
    id: asMatchId(id),
    number: id,
    status: 'scheduled' as const,
    date: '2026-12-01T08:00:00Z',
    homeSquadId: asSquadId(1),
    awaySquadId: asSquadId(2),
    homeRuns: null,
    awayRuns: null,
    homeWicketsFallen: null,
    awayWicketsFallen: null,
    homeOvers: null,
    awayOvers: null,
    venueId: 1,
    class: 'match',
    isMarginGame: false,
    winnerSquadId: null,
    outcome: null,
    sixes: null,
    home_percent: 0,
    away_percent: 0,
  })),
  predictions: [prediction(1), prediction(2)],
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The round answers; the save answers as `save` says (a thrown error: no answer at all). */
function stubApi(save: (body: { predictions: { match: number; squad: number }[] }) => Response) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (url === '/api/bbl/predictions/1') return json(200, { success: roundAnswer })
    if (url === '/api/bbl/predictions_list') return save(JSON.parse(init.body as string))
    return json(404, { errors: [{ code: 'not_found', message: 'Not found', param: null }] })
  })
}

async function loadedStore() {
  const store = configureStore({
    reducer: {
      picks: picksReducer,
      globalError: globalErrorReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })
  store.dispatch(picksActions.shown('bbl/1'))
  await store.dispatch(
    tippingApi.endpoints.round.initiate({ sport: 'bbl', round: asRoundNumber(1) }),
  )
  store.dispatch(picksActions.picked({ match: asMatchId(1), squad: asSquadId(2) }))
  return store
}
const save = (store: Awaited<ReturnType<typeof loadedStore>>) =>
  store.dispatch(
    saveRoundPicks(
      'bbl',
      asRoundNumber(1),
      [{ match: asMatchId(1), squad: asSquadId(2), margin: null }],
      USER,
    ),
  )
const kept = () => deviceTipQueue()!.list(USER)

beforeEach(() => deviceTipQueue()!.clearExcept())
afterEach(() => vi.unstubAllGlobals())

describe('a save with no answer', () => {
  it('keeps the picks on the device, as the user made them, with no error shown', async () => {
    stubApi(() => {
      throw new TypeError('Failed to fetch')
    })
    const store = await loadedStore()
    expect(await save(store)).toBeNull()
    expect(store.getState().picks).toMatchObject({ saveStatus: 'queued', saving: false })
    expect(store.getState().picks.picks[0]!.squad).toBe(2)
    expect(selectVisibleError(store.getState())).toBeNull()
    expect(await kept()).toMatchObject([
      { userId: USER, sport: 'bbl', round: 1, match: 1, squad: 2, margin: null },
    ])
  })

  it("never queues the server's refusal: a 409 restores the picks and keeps nothing", async () => {
    stubApi(() =>
      json(409, {
        errors: [{ code: 'MATCH_LOCKED', message: 'This match has started', param: null }],
      }),
    )
    const store = await loadedStore()
    await save(store)
    expect(store.getState().picks.saveStatus).toBe('failed')
    expect(await kept()).toEqual([])
  })

  it('a later save that goes through forgets what was kept for those matches', async () => {
    stubApi(() => {
      throw new TypeError('Failed to fetch')
    })
    const store = await loadedStore()
    await save(store)
    expect(await kept()).toHaveLength(1)
    stubApi(({ predictions }) =>
      json(200, {
        success: {
          predictions: predictions.map((p) => prediction(p.match, p.squad)),
          // Every accepted save answers with its receipt (decision 027).
          receipt: {
            id: 'RcRcRcRc00000000',
            savedAt: '2025-12-01T10:00:00.000Z',
            digest: 'd'.repeat(64),
          },
        },
      }),
    )
    await save(store)
    expect(store.getState().picks.saveStatus).toBe('saved')
    await vi.waitFor(async () => expect(await kept()).toEqual([]))
  })
})
