import { render, screen, waitFor } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UserSession } from '@tipping/contract/auth'
import type { SsoClientName } from '@tipping/contract/sso-clients'
import { initialUser } from '../../lib/session-slice.ts'
import { createTestStore } from '../../lib/test-store.ts'
import { SsoCallback } from './sso-callback.tsx'

// A whole user: the API layer checks every answer against the contract in tests.
const user: UserSession = { ...initialUser, id: 9, email: 'sso@example.com' }
const config = {
  enabled: true,
  issuer: 'http://localhost/oidc',
  authorizationEndpoint: 'http://localhost/oidc/auth',
  endSessionEndpoint: null,
  postLogoutRedirectUri: null,
  profileUrl: null,
  scope: 'openid email firstname lastname favteam',
  clients: {
    web: { clientId: 'w', redirectUri: 'http://localhost/login/callback' },
    wbblApp: { clientId: 'a', redirectUri: 'http://localhost/login-app/callback' },
    bblApp: null,
  },
}

const calls: { url: string; body: unknown }[] = []
beforeEach(() => {
  calls.length = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined })
      const success = url.endsWith('/auth/sso-config') ? config : { user }
      return new Response(JSON.stringify({ success }), { status: 200 })
    }),
  )
  localStorage.setItem('ssoState-1', 'stored-state')
  localStorage.setItem('ssoVerifier-1', 'v'.repeat(128))
  localStorage.setItem('ssoNonce-1', 'stored-nonce-123')
})
afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

function visit(path: string, client: SsoClientName = 'web') {
  const handlers = { onStarted: vi.fn(), onSignedIn: vi.fn(), onFailed: vi.fn() }
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: <SsoCallback client={client} sport="wbbl" {...handlers} />,
      },
    ],
    { initialEntries: [path] },
  )
  render(
    <Provider store={createTestStore()}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { handlers, router }
}

describe('SsoCallback', () => {
  it('posts code, verifier, nonce and the app flags when the state matches, then forgets them', async () => {
    const { handlers } = visit('/login-app/callback?code=the-code&state=stored-state', 'wbblApp')
    await waitFor(() => expect(handlers.onSignedIn).toHaveBeenCalledWith(user))
    const login = calls.find((c) => c.url === '/api/wbbl/auth/login')
    expect(login?.body).toEqual({
      code: 'the-code',
      verifier: 'v'.repeat(128),
      nonce: 'stored-nonce-123',
      mobile_app: 1,
      big_bash_app: 0,
    })
    expect(handlers.onStarted).toHaveBeenCalledOnce()
    expect(localStorage.getItem('ssoState-1')).toBeNull()
    expect(localStorage.getItem('ssoVerifier-1')).toBeNull()
    expect(localStorage.getItem('ssoNonce-1')).toBeNull()
    expect(localStorage.getItem('appUser-1')).toBe('wbbl')
  })

  it('refuses a wrong state without calling the server, and drops the code from the address', async () => {
    const { handlers, router } = visit('/login/callback?code=the-code&state=forged')
    expect(await screen.findByTestId('sso-error')).toHaveProperty(
      'textContent',
      'This sign-in response does not match the sign-in you started (state mismatch).',
    )
    expect(calls.some((c) => c.url.includes('/auth/login'))).toBe(false)
    expect(handlers.onSignedIn).not.toHaveBeenCalled()
    expect(handlers.onFailed).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'SSO_CALLBACK', param: 'state' }),
    )
    await waitFor(() => expect(router.state.location.search).toBe(''))
    // The sign-in in progress is kept for its real callback.
    expect(localStorage.getItem('ssoVerifier-1')).toBe('v'.repeat(128))
  })

  it("shows the server's refusal", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/auth/sso-config')
          ? new Response(JSON.stringify({ success: config }))
          : new Response(
              JSON.stringify({
                errors: [{ code: 'SSO_REFUSED', message: 'Code already used', param: 'code' }],
              }),
              { status: 401 },
            ),
      ),
    )
    const { handlers } = visit('/login/callback?code=c&state=stored-state')
    expect((await screen.findByTestId('sso-error')).textContent).toBe('Code already used')
    expect(handlers.onFailed).toHaveBeenCalledWith({
      code: 'SSO_REFUSED',
      param: 'code',
      message: 'Code already used',
    })
  })
})
