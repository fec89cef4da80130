import { useEffect, useLayoutEffect, useRef } from 'react'
import { ScrollRestoration, useLocation } from 'react-router'
import type { createBrowserRouter } from 'react-router'
import { documentTitle, sportOfPath } from '../lib/page-title.ts'

// What arriving on another page does in this single-page app, as loading a page would
// (decision 042). Without it the browser kept the last page's scroll (a link at the foot of a
// long page opened the next one scrolled to its foot), the focus fell to the document's body (a
// keyboard or screen reader user started again from the top of the header), and every page was
// titled with the site's name.

/**
 * How long a page may take to draw its heading, or to grow to a place being returned to. Any
 * pointer, wheel, touch or key ends the wait sooner, so a long one never takes the page from a
 * player. 3 s was too short on a busy box: the tipping page's cards, drawn in slices after the
 * page, took longer, and going back left the player 1,400 px short of their place (CI,
 * 2026-12-07; decision 042).
 */
export const ARRIVAL_WAIT_MS = 10_000

/** Input that says the player has taken over: no focus or scroll is forced on them after it. */
const TAKING_OVER = ['pointerdown', 'wheel', 'touchstart', 'keydown'] as const

/**
 * Runs `step` now and at each change of the page's content or size until it returns true, the
 * wait is over or the player takes over. Returns the stop.
 */
function untilDone(step: () => boolean): () => void {
  if (step()) return () => undefined
  const observer = new MutationObserver(() => step() && stop())
  // Growth without new nodes (images, fonts); where there is no ResizeObserver, nodes will do.
  const resized =
    typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => step() && stop())
  const timer = setTimeout(() => stop(), ARRIVAL_WAIT_MS)
  function stop() {
    observer.disconnect()
    resized?.disconnect()
    clearTimeout(timer)
    for (const type of TAKING_OVER) window.removeEventListener(type, stop, true)
  }
  observer.observe(document.body, { childList: true, subtree: true })
  resized?.observe(document.body)
  for (const type of TAKING_OVER) window.addEventListener(type, stop, true)
  return stop
}

/**
 * Where the focus goes on arriving: the page's heading (made focusable, not tabbable), or the
 * main area until the heading is drawn (a league's page names the league once it has loaded).
 * Left alone while the focus is still inside the page (a tab of the league page or a pager,
 * which stay on screen) or in a dialog that opened with the page (the sign-in dialog of `/login`,
 * which takes the focus itself). Returns the stop of the wait for the heading.
 */
export function focusArrivedPage(): () => void {
  const doc = document
  const main = doc.querySelector('main')
  const active = doc.activeElement
  const kept =
    active !== null &&
    active !== doc.body &&
    (main?.contains(active) || active.closest('[role="dialog"], [role="alertdialog"]') !== null)
  if (kept) return () => undefined
  return untilDone(() => {
    const now = doc.querySelector('main')
    const focused = doc.activeElement
    // Someone else has placed the focus meanwhile (a dialog, the player): theirs stands.
    if (focused !== null && focused !== active && focused !== doc.body && focused !== now)
      return true
    const target = now?.querySelector<HTMLElement>('h1') ?? now
    if (!target) return false
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
    // The scroll is ScrollRestoration's: a new page's top, or the place being returned to.
    if (focused !== target) target.focus({ preventScroll: true })
    return target !== now
  })
}

/**
 * Going back (or forward) to a page: React Router scrolls to where the player left it as soon as
 * it is drawn, but a page whose content follows a moment later (the tipping page's cards are a
 * deferred render) is not yet long enough, and the scroll stops short. This follows the page's
 * growth to the place. Exported for its test.
 */
export function reachPlace(y: number): () => void {
  return untilDone(() => {
    if (document.documentElement.scrollHeight - window.innerHeight < y - 1) return false
    if (Math.abs(window.scrollY - y) >= 1) window.scrollTo(0, y)
    return true
  })
}

type Router = ReturnType<typeof createBrowserRouter>

/** The app's router, whose state says where each navigation's scroll is restored to. */
let appRouter: Router | null = null

/**
 * Gives PageArrival the router (app/router.tsx). It subscribes from an effect, not here: the
 * router hands its first state change to its first subscriber only, and that must be
 * RouterProvider (a subscriber taken at creation left the app on its loading spinner whenever the
 * first page's code arrived before RouterProvider had subscribed).
 */
export function givePageArrivalRouter(router: Router): void {
  appRouter = router
}

/**
 * The entry's key for the saved places: React Router's own for entries the app made. A page
 * loaded from its address has the key "default" whatever the address, so that one is keyed by
 * the address: a reload returns to the place, another address typed into the tab opens at its top.
 */
const placeKey = (location: { key: string; pathname: string; search: string }) =>
  location.key === 'default' ? location.pathname + location.search : location.key

/** In the root layout, once: scroll, title and focus follow each change of page. */
export function PageArrival() {
  const { pathname, key } = useLocation()
  // Before the new page's own effects (layout effects run first), which name it again.
  useLayoutEffect(() => {
    document.title = documentTitle(null, sportOfPath(pathname))
  }, [pathname])
  const shown = useRef(pathname)
  useEffect(() => {
    // The first page of a visit: the browser starts at the top of the document, as for any load.
    if (shown.current === pathname) return
    shown.current = pathname
    let stop = () => undefined as void
    // After the frame that paints the new page.
    const frame = requestAnimationFrame(() => (stop = focusArrivedPage()))
    return () => {
      cancelAnimationFrame(frame)
      stop()
    }
  }, [pathname])
  // Where the router restores each navigation's scroll, noted as it navigates...
  const places = useRef(new Map<string, number>())
  useEffect(
    () =>
      appRouter?.subscribe((state) => {
        const y = state.restoreScrollPosition
        if (typeof y === 'number') places.current.set(state.location.key, y)
        else places.current.delete(state.location.key)
      }),
    [],
  )
  // ...and reached once the page is drawn, however long its content takes to come.
  useEffect(() => {
    const y = places.current.get(key)
    return y === undefined ? undefined : reachPlace(y)
  }, [key])
  // React Router's: a new page opens at its top (or its #fragment), and going back or forward
  // returns to where the player was on that entry of the history.
  return <ScrollRestoration getKey={placeKey} />
}
