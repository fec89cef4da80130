import { configureStore } from '@reduxjs/toolkit'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Prediction, PredictionsResponse } from '@tipping/contract/predictions'
import type { Snapshot } from '@tipping/contract/scores'
import { api } from '../../lib/api.ts'
import { globalErrorReducer, selectVisibleError } from '../../lib/global-error-slice.ts'
import { picksActions, picksReducer } from './picks-slice.ts'
import { saveRoundPicks, selectRefusal, tippingApi } from './tipping-api.ts'

// The save through the store as the app mounts it (the api, picks and error reducers), with only
// the network replaced: the API's answers come from a stubbed fetch.

const newStore = () =>
  configureStore({
    reducer: {
      picks: picksReducer,
      globalError: globalErrorReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })

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
const snapshot: Snapshot = {
  round_points: 0,
  overall_points: 0,
  overall_rank: 0,
  round: asRoundNumber(1),
  max_round_points: 0,
  max_total_points: 0,
  total_users: 1,
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The API as the stub answers it; `save` answers the picks list. */
function stubApi(save: (body: { predictions: { match: number; squad: number }[] }) => Response) {
  const calls: string[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push(url)
    if (url === '/api/bbl/predictions/1') return json(200, { success: roundAnswer })
    if (url === '/api/bbl/predictions/snapshot') return json(200, { success: snapshot })
    if (url === '/api/bbl/predictions_list') return save(JSON.parse(init.body as string))
    return json(404, { errors: [{ code: 'not_found', message: 'Not found', param: null }] })
  })
  return calls
}

const ROUND = { sport: 'bbl' as const, round: asRoundNumber(1) }
const cachedSquad = (store: ReturnType<typeof newStore>, match: number) =>
  tippingApi.endpoints.round
    .select(ROUND)(store.getState())
    .data?.predictions.find((p) => p.match === match)?.squad

/** A store with round 1 loaded and match 1 picked (the API stubbed first). */
async function loadedStore() {
  const store = newStore()
  store.dispatch(picksActions.shown('bbl/1'))
  await store.dispatch(tippingApi.endpoints.round.initiate(ROUND))
  store.dispatch(picksActions.picked({ match: asMatchId(1), squad: asSquadId(2) }))
  return store
}

afterEach(() => vi.unstubAllGlobals())

describe('saving picks (spec 4)', () => {
  it('shows the picks at once, and on a refused save brings the earlier picks back and says why', async () => {
    let cachedDuringSave: number | undefined
    stubApi(() => {
      cachedDuringSave = cachedSquad(store, 1)
      return json(409, {
        errors: [{ code: 'match_started', message: 'This match has started', param: null }],
      })
    })
    const store = await loadedStore()
    const saved = await store.dispatch(
      saveRoundPicks('bbl', asRoundNumber(1), [
        { match: asMatchId(1), squad: asSquadId(2), margin: null },
      ]),
    )
    expect(saved).toBeNull()
    expect(cachedDuringSave).toBe(2)
    expect(cachedSquad(store, 1)).toBe(0)
    expect(store.getState().picks).toMatchObject({ saveStatus: 'failed', saving: false })
    expect(store.getState().picks.picks[0]!.squad).toBe(0)
    // Spec 8: a 409 stays out of the Error modal; the screen says it in place (e2e/lockout.spec.ts).
    expect(selectVisibleError(store.getState())).toBeNull()
    expect(selectRefusal(store.getState())).toBe('This match has started')
  })

  it('shows a refused save in the Error modal and restores the picks', async () => {
    stubApi(() =>
      json(422, {
        errors: [{ code: 'invalid', message: 'Not a squad of this match', param: null }],
      }),
    )
    const store = await loadedStore()
    await store.dispatch(
      saveRoundPicks('bbl', asRoundNumber(1), [
        { match: asMatchId(1), squad: asSquadId(2), margin: null },
      ]),
    )
    expect(selectVisibleError(store.getState())).toBe('Not a squad of this match')
    expect(selectRefusal(store.getState())).toBeNull()
    expect(store.getState().picks.picks[0]!.squad).toBe(0)
  })

  it('keeps the confirmed picks and reads the score summary again', async () => {
    const calls = stubApi(({ predictions }) =>
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
    const store = await loadedStore()
    const summary = store.dispatch(tippingApi.endpoints.snapshot.initiate(ROUND))
    await summary
    const before = calls.filter((c) => c.endsWith('/snapshot')).length
    const saved = await store.dispatch(
      saveRoundPicks('bbl', asRoundNumber(1), [
        { match: asMatchId(1), squad: asSquadId(2), margin: null },
      ]),
    )
    expect(saved?.[0]?.squad).toBe(2)
    expect(cachedSquad(store, 1)).toBe(2)
    expect(store.getState().picks).toMatchObject({ saveStatus: 'saved', saving: false })
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.endsWith('/snapshot')).length).toBe(before + 1),
    )
    summary.unsubscribe()
  })
})
