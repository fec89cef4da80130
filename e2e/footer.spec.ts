import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newPage, uniqueEmail, signUp } from './browser.ts'

// The tipping footer: Autopick fills the open matches, Clear All (after its confirm) empties them,
// and the score header shows the snapshot.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('tipping footer', () => {
  it('autopicks the open matches, then clears them after confirming', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/registration')
    await signUp(page, uniqueEmail('auto'), 'Auto')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    expect(await page.getByTestId('score-header').isVisible()).toBe(true)

    const picked = async () =>
      Number(/(\d+)\//.exec((await page.getByTestId('selected-picks').textContent()) ?? '')![1])
    const open = await page.locator('[data-testid^="pick-"]:not([disabled])').count()
    expect(open).toBeGreaterThan(0)
    expect(await picked()).toBe(0)
    await page.getByTestId('autopick').click()
    // Every open match now has a pick (two choices per match).
    await expect.poll(picked).toBe(open / 2)
    // A new tipper in no league, with every open match picked: the join prompt, once.
    await page.getByRole('dialog', { name: 'Part of a League yet?' }).waitFor()
    expect(await page.getByRole('link', { name: 'Join a league' }).getAttribute('href')).toBe(
      '/bbl/leagues/join',
    )
    await page.keyboard.press('Escape')
    await page.getByTestId('clear-all').waitFor()

    // Saved on the server: a reload keeps them.
    await page.reload()
    await page.getByTestId('clear-all').waitFor()
    await page.getByTestId('clear-all').click()
    expect(await page.getByText('Are you sure you want to clear all picks made?').isVisible()).toBe(
      true,
    )
    await page.getByTestId('confirm-no').click()
    expect(await page.getByTestId('clear-all').isVisible()).toBe(true)
    await page.getByTestId('clear-all').click()
    await page.getByTestId('confirm-yes').click()
    await page.getByTestId('autopick').waitFor()
    await page.reload()
    await page.getByTestId('autopick').waitFor()
    expect(await picked()).toBe(0)
    // Autopicking again does not bring the prompt back.
    await page.getByTestId('autopick').click()
    await page.getByTestId('clear-all').waitFor()
    await page.waitForTimeout(500)
    expect(await page.getByRole('dialog', { name: 'Part of a League yet?' }).count()).toBe(0)
    await context.close()
  })
})
