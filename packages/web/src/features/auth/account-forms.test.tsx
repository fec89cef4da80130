import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { configureStore } from '@reduxjs/toolkit'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { UserSession } from '@tipping/contract/auth'
import { PASSWORD_RESET_REQUESTED } from '@tipping/contract/auth-messages'
import { onUnauthorized } from '../../lib/api-client.ts'
import { createTestStore } from '../../lib/test-store.ts'
import { AUTOPILOT_SAVED } from './autopilot-card.tsx'
import AccountPage, { PROFILE_UPDATED } from './account-page.tsx'
import { AuthModals } from './auth-modals.tsx'
import { authApi, fetchSessionUser } from './auth-api.ts'
import { JoinGamePanel } from './join-game-panel.tsx'
import ResetPasswordPage, { PASSWORD_CHANGED_NOTICE } from './reset-password-page.tsx'
import {
  initialUser,
  SESSION_EXPIRED,
  sessionActions,
  sessionReducer,
} from '../../lib/session-slice.ts'

// The account forms in the browser: validation before sending, what is sent, what is shown.

const user: UserSession = {
  ...initialUser,
  id: 7,
  email: 'ada@example.com',
  first_name: 'Ada',
  team_name: 'Ada XI',
  roles: ['ROLE_USER_BBL'],
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** fetch answering by path; records each call's path and body. */
function serve(routes: Record<string, (body: unknown) => Response>) {
  const calls: { path: string; body: unknown }[] = []
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const path = input
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    calls.push({ path, body })
    const handler = Object.entries(routes).find(([p]) => path.startsWith(p))?.[1]
    return Promise.resolve(handler ? handler(body) : json(404, { errors: [] }))
  })
  vi.stubGlobal('fetch', fetchMock)
  return calls
}

