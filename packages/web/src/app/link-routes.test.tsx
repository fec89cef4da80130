import { act, render, waitFor } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { UserSession } from '@tipping/contract/auth'
import { sessionActions } from '../lib/session-slice.ts'
import { createTestStore, TEST_USER } from '../lib/test-store.ts'
import { AccountLinkRoute, JoinLinkRoute, ShareRoute } from './link-routes.tsx'

const land = async (path: string, store = createTestStore()) => {
  const router = createMemoryRouter(
    [
      { path: '/share/:sport/:section/:token', element: <ShareRoute /> },
      { path: '/leagues/join/:code', element: <JoinLinkRoute /> },
      { path: '/account', element: <AccountLinkRoute /> },
      { path: '*', element: null },
    ],
    { initialEntries: [path] },
  )
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  if (path === '/account' && !store.getState().session.isSessionChecked) {
    // The account link waits for the session check before it picks the sport.
    await new Promise((r) => setTimeout(r, 50))
    expect(router.state.location.pathname).toBe(path)
    act(() => {
      store.dispatch(sessionActions.sessionCheckFailed())
    })
  }
  await waitFor(() => expect(router.state.location.pathname).not.toBe(path))
  return router.state.location.pathname
}

describe('link routes', () => {
  it('opens the shared league, or the competition for a general share', async () => {
    const league = btoa(JSON.stringify({ t: '1234', league_id: 7 }))
    expect(await land(`/share/wbbl/league/${league}`)).toBe('/wbbl/league/7/ladder')
    expect(await land(`/share/bbl/general/${btoa('{"t":"1"}')}`)).toBe('/bbl')
    expect(await land('/share/cricket/general/x')).toBe('/')
  })
  it('sends a join link without a sport to the remembered sport', async () => {
    localStorage.setItem('selectedSport-1', 'wbbl')
    expect(await land('/leagues/join/ABCDEFGH23')).toBe('/wbbl/leagues/join/ABCDEFGH23')
  })
  it('sends /account (where a password manager lands) to the account page of a sport the account plays', async () => {
    const signedIn = (roles: UserSession['roles']) => {
      const store = createTestStore()
      store.dispatch(sessionActions.sessionChecked({ ...TEST_USER, roles }))
      return store
    }
    localStorage.setItem('selectedSport-1', 'wbbl')
    expect(await land('/account')).toBe('/wbbl/account')
    expect(await land('/account', signedIn(['ROLE_USER_BBL', 'ROLE_USER_WBBL']))).toBe(
      '/wbbl/account',
    )
    // Remembered WBBL, but the account plays BBL only: not WBBL's join panel.
    expect(await land('/account', signedIn(['ROLE_USER_BBL']))).toBe('/bbl/account')
    localStorage.removeItem('selectedSport-1')
    expect(await land('/account')).toBe('/bbl/account')
    expect(await land('/account', signedIn(['ROLE_USER_WBBL']))).toBe('/wbbl/account')
  })
})
