import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, newPage, signInDemo } from './browser.ts'

// A normal visit leaves the browser console quiet: no errors, no warnings, signed out or in. A
// visitor's session check is a 200 with no user (decision 019), so not even a failed resource.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

function listen(page: Page): string[] {
  const noise: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      noise.push(`${m.type()}: ${m.text()} (${m.location().url})`)
  })
  page.on('pageerror', (e) => noise.push(`pageerror: ${e.message}`))
  return noise
}

describe('the browser console on a normal visit', () => {
  it('stays quiet for a visitor: landing, sport pages, help, terms', async () => {
    const { context, page } = await newPage(browser)
    const noise = listen(page)
    for (const path of ['/', '/wbbl', '/login', '/bbl/help', '/terms', '/privacy-policy']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
    }
    expect(noise).toEqual([])
    await context.close()
  })

  it('stays quiet for a signed-in user going through the game', async () => {
    const { context, page } = await newPage(browser)
    const noise = listen(page)
    await signInDemo(page)
    for (const path of ['/bbl/tipping', '/bbl/leagues', '/bbl/rankings', '/bbl/account']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
    }
    expect(noise).toEqual([])
    await context.close()
  })
})
