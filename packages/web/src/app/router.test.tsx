import { render, screen } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { routes } from './router.tsx'
import { createStore } from './store.ts'

// React Router warns in development about a route that draws nothing and about a first lazy page
// with no fallback to show meanwhile; the route table leaves it nothing to warn about.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

afterEach(() => vi.restoreAllMocks())

describe('the route table', () => {
  it.each(['/', '/login', '/terms'])('opens %s without a router warning', async (path) => {
    // A visitor: no session, and no published files (the site content falls back to defaults).
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url.startsWith('/api/')
            ? json(401, { errors: [{ code: 'UNAUTHORIZED', message: 'Sign in', param: null }] })
            : json(404, {}),
        ),
      ),
    )
    const warn = vi.spyOn(console, 'warn')
    const error = vi.spyOn(console, 'error')
    const router = createMemoryRouter(routes, { initialEntries: [path] })
    render(
      <Provider store={createStore()}>
        <RouterProvider router={router} />
      </Provider>,
    )
    expect(await screen.findByRole('contentinfo', {}, { timeout: 5000 })).toBeTruthy()
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([])
    expect(error.mock.calls.map((c) => String(c[0]))).toEqual([])
    vi.unstubAllGlobals()
  })
})
