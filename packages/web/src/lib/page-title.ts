import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { gameName, SITE_NAME, type Sport } from '@tipping/contract/constants'
import { isSport } from './sport.ts'

// Each page names the document after itself (WCAG 2.4.2, decision 042): the browser tab, the
// history list, a bookmark and a screen reader's announcement of the page then say which page it
// is, not the site's name on every one. The app's frame puts the site's name back at every change
// of page (app/page-arrival.tsx), so a page that names itself is never shown under another's name.

/** The site's name: the document's title where no page names itself (the landing page). */
export { SITE_NAME }

/** The sport whose pages `pathname` is under, if any (`/bbl/...`, `/wbbl/...`). */
export function sportOfPath(pathname: string): Sport | null {
  const first = pathname.split('/')[1]
  return isSport(first) ? first : null
}

/**
 * The document's title: the page's own name first (what a narrow tab still shows), then the
 * game's, or the site's outside a sport. A page whose name already says the game is not told it
 * twice ("BBL Tipping help").
 */
export function documentTitle(page: string | null, sport: Sport | null): string {
  const site = sport ? gameName(sport) : SITE_NAME
  if (page === null || page.trim() === '') return site
  return page.includes(site) ? page : `${page} · ${site}`
}

/**
 * Names the document after the page while it is shown: its heading's words, or, before the data
 * that names it has arrived, a general one (`'League'` until the league's name is known). `null`
 * leaves the naming to what the page shows instead (a `Panel` saying the league was not found
 * names itself; a child's effect runs before its parent's). Run again at every change of address,
 * since the frame has just put the site's name back.
 */
export function usePageTitle(page: string | null): void {
  const { pathname } = useLocation()
  useEffect(() => {
    if (page !== null) document.title = documentTitle(page, sportOfPath(pathname))
  }, [page, pathname])
}
