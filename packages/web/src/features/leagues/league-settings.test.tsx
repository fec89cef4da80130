import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { asRoundNumber } from '@tipping/contract/ids'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { League } from '@tipping/contract/leagues'
import { createTestStore } from '../../lib/test-store.ts'
import { LeagueSettings } from './league-settings.tsx'
import { leaguesApi, useLeagueQuery } from './leagues-api.ts'

// Issue 27: the commissioner of a started league can hand it to a member, then leave it.

const league: League = {
  id: 42,
  userId: 1,
  name: 'Office Legends',
  description: '',
  status: 'active',
  class: 'standard',
  startRound: asRoundNumber(1),
  privacy: 'private',
  code: 'ABCDEFGHJK',
  numUser: 3,
  isMember: true,
  isCommissioner: true,
}

const member = (userId: number, firstName: string, isCommissioner = false) => ({
  userId,
  teamName: null,
  firstName,
  lastNameInitial: 'T',
  isCommissioner,
})

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function serve(users: ReturnType<typeof member>[]) {
  const calls: { path: string; method: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      calls.push({ path, method: init?.method ?? 'GET', body })
      if (path.includes('/user/show-joined'))
        return Promise.resolve(json(200, { success: { users, nextPage: null } }))
      if (path.endsWith('/commissioner'))
        return Promise.resolve(
          json(200, {
            success: {
              league: {
                ...league,
                userId: (body as { userId: number }).userId,
                isCommissioner: false,
              },
            },
          }),
        )
      return Promise.resolve(
        json(404, { errors: [{ code: 'NOT_FOUND', message: 'No', param: null }] }),
      )
    }),
  )
  return calls
}

/** The league as the league page shows it: from the query cache, which the hand-over updates. */
function Harness() {
  const league = useLeagueQuery({ sport: 'bbl', id: 42 }).data?.league
  return league ? <LeagueSettings sport="bbl" league={league} /> : null
}

function mount(start: League) {
  const store = createTestStore()
  void store.dispatch(
    leaguesApi.util.upsertQueryData('league', { sport: 'bbl', id: 42 }, { league: start }),
  )
  const router = createMemoryRouter([{ path: '*', element: <Harness /> }], {
    initialEntries: ['/bbl/league/42/settings'],
  })
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
}

afterEach(() => vi.unstubAllGlobals())

describe('handing a league over', () => {
  it('hands a started league to the chosen member, after which the former commissioner may leave', async () => {
    const calls = serve([member(1, 'Boss', true), member(2, 'Meg'), member(3, 'Ash')])
    mount(league)
    expect(screen.queryByRole('button', { name: 'Remove League' })).toBeNull()
    const select = await screen.findByLabelText('New commissioner')
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3))
    // The commissioner is not offered to themself.
    expect(within(select).queryByRole('option', { name: /Boss/ })).toBeNull()
    fireEvent.change(select, { target: { value: '2' } })
    fireEvent.click(screen.getByTestId('hand-over'))
    const dialog = await screen.findByRole('dialog', { name: 'Hand over league?' })
    expect(dialog.textContent).toContain('Meg T.')
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('confirm-yes'))
    })
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { path: '/api/bbl/league/42/commissioner', method: 'POST', body: { userId: 2 } },
    ])
    await screen.findByRole('button', { name: 'Leave League' })
    expect(screen.getByRole('status').textContent).toMatch(/new commissioner/)
    expect(screen.queryByLabelText('New commissioner')).toBeNull()
  })

  it('asks for a member before confirming anything', async () => {
    const calls = serve([member(1, 'Boss', true), member(2, 'Meg')])
    mount(league)
    await screen.findByLabelText('New commissioner')
    fireEvent.click(screen.getByTestId('hand-over'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Choose the member to hand the league to',
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  })

  it('says a league of one must invite someone first', async () => {
    serve([member(1, 'Boss', true)])
    mount({ ...league, numUser: 1 })
    await screen.findByText(/invite someone first/)
    expect(screen.queryByLabelText('New commissioner')).toBeNull()
  })
})
