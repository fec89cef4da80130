import { useCallback, useMemo, useSyncExternalStore } from 'react'

/** The spec's breakpoint: phones are up to 639 px wide, desktops from 640 px. */
export const PHONE_QUERY = '(max-width: 639px)'
/** Issue 27: from this width the tipping and league pages have a side column. */
export const SIDE_COLUMN_QUERY = '(min-width: 1024px)'

const noUnsubscribe = () => undefined

/**
 * Whether a media query matches, kept current as the window resizes. The query's list is made
 * once per mounted component and query, and the subscription keeps its identity across renders:
 * every tip strip of the tipping page asks, and a new `subscribe` each render would make React
 * remove and add the listener, and a new list each snapshot would evaluate the query again.
 */
export function useMediaQuery(query: string): boolean {
  const list = useMemo(
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query) : null),
    [query],
  )
  const subscribe = useCallback(
    (notify: () => void) => {
      if (!list) return noUnsubscribe
      list.addEventListener('change', notify)
      return () => list.removeEventListener('change', notify)
    },
    [list],
  )
  return useSyncExternalStore(
    subscribe,
    () => list?.matches ?? false,
    () => false,
  )
}
