import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newPage, signInDemo } from './browser.ts'

// Spec quality bar: no layout shift when data arrives. Chromium reports layout shifts to a
// PerformanceObserver; the page's cumulative score is summed from first paint until it settles.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe.each([
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
])('layout shift at %s width', (_name, viewport) => {
  it.each(['/bbl/tipping', '/bbl/rankings', '/bbl/leagues', 'the demo league'])(
    '%s stays put while its data loads (CLS < 0.1)',
    async (path) => {
      const { context, page } = await newPage(browser, viewport)
      await signInDemo(page)
      await page.addInitScript(() => {
        const w = window as unknown as { __cls: number; __shifts: string[] }
        w.__cls = 0
        w.__shifts = []
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number
            hadRecentInput: boolean
            sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[]
          })[]) {
            if (entry.hadRecentInput) continue
            w.__cls += entry.value
            // What moved, for the failure message: element, class and how far.
            for (const src of entry.sources ?? []) {
              const el = src.node instanceof Element ? src.node : src.node?.parentElement
              w.__shifts.push(
                `${entry.value.toFixed(3)} ${el?.tagName ?? '?'}.${el?.className ?? ''} x ${src.previousRect.x}->${src.currentRect.x} w ${src.previousRect.width}->${src.currentRect.width} y ${src.previousRect.y}->${src.currentRect.y} h ${src.previousRect.height}->${src.currentRect.height}`,
              )
            }
          }
        }).observe({ type: 'layout-shift', buffered: true })
      })
      // The demo account's own league, looked up rather than assumed.
      const url =
        path === 'the demo league'
          ? await page.evaluate(async () => {
              const res = await (await fetch('/api/bbl/leagues')).json()
              const mine = res.success.leagues.find(
                (l: { isCommissioner: boolean }) => l.isCommissioner,
              )
              return `/bbl/league/${mine.id}/ladder`
            })
          : path
      await page.goto(url)
      await page.waitForLoadState('networkidle')
      if (path === 'the demo league')
        await page.getByRole('heading', { name: 'The Demo Desk' }).waitFor()
      await page.waitForTimeout(1500)
      const { cls, shifts } = await page.evaluate(() => {
        const w = window as unknown as { __cls: number; __shifts: string[] }
        return { cls: w.__cls, shifts: w.__shifts }
      })
      console.log(`CLS ${path} ${viewport.width}px: ${cls.toFixed(4)}`)
      expect(cls, shifts.join('\n')).toBeLessThan(0.1)
      await context.close()
    },
  )
})
