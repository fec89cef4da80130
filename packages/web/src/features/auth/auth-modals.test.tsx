import { act, fireEvent, render, screen } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PASSWORD_MAX, PASSWORD_MIN } from '@tipping/contract/constants'
import { TEAM_NAME_MAX } from '@tipping/contract/auth'
import { createTestStore } from '../../lib/test-store.ts'
import { AuthModals } from './auth-modals.tsx'
import { initialUser, sessionActions } from '../../lib/session-slice.ts'

// The sign-in and sign-up forms check every field with the contract's rules before sending, and
// show every problem at once (the server would name only its first).

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function serve() {
  const calls: { path: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init?: RequestInit) => {
      calls.push({
        path,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
      })
      return Promise.resolve(
        json(200, { success: { user: { ...initialUser, id: 9, roles: ['ROLE_USER_BBL'] } } }),
      )
    }),
  )
  return calls
}

function open(modal: 'login' | 'registration') {
  const store = createTestStore()
  const router = createMemoryRouter([{ path: '*', element: <AuthModals /> }])
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  act(() => {
    store.dispatch(sessionActions.authModalOpened(modal))
  })
}

const type = (label: RegExp | string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })
const alerts = () => screen.getAllByRole('alert').map((a) => a.textContent)
const input = (label: RegExp | string) => screen.getByLabelText<HTMLInputElement>(label)

afterEach(() => vi.unstubAllGlobals())

describe('registration form', () => {
  it('shows every empty field at once on an empty submit, sends nothing, and focuses the first', async () => {
    const calls = serve()
    open('registration')
    fireEvent.click(await screen.findByRole('button', { name: 'Sign up and start tipping' }))
    expect(alerts()).toEqual([
      'Enter your first name',
      'Enter your last name',
      'Enter your email address',
      `Choose a password of at least ${PASSWORD_MIN} characters`,
    ])
    expect(input('First name').getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(input('First name'))
    expect(calls).toEqual([])
  })

  it("says each field's own problem, and editing a field takes its message away", async () => {
    const calls = serve()
    open('registration')
    type('First name', 'Ada')
    type('Last name', 'Tipper')
    type('Email', 'ada@example')
    type(/^Password/, 'short')
    fireEvent.click(await screen.findByRole('button', { name: 'Sign up and start tipping' }))
    expect(alerts()).toEqual([
      'Enter a valid email address',
      `Password must be at least ${PASSWORD_MIN} characters`,
    ])
    expect(document.activeElement).toBe(input('Email'))
    type('Email', 'ada@example.com')
    expect(alerts()).toEqual([`Password must be at least ${PASSWORD_MIN} characters`])
    expect(calls).toEqual([])
  })

  it("limits each field to the contract's length", async () => {
    open('registration')
    await screen.findByRole('button', { name: 'Sign up and start tipping' })
    expect(input('First name').maxLength).toBe(60)
    expect(input('Last name').maxLength).toBe(60)
    expect(input('Email').maxLength).toBe(254)
    expect(input(/^Password/).maxLength).toBe(PASSWORD_MAX)
    expect(input(/team name/).maxLength).toBe(TEAM_NAME_MAX)
  })

  it('sends a valid form once, with the team name as the API spells it', async () => {
    const calls = serve()
    open('registration')
    type('First name', 'Ada')
    type('Last name', 'Tipper')
    type('Email', 'ada@example.com')
    type(/^Password/, 'a long secret')
    type(/team name/, 'Ada XI')
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Sign up and start tipping' }))
    })
    // (After signing in, the app goes on to read its static files: not the form's business.)
    expect(calls.filter((c) => c.path.startsWith('/api/'))).toEqual([
      {
        path: '/api/auth/register',
        body: {
          firstName: 'Ada',
          lastName: 'Tipper',
          email: 'ada@example.com',
          password: 'a long secret',
          team_name: 'Ada XI',
        },
      },
    ])
  })
})

describe('login form', () => {
  it('asks for both fields at once before sending', async () => {
    const calls = serve()
    open('login')
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
    expect(alerts()).toEqual(['Enter your email address', 'Enter your password'])
    expect(calls).toEqual([])
  })
})
