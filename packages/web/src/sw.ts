import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { NetworkFirst } from 'workbox-strategies'
import {
  API_CACHE,
  isOfflineApiRead,
  OFFLINE_COPY_HEADER,
  PAGE_CACHE,
  STATIC_CACHE,
} from './lib/offline-caches.ts'

// The service worker (docs/decisions/025-installable-offline-app.md), built by vite-plugin-pwa
// (injectManifest): workbox fills in the list of the build's files at `self.__WB_MANIFEST`.
//
// - The build's scripts, styles and icons are precached (each URL carries its hash or revision),
//   so the app's code runs without the network.
// - Pages are network-first: the server renders each one (inline site content, a fresh style
//   nonce that the CSP header matches), so the last page fetched is kept as one shell and served
//   only when the network fails. Being network-first is also what keeps code fresh: the first
//   visit online after a release gets the new page, which names the new hashed scripts.
// - A few API reads (the session, a round with my picks, my leagues) and the published static
//   files are network-first too: shown "as last seen" when offline, never preferred over the
//   network. Everything else (writes, the live channel's /events streams, admin) is left alone.

interface PrecacheEntry {
  url: string
  revision: string | null
}
// Only what this file uses of the worker's global scope (the web app's types are the DOM's).
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void
}
interface SyncEvent extends ExtendableEvent {
  tag: string
}
interface WorkerScope {
  __WB_MANIFEST: PrecacheEntry[]
  skipWaiting(): Promise<void>
  clients: {
    matchAll(o: { type: 'window' }): Promise<readonly { postMessage(m: unknown): void }[]>
  }
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void
}
declare const self: WorkerScope

// A new version takes over at once (the next visit runs it) instead of waiting for every tab to
// close: the pages it serves are network-first, so no page is left pointing at code it lacks.
void self.skipWaiting()
clientsClaim()
cleanupOutdatedCaches()
precacheAndRoute(self.__WB_MANIFEST)

/** A cached answer says so (the page's offline banner): the network failed and this is old. */
const markOffline = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response | null }) => {
    if (!cachedResponse) return null
    const headers = new Headers(cachedResponse.headers)
    headers.set(OFFLINE_COPY_HEADER, '1')
    return new Response(await cachedResponse.blob(), {
      status: cachedResponse.status,
      statusText: cachedResponse.statusText,
      headers,
    })
  },
}
/** Only whole, successful answers are kept (never an error or a redirect to sign in). */
const okOnly = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 ? response : null,
}
/** Every page is one shell: the app's router draws whichever path it is. */
const oneShell = { cacheKeyWillBeUsed: async () => '/__app-shell' }

registerRoute(
  new NavigationRoute(
    new NetworkFirst({ cacheName: PAGE_CACHE, plugins: [oneShell, okOnly, markOffline] }),
    // The identity provider's pages and the API are never the app's shell.
    { denylist: [/^\/api\//, /^\/oidc\//, /^\/static\//, /^\/share\//] },
  ),
)
registerRoute(
  ({ url, request }) => request.method === 'GET' && isOfflineApiRead(url.pathname),
  new NetworkFirst({ cacheName: API_CACHE, plugins: [okOnly, markOffline] }),
)
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.pathname.startsWith('/static/'),
  new NetworkFirst({ cacheName: STATIC_CACHE, plugins: [okOnly, markOffline] }),
)

// Background Sync (Chromium): the page registers this tag when it keeps a tip on the device; the
// browser fires it once the connection is back, and any open page sends the queue
// (lib/offline-queue.ts): the page holds the session's rules for a queued tip, the worker none.
self.addEventListener('sync', (event) => {
  if (event.tag !== 'tip-queue') return
  event.waitUntil(
    self.clients
      .matchAll({ type: 'window' })
      .then((clients) => clients.forEach((c) => c.postMessage({ type: 'flush-tip-queue' }))),
  )
})
