import { render, screen } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { APP_PAGE_PATTERNS } from '@tipping/contract/pages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRouter, routes } from './router.tsx'
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

describe("the app's router", () => {
  // Decision 042: the router hands its first state change (the first page's code arrived) to its
  // first subscriber only. A subscriber taken when the router was made got it whenever the code
  // came before RouterProvider subscribed, and the app stayed on its loading spinner.
  it('keeps its first state change for RouterProvider, however soon the first page arrives', async () => {
    window.history.replaceState(null, '', '/terms')
    const router = createRouter()
    await vi.waitFor(() => expect(router.state.initialized).toBe(true), { timeout: 5000 })
    const first = vi.fn()
    const unsubscribe = router.subscribe(first)
    expect(first).toHaveBeenCalledTimes(1)
    expect(first.mock.calls[0]![0].initialized).toBe(true)
    unsubscribe()
    router.dispose()
    window.history.replaceState(null, '', '/')
  })
})

/** Every path the table draws a page at: leaves and index routes, joined to their parents. */
const pagePaths = (table: RouteObject[], parent = ''): string[] =>
  table.flatMap((route) => {
    const own = route.path
      ? route.path.startsWith('/')
        ? route.path
        : `${parent.replace(/\/$/, '')}/${route.path}`
      : parent
    if (route.index) return [parent]
    if (route.children) return pagePaths(route.children, own)
    return route.path === '*' ? [] : [own]
  })

describe('the pages the server knows', () => {
  // The server answers a path that is no page with 404 (packages/contract/src/pages.ts): a page
  // missing from its list would be answered 404 though it shows, one listed but gone 200.
  it("are exactly the route table's", () => {
    expect([...new Set(pagePaths(routes))].sort()).toEqual([...APP_PAGE_PATTERNS].sort())
  })
})