function mount(element: ReactNode, path = '/', signedIn = false) {
  const store = createTestStore()
  if (signedIn) store.dispatch(sessionActions.sessionChecked(user))
  const router = createMemoryRouter(
    [
      { path: '/reset-password', element },
      { path: '/:sport/account', element },
      { path: '/:sport/join', element },
      { path: '/login', element: <p>login page</p> },
      { path: '/logout', element: <p>logout page</p> },
      { path: '/:sport/leagues', element: <p>leagues page</p> },
      { path: '/', element },
    ],
    { initialEntries: [path] },
  )
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { store, router }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const type = (label: RegExp | string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('forgot password modal', () => {
  it('checks the email before sending, then shows the neutral confirmation', async () => {
    const calls = serve({
      '/api/auth/password_reset/request': () =>
        json(200, { success: { message: PASSWORD_RESET_REQUESTED } }),
    })
    const { store } = mount(<AuthModals />)
    act(() => {
      store.dispatch(sessionActions.authModalOpened('forgot-password'))
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Enter your email address')).toBeTruthy()
    type('Email', 'nope')
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy()
    expect(calls).toHaveLength(0)

    type('Email', 'fan@example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText(PASSWORD_RESET_REQUESTED)).toBeTruthy()
    expect(calls).toEqual([
      { path: '/api/auth/password_reset/request', body: { email: 'fan@example.com' } },
    ])
    expect(store.getState().session.resetPassword).toEqual({ success: true, error: null })
  })

  it('is opened from the login modal', async () => {
    const { store } = mount(<AuthModals />)
    act(() => {
      store.dispatch(sessionActions.authModalOpened('login'))
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }))
    expect(store.getState().session.authModal).toBe('forgot-password')
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeTruthy()
  })
})

describe('reset password page', () => {
  it('checks the new password and its confirmation before sending', async () => {
    const calls = serve({})
    mount(<ResetPasswordPage />, '/reset-password?token=abc')
    type(/New password/, 'short')
    type('Confirm new password', 'short')
    fireEvent.click(await screen.findByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy()
    type(/New password/, 'long enough')
    type('Confirm new password', 'long enougH')
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText('The passwords do not match')).toBeTruthy()
    expect(calls).toHaveLength(0)
  })

  it('sends the token, then opens login with a note', async () => {
    const calls = serve({ '/api/auth/password_reset': () => json(200, { success: { ok: true } }) })
    const { store, router } = mount(<ResetPasswordPage />, '/reset-password?token=abc')
    type(/New password/, 'long enough')
    type('Confirm new password', 'long enough')
    fireEvent.click(await screen.findByRole('button', { name: 'Set new password' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(calls[0]).toEqual({
      path: '/api/auth/password_reset',
      body: { token: 'abc', password: 'long enough', confirmation: 'long enough' },
    })
    expect(store.getState().session).toMatchObject({
      authModal: 'login',
      authNotice: PASSWORD_CHANGED_NOTICE,
    })
  })

  it("shows the server's refusal of a used link above the form", async () => {
    serve({
      '/api/auth/password_reset': () =>
        json(400, {
          errors: [{ code: 'VALIDATION', message: 'This reset link has expired.', param: 'token' }],
        }),
    })
    mount(<ResetPasswordPage />, '/reset-password?token=old')
    type(/New password/, 'long enough')
    type('Confirm new password', 'long enough')
    fireEvent.click(await screen.findByRole('button', { name: 'Set new password' }))
    expect((await screen.findByTestId('reset-error')).textContent).toBe(
      'This reset link has expired.',
    )
  })

  it('says so when the link has no token', async () => {
    mount(<ResetPasswordPage />, '/reset-password')
    expect(await screen.findByText(/missing its reset token/)).toBeTruthy()
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Set new password' }).disabled,
    ).toBe(true)
  })
})

describe('account page', () => {
  it('saves the profile, shows the message, clears it after 2 s and refreshes', async () => {
    const saved = {
      ...user,
      team_name: 'Sixes',
      isWeeklyReminderEnabled: true,
      reminderLead: 'match' as const,
    }
    const calls = serve({
      '/static/': () => json(200, { squads: [], files: {} }),
      '/api/bbl/user': () => json(200, { success: { user: saved, successMsg: PROFILE_UPDATED } }),
      '/api/session': () => json(200, { success: { user: saved } }),
    })
    mount(<AccountPage />, '/bbl/account', true)
    expect(screen.getByLabelText<HTMLInputElement>('First name').value).toBe('Ada')
    type('Last name', 'Lovelace')
    type('Tipping team name', 'Sixes')
    fireEvent.change(screen.getByLabelText('Email me a reminder to tip'), {
      target: { value: 'match' },
    })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect((await screen.findByTestId('profile-saved')).textContent).toBe(PROFILE_UPDATED)
    expect(calls.find((c) => c.body)?.body).toEqual({
      last_name: 'Lovelace',
      team_name: 'Sixes',
      team_supported: 0,
      disabledNotifications: false,
      reminderLead: 'match',
      successMsg: PROFILE_UPDATED,
    })
    const before = calls.length
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000)
    })
    expect(screen.queryByTestId('profile-saved')).toBeNull()
    expect(calls.slice(before).some((c) => c.path === '/api/session')).toBe(true)
  })

  it('shows the autopilot setting and saves a new one for the sport', async () => {
    const calls = serve({
      '/static/': () => json(200, { squads: [], files: {} }),
      '/api/bbl/autopilot': (body) =>
        json(200, {
          success: { autopilot: body ?? { strategy: 'off', leadMinutes: 60 } },
        }),
    })
    mount(<AccountPage />, '/bbl/account', true)
    const strategy = await screen.findByLabelText<HTMLSelectElement>('Tip for me with')
    expect(strategy.value).toBe('off')
    fireEvent.change(strategy, { target: { value: 'team' } })
    fireEvent.change(screen.getByLabelText('When a match I have not tipped starts in'), {
      target: { value: '180' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save autopilot' }))
    expect(await screen.findByText(AUTOPILOT_SAVED)).toBeTruthy()
    expect(calls.find((c) => c.path === '/api/bbl/autopilot' && c.body)?.body).toEqual({
      strategy: 'team',
      leadMinutes: 180,
    })
  })

  it('refuses a team name over 40 characters without sending', async () => {
    const calls = serve({ '/static/': () => json(200, { squads: [], files: {} }) })
    mount(<AccountPage />, '/bbl/account', true)
    type('Tipping team name', 'x'.repeat(41))
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Team name must be at most 40 characters')).toBeTruthy()
    expect(
      calls.filter((c) => c.path.startsWith('/api/') && c.path !== '/api/bbl/autopilot'),
    ).toHaveLength(0)
  })

  it('checks a password change, and shows a wrong current password on its field', async () => {
    serve({
      '/static/': () => json(200, { squads: [], files: {} }),
      '/api/user/password': () =>
        json(400, {
          errors: [
            {
              code: 'VALIDATION',
              message: 'Your current password is not correct',
              param: 'currentPassword',
            },
          ],
        }),
    })
    mount(<AccountPage />, '/bbl/account', true)
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Enter your current password')).toBeTruthy()
    type('Current password', 'old password')
    type(/New password/, 'new password')
    type('Confirm new password', 'new password')
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Your current password is not correct')).toBeTruthy()
  })

  it('deactivates only after confirming, then logs out', async () => {
    const calls = serve({
      '/static/': () => json(200, { squads: [], files: {} }),
      '/api/user/deactivate': () => json(200, { success: { ok: true } }),
    })
    const { store, router } = mount(<AccountPage />, '/bbl/account', true)
    fireEvent.click(screen.getByTestId('deactivate-open'))
    fireEvent.click(await screen.findByTestId('confirm-no'))
    expect(calls.some((c) => c.path === '/api/user/deactivate')).toBe(false)
    fireEvent.click(screen.getByTestId('deactivate-open'))
    fireEvent.click(await screen.findByTestId('confirm-yes'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/logout'))
    expect(store.getState().session).toMatchObject({ isAuthorized: false, user: initialUser })
  })

  it('links to /logout', () => {
    serve({ '/static/': () => json(200, { squads: [], files: {} }) })
    mount(<AccountPage />, '/bbl/account', true)
    expect(screen.getByTestId('account-logout').getAttribute('href')).toBe('/logout')
  })
})

describe('not registered for the game (513)', () => {
  it('offers to join it, and joining stores the new roles and tags the registration', async () => {
    const calls = serve({
      '/api/wbbl/auth/register_for_game': () =>
        json(200, { success: { user: { ...user, roles: ['ROLE_USER_BBL', 'ROLE_USER_WBBL'] } } }),
      '/static/app-config.json': () =>
        json(200, { taggingScriptUrl: 'https://tags.example/t.js', errorReportUrl: null }),
    })
    const { store } = mount(<JoinGamePanel sport="wbbl" />, '/wbbl/join', true)
    fireEvent.click(screen.getByTestId('join-game'))
    await waitFor(() =>
      expect(store.getState().session.user.roles).toEqual(['ROLE_USER_BBL', 'ROLE_USER_WBBL']),
    )
    expect(calls[0]?.path).toBe('/api/wbbl/auth/register_for_game')
    await waitFor(() =>
      expect(document.head.querySelector('script[data-tag="wbbl-registration"]')).not.toBeNull(),
    )
  })

  it('a failed recovery raises the global error with its code', async () => {
    serve({
      '/api/wbbl/wbbl/user/recover': () =>
        json(404, { errors: [{ code: 'NOT_FOUND', message: 'Nothing to recover', param: null }] }),
    })
    const { store } = mount(<JoinGamePanel sport="wbbl" />, '/wbbl/join', true)
    fireEvent.click(screen.getByRole('button', { name: 'Recover my account' }))
    await waitFor(() =>
      expect(store.getState().globalError.message).toBe('Nothing to recover (NOT_FOUND)'),
    )
  })

  it('the session check is one call, whatever sport the user plays', async () => {
    const calls = serve({ '/api/session': () => json(200, { success: { user } }) })
    await expect(fetchSessionUser()).resolves.toEqual({ user })
    expect(calls.map((c) => c.path)).toEqual(['/api/session'])
  })

  it("the API layer's session check takes a visitor's answer as no session, not an expired one", async () => {
    const calls = serve({ '/api/session': () => json(200, { success: { user } }) })
    const store = createTestStore()
    const check = () =>
      store
        .dispatch(
          authApi.endpoints.sessionUser.initiate(undefined, {
            subscribe: false,
            forceRefetch: true,
          }),
        )
        .unwrap()
    await expect(check()).resolves.toEqual({ user })
    expect(calls.map((c) => c.path)).toEqual(['/api/session'])
    serve({ '/api/session': () => json(200, { success: { user: null } }) })
    const stop = onUnauthorized(() => store.dispatch(sessionActions.sessionExpired()))
    await expect(check()).resolves.toEqual({ user: null })
    stop()
    // Signed out is an answer: no session-expired login prompt.
    expect(store.getState().session.authModal).toBeNull()
  })
})

describe('401 anywhere', () => {
  it('clears the stored user and opens login with the session-expired note', () => {
    const store = configureStore({ reducer: { session: sessionReducer } })
    store.dispatch(sessionActions.sessionChecked(user))
    store.dispatch(sessionActions.sessionExpired())
    expect(store.getState().session).toMatchObject({
      user: initialUser,
      isAuthorized: false,
      authModal: 'login',
      authNotice: SESSION_EXPIRED,
    })
  })
})
