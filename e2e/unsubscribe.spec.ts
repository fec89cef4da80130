import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { DEV_RECEIPT_SECRET } from '../packages/server/src/config.ts'
import { unsubscribeToken } from '../packages/server/src/modules/mail/unsubscribe.ts'
import { launchBrowser, newPage, signUp, uniqueEmail } from './browser.ts'
import { axeViolations } from './axe.ts'
import { layoutProblems } from './layout-check.ts'

// A reminder's unsubscribe link opened in a browser (decision 043): the page asks, its button
// posts from the page (the site's no-referrer policy would send `Origin: null`, which the origin
// check refuses: the page names its origin), and reminders are off. axe-clean, light and dark. The end-to-end server signs
// with the development key.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('the unsubscribe page', () => {
  it.each([320, 390])('asks, then turns reminders off with its button, at %i px', async (width) => {
    const { context, page } = await newPage(browser, { width, height: 740 })
    await page.goto('/registration')
    await signUp(page, uniqueEmail(`unsub${width}`))
    await page.waitForURL('**/bbl/leagues')
    const me = () =>
      page.evaluate(
        async () =>
          (await (await fetch('/api/session')).json()).success.user as {
            id: number
            reminderLead: string
          },
      )
    const { id, reminderLead } = await me()
    expect(reminderLead).toBe('round')

    const url = `/unsubscribe/${unsubscribeToken(DEV_RECEIPT_SECRET, id, 'reminders')}`
    expect((await page.goto(url))?.status()).toBe(200)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Stop tipping reminder emails?')
    expect(await layoutProblems(page)).toEqual([])
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    expect((await me()).reminderLead).toBe('round')

    const answer = page.waitForResponse((r) => r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Unsubscribe' }).click()
    expect((await answer).status()).toBe(200)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('You are unsubscribed')
    expect(await axeViolations(page)).toEqual([])
    expect((await me()).reminderLead).toBe('off')
    await context.close()
  })
})
