// The service worker (src/sw.ts, decision 025) is registered only once the page has loaded and
// the browser is idle: it never competes with the landing page's first download or its first
// paint, and its precache (the app's code, fetched in the worker's own thread) comes after.
// `updateViaCache: 'none'`: the browser asks the server for sw.js itself on every visit, so a
// release is found at the next visit, never held back by an HTTP cache.

export function registerWorkerAfterPaint(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator))
    return
  const register = () => {
    navigator.serviceWorker
      .register('/sw.js', { scope: '/', updateViaCache: 'none' })
      .catch(() => undefined)
  }
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(register, { timeout: 5000 })
      : setTimeout(register, 1000)
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}
