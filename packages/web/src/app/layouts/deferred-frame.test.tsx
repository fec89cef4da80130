import { flushSync } from 'react-dom'
import { createRoot, type Root } from 'react-dom/client'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionActions } from '../../lib/session-slice.ts'
import { TEST_USER } from '../../lib/test-store.ts'
import {
  SITE_CONTENT_DEFAULTS,
  SiteContentProvider,
  siteContentApi,
} from '../../lib/site-content.tsx'
import { createStore } from '../store.ts'
import { SignedInLayout } from './signed-in-layout.tsx'

// Decision 041: the two gates a load passes (the site content, the session) let the frame and its
// page through in a render of their own, which React may split and interrupt, not in the store
// update that opened the gate. React's real scheduler is used here, not act(), which would run
// every render before returning and hide the difference.

const actFlag = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
let container: HTMLDivElement
let root: Root

beforeEach(() => {
  actFlag.IS_REACT_ACT_ENVIRONMENT = false
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(() => {
  root.unmount()
  container.remove()
  actFlag.IS_REACT_ACT_ENVIRONMENT = true
  localStorage.clear()
})

const shows = (text: string) => container.textContent?.includes(text) ?? false
/** Until the deferred render has shown `text` (React's scheduler runs it in slices, in tasks). */
const settlesOn = (text: string) => vi.waitFor(() => expect(shows(text)).toBe(true))

function renderSignedIn(store: ReturnType<typeof createStore>) {
  const router = createMemoryRouter(
    [
      {
        path: '/:sport',
        element: <SignedInLayout />,
        children: [{ path: '*', element: <p>the page</p> }],
      },
      { path: '/', element: <p>landing</p> },
    ],
    { initialEntries: ['/bbl/tipping'] },
  )
  flushSync(() =>
    root.render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    ),
  )
}

describe('the signed-in frame', () => {
  it('mounts after the update that checked the session, and goes at once when it ends', async () => {
    const store = createStore()
    renderSignedIn(store)
    expect(shows('Checking your session')).toBe(true)

    flushSync(() => store.dispatch(sessionActions.sessionChecked(TEST_USER)))
    // The update itself committed only the spinner again; the frame follows in its own render.
    expect(shows('the page')).toBe(false)
    expect(shows('Checking your session')).toBe(true)
    await settlesOn('the page')

    flushSync(() => store.dispatch(sessionActions.sessionExpired()))
    expect(shows('the page')).toBe(false)
  })

  it('shows at once, with no spinner, when the session is known as it mounts (a navigation)', () => {
    const store = createStore()
    store.dispatch(sessionActions.sessionChecked(TEST_USER))
    renderSignedIn(store)
    expect(shows('the page')).toBe(true)
  })
})

describe('the site content gate', () => {
  it('lets its children through after the update that brought the last file', async () => {
    const store = createStore()
    flushSync(() =>
      root.render(
        <Provider store={store}>
          <SiteContentProvider fallback={<p>loading</p>}>
            <p>the site</p>
          </SiteContentProvider>
        </Provider>,
      ),
    )
    expect(shows('loading')).toBe(true)

    flushSync(() => {
      store.dispatch(
        siteContentApi.util.upsertQueryEntries([
          { endpointName: 'siteAppConfig', arg: undefined, value: SITE_CONTENT_DEFAULTS.config },
          { endpointName: 'siteNotificationBars', arg: undefined, value: { bars: [] } },
          { endpointName: 'siteAdverts', arg: 'bbl', value: { adverts: [] } },
          { endpointName: 'siteAdverts', arg: 'wbbl', value: { adverts: [] } },
        ]),
      )
      // RTK Query's answers notify the store's subscribers in a batch, later; an action of the
      // app's own notifies them now, inside this synchronous update, as a real load may.
      store.dispatch(sessionActions.dataRequested())
    })
    expect(shows('the site')).toBe(false)
    await settlesOn('the site')
  })
})
