import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, newPage, uniqueEmail, signUp } from './browser.ts'

// Spec 2 "Leave-page confirm": incomplete, unsaved tips hold in-app navigation and tab close.

/** The header's menu: the side column at 1024 px and up links to Rankings too. */
const menu = (page: Page) => page.locator('#main-menu')

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('leaving with unsaved, incomplete tips', () => {
  it('asks before in-app navigation and before closing the tab', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await page.goto('/registration')
    await signUp(page, uniqueEmail('leave'), 'Leave')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()

    // Nothing unsaved yet: navigation is free.
    await menu(page).getByRole('link', { name: 'Rankings' }).click()
    await page.waitForURL('**/bbl/rankings')
    await menu(page).getByRole('link', { name: 'Tips' }).click()
    await page.getByTestId('autopick').waitFor()

    await page.locator('[data-testid^="pick-"]:not([disabled])').first().click()
    const total = Number(
      /\/(\d+)/.exec((await page.getByTestId('selected-picks').textContent()) ?? '')![1],
    )
    const picked = Number(
      /(\d+)\//.exec((await page.getByTestId('selected-picks').textContent()) ?? '')![1],
    )
    await menu(page).getByRole('link', { name: 'Rankings' }).click()
    await page.getByTestId('leave-message').waitFor()
    expect(await page.getByTestId('leave-message').textContent()).toBe(
      `You have only entered a tip for ${picked}/${total} Games! Please select all your tips before leaving the site.`,
    )
    await page.getByTestId('leave-stay').click()
    expect(page.url()).toMatch(/\/bbl\/tipping$/)

    const dialog = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type())
        void d.accept()
      }),
    )
    await page.close({ runBeforeUnload: true })
    expect(await dialog).toBe('beforeunload')
    await context.close()
  })
})
