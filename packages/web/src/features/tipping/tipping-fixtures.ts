import { configureStore } from '@reduxjs/toolkit'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { Prediction, PredictionsResponse } from '@tipping/contract/predictions'
import { api } from '../../lib/api.ts'
import { globalErrorReducer } from '../../lib/global-error-slice.ts'
import { scheduledMatch } from '../../lib/live-test-fixtures.ts'
import { picksActions, picksReducer } from './picks-slice.ts'
import { tippingApi } from './tipping-api.ts'

// Fixtures of the tipping tests (the save through the store, its offline queue, the picks slice):
// a round of the API as the tests' stubbed fetch answers it. Only for tests.

/** A scheduled match between squads 1 and 2 (the live stakes' tests use it too). */
export { scheduledMatch }

/** The user's prediction on a scheduled match: none (squad 0) or the squad picked. */
export const prediction = (match: number, squad = 0): Prediction => ({
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

/** Round 1 of bbl: two scheduled matches, nothing picked. */
export const roundAnswer: PredictionsResponse = {
  round: {
    id: asRoundId(1),
    number: asRoundNumber(1),
    label: 'Week 1',
    status: 'scheduled',
    startDate: '2026-12-01T08:00:00Z',
    endDate: '2026-12-02T08:00:00Z',
    isGoldenWeek: false,
  },
  matches: [1, 2].map((id) => scheduledMatch(id)),
  predictions: [prediction(1), prediction(2)],
}

/** The server's answer to an accepted save: the saved picks and the save's receipt (decision 027). */
export const savedAnswer = (predictions: { match: number; squad: number }[]) =>
  json(200, {
    success: {
      predictions: predictions.map((p) => prediction(p.match, p.squad)),
      receipt: {
        id: 'RcRcRcRc00000000',
        savedAt: '2025-12-01T10:00:00.000Z',
        digest: 'd'.repeat(64),
      },
    },
  })

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The store as the app mounts it for the tipping page (the api, picks and error reducers). */
export const newStore = () =>
  configureStore({
    reducer: {
      picks: picksReducer,
      globalError: globalErrorReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })

/** A store with round 1 loaded and match 1 picked (the API stubbed first). */
export async function loadedStore() {
  const store = newStore()
  store.dispatch(picksActions.shown('bbl/1'))
  await store.dispatch(
    tippingApi.endpoints.round.initiate({ sport: 'bbl', round: asRoundNumber(1) }),
  )
  store.dispatch(picksActions.picked({ match: asMatchId(1), squad: asSquadId(2) }))
  return store
}
