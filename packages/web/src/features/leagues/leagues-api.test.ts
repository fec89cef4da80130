import { afterEach, describe, expect, it, vi } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import type { League } from '@tipping/contract/leagues'
import { createTestStore } from '../../lib/test-store.ts'
import { leaguesApi } from './leagues-api.ts'

// The leagues' reads and writes through the real data layer, with only fetch replaced.

const league = (id: number): League => ({
  id,
  userId: 1,
  name: `League ${id}`,
  description: '',
  status: 'scheduled',
  class: 'standard',
  startRound: asRoundNumber(1),
  privacy: 'private',
  code: `CODE${id}`,
  numUser: 1,
  isMember: true,
  isCommissioner: false,
})

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A server with two pages of leagues; joining adds league 9 to the first. */
function serve() {
  const calls: string[] = []
  let joined = false
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${url}`)
    if (url === '/api/bbl/leagues?page=1')
      return json({ success: { leagues: joined ? [league(9), league(1)] : [league(1)], next: 2 } })
    if (url === '/api/bbl/leagues?page=2')
      return json({ success: { leagues: [league(2)], next: null } })
    if (url === '/api/bbl/league/CODE9/join') {
      joined = true
      return json({ success: { league: league(9) } })
    }
    return json({ errors: [{ code: 'NOT_FOUND', message: 'No', param: null }] }, 404)
  })
  return calls
}

const names = (store: ReturnType<typeof createTestStore>) =>
  leaguesApi.endpoints.ownLeagues
    .select('bbl')(store.getState())
    .data?.pages.flatMap((p) => p.leagues.map((l) => l.id))

afterEach(() => vi.unstubAllGlobals())

describe('the user’s leagues', () => {
  it('loads more pages into one list, and reads every page again after a join', async () => {
    const calls = serve()
    const store = createTestStore()
    const list = store.dispatch(leaguesApi.endpoints.ownLeagues.initiate('bbl'))
    await list
    expect(names(store)).toEqual([1])
    await store.dispatch(leaguesApi.endpoints.ownLeagues.initiate('bbl', { direction: 'forward' }))
    expect(names(store)).toEqual([1, 2])

    await store.dispatch(leaguesApi.endpoints.joinLeague.initiate({ sport: 'bbl', code: 'CODE9' }))
    await vi.waitFor(() => expect(names(store)).toEqual([9, 1, 2]))
    expect(calls.filter((c) => c.startsWith('GET /api/bbl/leagues'))).toEqual([
      'GET /api/bbl/leagues?page=1',
      'GET /api/bbl/leagues?page=2',
      'GET /api/bbl/leagues?page=1',
      'GET /api/bbl/leagues?page=2',
    ])
    list.unsubscribe()
  })
})
