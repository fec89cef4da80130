import { fireEvent, render, screen, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestStore } from '../../lib/test-store.ts'
import { RenewalOffers } from './renewal-offers.tsx'

// The renewal offers through the real store and data layer: only fetch is replaced, answering
// as the server does (an answered offer is gone from the next list).

const offer = (id: number, name: string) => ({
  id,
  name,
  privacy: 'private',
  startRound: 1,
  numUser: 1,
  commissioner: 'Desk Boss',
  from: { id: id - 100, year: '2024-25' },
})
const league = (id: number, name: string) => ({
  id,
  userId: 1,
  name,
  description: '',
  status: 'scheduled',
  class: 'league',
  startRound: 1,
  privacy: 'private',
  code: 'ABCDEFGHJK',
  numUser: 2,
  isMember: true,
  isCommissioner: false,
})

let open: number[] = []
let posted: string[] = []
beforeEach(() => {
  open = [201, 202]
  posted = []
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const ok = (success: unknown) => new Response(JSON.stringify({ success }), { status: 200 })
    if (url === '/api/bbl/league-renewals')
      return ok({
        offers: open.map((id) => offer(id, id === 201 ? 'The Desk' : 'Pub Tippers')),
      })
    const answer = /^\/api\/bbl\/league-renewals\/(\d+)\/(accept|decline)$/.exec(url)
    if (answer && init?.method === 'POST') {
      posted.push(`${answer[2]} ${answer[1]}`)
      open = open.filter((id) => id !== Number(answer[1]))
      return ok(answer[2] === 'accept' ? { league: league(201, 'The Desk') } : { ok: true })
    }
    return new Response(JSON.stringify({ errors: [{ code: 'x', message: 'No', param: null }] }), {
      status: 404,
    })
  })
})
afterEach(() => vi.unstubAllGlobals())

describe('renewal offers', () => {
  it('asks: join with one click, or no thanks, and each answered offer goes', async () => {
    render(
      <Provider store={createTestStore()}>
        <RenewalOffers sport="bbl" />
      </Provider>,
    )
    const region = await screen.findByRole('region', { name: 'Leagues back for this season' })
    expect(within(region).getAllByText(/renewed by Desk Boss from 2024-25/)).toHaveLength(2)
    fireEvent.click(within(region).getByRole('button', { name: 'Join The Desk' }))
    await within(region).findByRole('button', { name: 'Join Pub Tippers' })
    await vi.waitFor(() =>
      expect(within(region).queryByRole('button', { name: 'Join The Desk' })).toBeNull(),
    )
    fireEvent.click(within(region).getByRole('button', { name: 'No thanks' }))
    await vi.waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Leagues back for this season' })).toBeNull(),
    )
    expect(posted).toEqual(['accept 201', 'decline 202'])
  })
})
