import { act, render, screen } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { UserSession } from '@tipping/contract/auth'
import { initialUser, sessionActions } from '../lib/session-slice.ts'
import { HomeGuard } from './home-guard.tsx'
import { createStore } from './store.ts'

// Spec 2's guard on `/` against its guards after sign-in: a signed-in visit to `/` goes on to
// `/{sport}`, but a sign-in made on `/` (the landing page's own buttons) goes where the sign-in
// flow sends it. Before the fix the guard redirected on that sign-in too and cancelled the flow's
// navigation to the leagues (seen at 390 px: a new player left on `/bbl`).

const player: UserSession = {
  ...initialUser,
  id: 7,
  email: 'new@example.com',
  roles: ['ROLE_USER_BBL'],
  registeredAt: { date: new Date().toISOString() },
}

function mount() {
  const store = createStore()
  const router = createMemoryRouter(
    [
      {
        element: <HomeGuard />,
        children: [
          { path: '/', element: <h1>Landing</h1> },
          { path: '/bbl', element: <h1>BBL landing</h1> },
        ],
      },
      { path: '/bbl/leagues', element: <h1>Your leagues</h1> },
    ],
    { initialEntries: ['/'] },
  )
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { store, router }
}

describe('the home guard', () => {
  it('sends a signed-in visit to / on to its sport once the session check finds the player', async () => {
    const { store, router } = mount()
    expect(screen.getByRole('heading').textContent).toBe('Landing')
    act(() => {
      store.dispatch(sessionActions.sessionChecked(player))
    })
    expect((await screen.findByRole('heading', { name: 'BBL landing' })).textContent).toBeTruthy()
    expect(router.state.location.pathname).toBe('/bbl')
  })

  it('leaves a sign-in made on / to the sign-in flow, and guards the next visit to / again', async () => {
    const { store, router } = mount()
    act(() => {
      store.dispatch(sessionActions.sessionCheckFailed())
    })
    // The forms dispatch the sign-in and then navigate where the guards after sign-in say.
    await act(async () => {
      store.dispatch(sessionActions.loginSucceeded(player))
      await router.navigate('/bbl/leagues')
    })
    expect(screen.getByRole('heading').textContent).toBe('Your leagues')
    expect(router.state.location.pathname).toBe('/bbl/leagues')
    // Back to the entry where the player signed in is a visit too: on to the sport.
    await act(() => router.navigate(-1))
    expect((await screen.findByRole('heading', { name: 'BBL landing' })).textContent).toBeTruthy()
    // So is a later visit to / while signed in.
    await act(() => router.navigate('/bbl/leagues'))
    await act(() => router.navigate('/'))
    expect((await screen.findByRole('heading', { name: 'BBL landing' })).textContent).toBeTruthy()
    expect(router.state.location.pathname).toBe('/bbl')
  })

  it('stays on / for a sign-in on / that goes nowhere else yet', async () => {
    const { store, router } = mount()
    act(() => {
      store.dispatch(sessionActions.sessionCheckFailed())
    })
    act(() => {
      store.dispatch(sessionActions.loginSucceeded(player))
    })
    await new Promise((r) => setTimeout(r, 20))
    expect(router.state.location.pathname).toBe('/')
  })
})
