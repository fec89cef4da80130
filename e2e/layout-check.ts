import type { Page } from 'playwright-core'

/** The four widths every route, modal and menu is checked at (issue 27). */
export const LAYOUT_WIDTHS = [320, 390, 768, 1280] as const

/** WCAG 2.2 success criterion 2.5.8 (target size, minimum). */
export const MIN_TARGET = 24

/**
 * What is wrong with the layout on screen now, one line per defect (empty when it is right):
 *
 * - **wider**: an element wider than the viewport, or than the scroll container it sits in, so part
 *   of it can never be seen at once (the sign-up form's 488 px inside a 366 px dialog);
 * - **off-edge**: an element that sticks out past the right edge of the screen or past the box
 *   that clips it (a scroll container may scroll its content sideways: only width counts there);
 * - **sideways scroll**: the page itself scrolls sideways;
 * - **clipped text**: text cut off by its own box (overflow hidden, an ellipsis, a line clamp),
 *   unless the element's `title` gives the whole text;
 * - **small target**: a control under 24 x 24 px, with WCAG's exceptions: a link inside a sentence,
 *   a check box or radio whose label is the target, a disabled control, and an undersized target
 *   whose 24 px circle touches no other target.
 *
 * Hidden elements (display none, visibility hidden, clipped away as `.visually-hidden` is, or
 * parked off the left edge until focused as a skip link is) are not on screen and not checked.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate((minTarget: number) => {
    const problems: string[] = []
    const vw = document.documentElement.clientWidth
    const slack = 1

    const label = (el: Element): string => {
      const id = el.id ? `#${el.id}` : ''
      const testId = el.getAttribute('data-testid')
      const cls =
        typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : ''
      const name =
        el.getAttribute('aria-label') ??
        (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
      return `<${el.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : cls}>${name ? ` "${name}"` : ''}`
    }

    const hiddenCache = new Map<Element, boolean>()
    const hidden = (el: Element | null): boolean => {
      if (!el || el === document.body) return false
      const known = hiddenCache.get(el)
      if (known !== undefined) return known
      const cs = getComputedStyle(el)
      const r = el.getBoundingClientRect()
      const self =
        cs.display === 'none' ||
        cs.visibility === 'hidden' ||
        cs.visibility === 'collapse' ||
        (cs.clip !== 'auto' && cs.clip !== '') ||
        (cs.clipPath !== 'none' && cs.clipPath !== '') ||
        (cs.position === 'absolute' &&
          r.width <= 1 &&
          r.height <= 1 &&
          cs.overflow !== 'visible') ||
        r.right <= 0
      const answer = self || hidden(el.parentElement)
      hiddenCache.set(el, answer)
      return answer
    }

    /** The nearest ancestor that clips or scrolls sideways, or null for the viewport. */
    const clipper = (el: Element): Element | null => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return a
      }
      return null
    }
    const scrolls = (el: Element): boolean => {
      const o = getComputedStyle(el).overflowX
      return o === 'auto' || o === 'scroll'
    }

    if (document.documentElement.scrollWidth > vw + slack) {
      problems.push(
        `sideways scroll: the page is ${document.documentElement.scrollWidth} px wide in a ${vw} px viewport`,
      )
    }

    const everything = document.body.querySelectorAll('*')
    for (const el of everything) {
      if (el instanceof SVGElement && !(el instanceof SVGSVGElement)) continue
      if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'BR'].includes(el.tagName)) continue
      if (hidden(el)) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 && r.height === 0) continue
      const box = clipper(el)
      if (box) {
        const b = box.getBoundingClientRect()
        // The box's inside: its client area (no scroll bar, no border).
        const inner = box.clientWidth
        const left = b.left + box.clientLeft
        if (r.width > inner + slack) {
          problems.push(
            `wider: ${label(el)} is ${Math.round(r.width)} px wide inside ${label(box)}'s ${inner} px`,
          )
        } else if (!scrolls(box) && (r.right > left + inner + slack || r.left < left - slack)) {
          problems.push(`off-edge: ${label(el)} runs past the edge of ${label(box)}`)
        }
      } else if (r.width > vw + slack) {
        problems.push(
          `wider: ${label(el)} is ${Math.round(r.width)} px wide in a ${vw} px viewport`,
        )
      } else if (r.right > vw + slack) {
        problems.push(
          `off-edge: ${label(el)} runs ${Math.round(r.right - vw)} px past the right edge`,
        )
      }

      // Text cut off by its own box.
      const ownText = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
      )
      if (ownText) {
        const cs = getComputedStyle(el)
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim()
        const titled = (el.closest('[title]')?.getAttribute('title') ?? '').includes(text)
        const cutX =
          cs.overflowX !== 'visible' && !scrolls(el) && el.scrollWidth > el.clientWidth + slack
        const cutY =
          cs.overflowY !== 'visible' &&
          cs.overflowY !== 'auto' &&
          cs.overflowY !== 'scroll' &&
          el.scrollHeight > el.clientHeight + slack
        if ((cutX || cutY) && !titled) problems.push(`clipped text: ${label(el)}`)
      }
    }

    // Target size (WCAG 2.2 SC 2.5.8).
    const controls = [
      ...document.body.querySelectorAll(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="checkbox"], [role="radio"], [role="switch"], [role="menuitem"], [tabindex]:not([tabindex="-1"])',
      ),
    ].filter((el) => !hidden(el) && el.getBoundingClientRect().width > 0)
    const rects = controls.map((el) => el.getBoundingClientRect())
    const small = (r: DOMRect) => r.width < minTarget - 0.5 || r.height < minTarget - 0.5
    const circleHits = (cx: number, cy: number, r: DOMRect) => {
      const dx = Math.max(r.left - cx, 0, cx - r.right)
      const dy = Math.max(r.top - cy, 0, cy - r.bottom)
      return dx * dx + dy * dy < (minTarget / 2) ** 2
    }
    controls.forEach((el, i) => {
      const r = rects[i]!
      if (!small(r)) return
      if ((el as HTMLButtonElement).disabled) return
      const cs = getComputedStyle(el)
      // A link in a sentence: inline, with words of its parent around it.
      if ((cs.display === 'inline' || cs.display === 'inline-block') && el.parentElement) {
        const around = [...el.parentElement.childNodes].some(
          (n) => n !== el && n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
        )
        if (around) return
      }
      // A check box or radio whose label is the target.
      const labels = (el as HTMLInputElement).labels
      if (labels && [...labels].some((l) => !small(l.getBoundingClientRect()))) return
      // Spacing: its 24 px circle touches no other target (nor another small target's circle).
      const cx = (r.left + r.right) / 2
      const cy = (r.top + r.bottom) / 2
      const crowded = controls.some((other, j) => {
        if (j === i || other.contains(el) || el.contains(other)) return false
        const o = rects[j]!
        if (circleHits(cx, cy, o)) return true
        if (!small(o)) return false
        const ox = (o.left + o.right) / 2
        const oy = (o.top + o.bottom) / 2
        return Math.hypot(cx - ox, cy - oy) < minTarget
      })
      if (crowded) {
        problems.push(
          `small target: ${label(el)} is ${Math.round(r.width)} x ${Math.round(r.height)} px`,
        )
      }
    })
    return [...new Set(problems)]
  }, MIN_TARGET)
}

/**
 * Settles the page before a check: its fonts loaded, the last change laid out and painted (two
 * frames), and every animation or transition that ends, ended. Waited for, not a fixed 150 ms
 * (that cost the layout check half a minute over its 222 screens).
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
    await document.fonts.ready
    await frame()
    await frame()
    const ending = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)))
    await frame()
  })
}
