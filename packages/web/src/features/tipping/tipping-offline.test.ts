import 'fake-indexeddb/auto'
import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { selectVisibleError } from '../../lib/global-error-slice.ts'
import { deviceTipQueue } from '../../lib/offline-queue.ts'
import { saveRoundPicks } from './tipping-api.ts'
import { json, loadedStore, roundAnswer, savedAnswer } from './tipping-fixtures.ts'

// Issue 32: a save that gets no answer keeps the picks on the device (IndexedDB: fake-indexeddb
// here, Chromium's in e2e/offline.spec.ts); the server's own refusal is never queued.

const USER = 7

/** The round answers; the save answers as `save` says (a thrown error: no answer at all). */
function stubApi(save: (body: { predictions: { match: number; squad: number }[] }) => Response) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (url === '/api/bbl/predictions/1') return json(200, { success: roundAnswer })
    if (url === '/api/bbl/predictions_list') return save(JSON.parse(init.body as string))
    return json(404, { errors: [{ code: 'not_found', message: 'Not found', param: null }] })
  })
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

  it('a session that ended (401) keeps the picks for the same player to send once signed in again', async () => {
    stubApi(() =>
      json(401, { errors: [{ code: 'UNAUTHORIZED', message: 'Sign in', param: null }] }),
    )
    const store = await loadedStore()
    expect(await save(store)).toBeNull()
    // As the player made them, not the last saved ones: the save they meant is not lost.
    expect(store.getState().picks).toMatchObject({ saveStatus: 'queued', saving: false })
    expect(store.getState().picks.picks[0]!.squad).toBe(2)
    expect(selectVisibleError(store.getState())).toBeNull()
    expect(await kept()).toMatchObject([{ userId: USER, match: 1, squad: 2 }])
  })

  it('a later save that goes through forgets what was kept for those matches', async () => {
    stubApi(() => {
      throw new TypeError('Failed to fetch')
    })
    const store = await loadedStore()
    await save(store)
    expect(await kept()).toHaveLength(1)
    stubApi(({ predictions }) => savedAnswer(predictions))
    await save(store)
    expect(store.getState().picks.saveStatus).toBe('saved')
    await vi.waitFor(async () => expect(await kept()).toEqual([]))
  })
})
