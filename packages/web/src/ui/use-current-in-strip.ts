import { useLayoutEffect, type RefObject } from 'react'

/**
 * Keeps the current item (`aria-current="page"`) of a row that scrolls sideways in view. A phone
 * shows three of a league's four tabs, and opening the fourth (Settings) left it, and so the only
 * sign of where the player was, scrolled out of sight. Only the row scrolls (its `scrollLeft`),
 * never the page: a place the page's arrival restored stays put. `current`: what the current
 * item depends on (the section shown), so the row is checked again when it changes.
 */
export function useCurrentInStrip(ref: RefObject<HTMLElement | null>, current: unknown): void {
  useLayoutEffect(() => {
    const strip = ref.current
    const item = strip?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!strip || !item) return
    const row = strip.getBoundingClientRect()
    const at = item.getBoundingClientRect()
    if (at.left >= row.left && at.right <= row.right) return
    strip.scrollLeft += at.left - row.left - (row.width - at.width) / 2
  }, [ref, current])
}
