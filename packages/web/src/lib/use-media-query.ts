import { useSyncExternalStore } from 'react'

/** The spec's breakpoint: phones are up to 639 px wide, desktops from 640 px. */
export const PHONE_QUERY = '(max-width: 639px)'
/** Issue 27: from this width the tipping and league pages have a side column. */
export const SIDE_COLUMN_QUERY = '(min-width: 1024px)'

/** Whether a media query matches, kept current as the window resizes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window.matchMedia !== 'function') return () => undefined
      const list = window.matchMedia(query)
      list.addEventListener('change', notify)
      return () => list.removeEventListener('change', notify)
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  )
}
