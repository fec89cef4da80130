import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import { Provider } from 'react-redux'
import { MemoryRouter, Route, Routes } from 'react-router'
import { createTestStore } from './test-store.ts'

// For tests of a whole page: the page at an address through the real store and router, and the
// API's answers as a stubbed fetch gives them. Only for tests.

/** Renders `page` at `url`, routed by `path` (its route's pattern, e.g. "/:sport/season"). */
export const renderPageAt = (url: string, path: string, page: ReactElement) =>
  render(
    <Provider store={createTestStore()}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={page} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  )

/** The API's answer of success. */
export const answer = (success: unknown) =>
  new Response(JSON.stringify({ success }), { status: 200 })

/** The API's 404, for any address a test does not expect. */
export const notFound = () =>
  new Response(JSON.stringify({ errors: [{ code: 'x', message: 'No', param: null }] }), {
    status: 404,
  })
