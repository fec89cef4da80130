import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, newPage } from './browser.ts'
import { ACCOUNTS, openLeague, signIn, visit } from './screens.ts'

// Opening another page in the app does what loading it would (decision 042): it opens at its
// top, going back returns to where the player was, the title names the page, and the focus starts
// at the page's heading. Found on a phone: "My tips history" at the foot of the tipping page
// opened the history scrolled to its foot, titled "Big Bash Tipping", with the focus on nothing.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const state = (page: Page) =>
  page.evaluate(() => ({
    y: Math.round(window.scrollY),
    title: document.title,
    focused: document.activeElement?.tagName.toLowerCase() ?? null,
    focusedText: document.activeElement?.textContent?.trim() ?? null,
  }))

describe('arriving on a page in the app', () => {
  it('opens a page at its top with the focus on its heading, and goes back to where the player was', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 800 })
    await signIn(page, ACCOUNTS.tipper)
    await visit(page, '/bbl/tipping', '[data-testid^="match-card-"]')
    expect((await state(page)).title).toBe('Your tips · BBL Tipping')
    const link = page.getByRole('link', { name: 'My tips history' })
    await link.scrollIntoViewIfNeeded()
    const down = (await state(page)).y
    expect(down).toBeGreaterThan(1000)

    await link.click()
    await page.getByRole('heading', { level: 1, name: 'My tips history' }).waitFor()
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1')
    expect(await state(page)).toEqual({
      y: 0,
      title: 'My tips history · BBL Tipping',
      focused: 'h1',
      focusedText: 'My tips history',
    })

    // Back: the tipping page where it was left (its cards come from the cache at once).
    await page.goBack()
    await page.getByRole('heading', { level: 1, name: 'Your tips' }).waitFor()
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 50, down)
    expect((await state(page)).title).toBe('Your tips · BBL Tipping')
    await context.close()
  })

  it("keeps the focus on a league's tab, and names the page after the league", async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await signIn(page, ACCOUNTS.tipper)
    // From a link in the page that the next page replaces: the focus goes to the new heading.
    await openLeague(page)
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1')
    expect(await state(page)).toMatchObject({
      title: 'The Demo Desk · BBL Tipping',
      focusedText: 'The Demo Desk',
    })
    // A tab stays on screen: the focus stays on it, for the next tab to be one key away.
    await page.getByRole('link', { name: 'Members' }).click()
    await page.getByRole('region', { name: 'Members' }).locator('li').first().waitFor()
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    )
    expect(await state(page)).toMatchObject({
      title: 'The Demo Desk · BBL Tipping',
      focused: 'a',
      focusedText: 'Members',
    })
    await context.close()
  })

  it('from the header, by keyboard: the next Tab goes on from the heading into the page', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await signIn(page, ACCOUNTS.tipper)
    await visit(page, '/bbl/tipping', '[data-testid^="match-card-"]')
    await page.locator('#main-menu').getByRole('link', { name: 'Rankings' }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Rankings' }).waitFor()
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1')
    expect((await state(page)).title).toBe('Rankings · BBL Tipping')
    await page.keyboard.press('Tab')
    const next = await page.evaluate(() => {
      const active = document.activeElement
      return Boolean(active && document.querySelector('main')?.contains(active))
    })
    expect(next).toBe(true)
    await context.close()
  })
})
