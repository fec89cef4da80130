import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Snapshot } from '@tipping/contract/scores'
import { selectVisibleError } from '../../lib/global-error-slice.ts'
import { saveRoundPicks, selectRefusal, tippingApi } from './tipping-api.ts'
import { json, loadedStore, type newStore, roundAnswer, savedAnswer } from './tipping-fixtures.ts'

// The save through the store as the app mounts it (the api, picks and error reducers), with only
// the network replaced: the API's answers come from a stubbed fetch.

const snapshot: Snapshot = {
  round_points: 0,
  overall_points: 0,
  overall_rank: 0,
  round: asRoundNumber(1),
  max_round_points: 0,
  max_total_points: 0,
  total_users: 1,
}

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
    const calls = stubApi(({ predictions }) => savedAnswer(predictions))
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
