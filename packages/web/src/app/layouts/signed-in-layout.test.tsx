import { render, screen, waitFor } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionActions } from '../../lib/session-slice.ts'
import { TEST_USER } from '../../lib/test-store.ts'
import { createStore } from '../store.ts'
import { SignedInLayout } from './signed-in-layout.tsx'

// Spec 2 guards, route by route: the signed-in group's pages for a visitor and for a user.

async function visit(path: string, signedIn: boolean) {
  const store = createStore()
  store.dispatch(
    signedIn ? sessionActions.sessionChecked(TEST_USER) : sessionActions.sessionCheckFailed(),
  )
  const router = createMemoryRouter(
    [
      {
        path: '/:sport',
        element: <SignedInLayout />,
        children: [{ path: '*', element: <p>page</p> }],
      },
      { path: '/', element: <p>landing</p> },
      { path: '/login', element: <p>login</p> },
    ],
    { initialEntries: [path] },
  )
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  await waitFor(() =>
    expect(screen.queryByText(/^(page|landing|login)$|not found/i)).not.toBeNull(),
  )
  return router.state.location.pathname
}

afterEach(() => localStorage.clear())

const pages = [
  '/bbl/tipping',
  '/wbbl/leagues',
  '/bbl/leagues/join',
  '/bbl/leagues/join/ABCDEFGH23',
  '/bbl/leagues/create',
  '/wbbl/rankings',
  '/bbl/league/4/ladder',
  '/bbl/account',
]

describe('the signed-in group guard', () => {
  it.each(pages)('lets a signed-in user into %s', async (path) => {
    expect(await visit(path, true)).toBe(path)
  })

  it.each([
    ['/bbl/tipping', '/', 'tippingLink'],
    ['/wbbl/leagues', '/', null],
    ['/bbl/leagues/join', '/', null],
    ['/bbl/leagues/join/ABCDEFGH23', '/login', 'joinLink'],
    ['/bbl/leagues/create', '/', 'createLink'],
    ['/wbbl/rankings', '/', null],
    ['/bbl/league/4/ladder', '/', null],
    ['/bbl/account', '/', null],
  ])('sends a visitor from %s to %s, keeping %s', async (path, to, link) => {
    expect(await visit(path, false)).toBe(to)
    if (link) expect(localStorage.getItem(`${link}-1`)).toBe(path)
    else expect(Object.keys(localStorage).filter((k) => k.endsWith('Link-1'))).toEqual([])
    // The sport of the visit is remembered either way (spec 1).
    expect(localStorage.getItem('selectedSport-1')).toBe(path.split('/')[1])
  })

  it('shows not-found for a sport that is not one', async () => {
    await visit('/cricket/tipping', true)
    expect(screen.getByText(/not found/i)).toBeTruthy()
  })
})
