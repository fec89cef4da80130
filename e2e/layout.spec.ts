import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newPage } from './browser.ts'
import { LAYOUT_WIDTHS, layoutProblems, settle } from './layout-check.ts'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe.each(LAYOUT_WIDTHS)('the sign-up dialog at %i px', (width) => {
  it('fits: nothing wider than the dialog, no clipped text, no small targets', async () => {
    const { context, page } = await newPage(browser, { width, height: 800 })
    await page.goto('/registration')
    await page.locator('input[name="firstName"]').waitFor()
    await settle(page)
    const problems = await layoutProblems(page)
    await context.close()
    expect(problems).toEqual([])
  })
})
