import AxeBuilder from '@axe-core/playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { Receipt, ReceiptCheckResponse } from '@tipping/contract/receipts'
import { baseURL, launchBrowser, newPage, signUp, uniqueEmail } from './browser.ts'
import { layoutProblems, settle } from './layout-check.ts'

// Issue 32, "A receipt for every tip" (decision 027), in Chromium against the demo: a save shows
// its receipt on the tipping page, Copy receipt copies it, My tips history lists the save with
// what it changed, and the public route says the receipt is genuine to a visitor (and a tampered
// one is not), never showing the picks.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

interface RoundJson {
  matches: { id: number; status: string; homeSquadId: number }[]
}

describe('a receipt for every tip', () => {
  it('saves, shows and copies the receipt, lists it in the history and verifies it publicly', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() })
    await page.goto('/registration')
    await signUp(page, uniqueEmail('receipt'))
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await expect.poll(() => page.getByTestId('round-label').textContent()).toContain('3')
    const round: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    const open = round.matches.find((m) => m.status === 'scheduled')!
    await page.getByTestId(`pick-${open.id}-${open.homeSquadId}`).click()

    const answer = page.waitForResponse((r) => r.url().endsWith('/api/bbl/predictions_list'))
    await page.getByTestId('save-picks').click()
    const receipt = ((await (await answer).json()) as { success: { receipt: Receipt } }).success
      .receipt
    expect(receipt.id).toMatch(/^[A-Za-z0-9_-]{16}$/)

    // The tipping page shows it: short id and the server's time to the millisecond.
    const card = page.getByTestId('last-receipt')
    await expect.poll(() => card.textContent()).toContain(receipt.id.slice(0, 8))
    expect(await card.textContent()).toContain(receipt.savedAt.slice(11, 23))
    await card.getByRole('button', { name: 'Copy receipt' }).click()
    await expect.poll(() => card.getByRole('button').first().textContent()).toBe('Copied')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(`${receipt.id}.${receipt.digest}`)

    // My tips history: the save, its receipt, and the new tip as what changed.
    await card.getByRole('link', { name: 'My tips history' }).click()
    await page.waitForURL('**/bbl/tips-history')
    const save = page.getByTestId(`save-${receipt.id}`)
    await save.waitFor()
    expect(await save.textContent()).toContain('1 tip saved')
    expect(await save.getByRole('list', { name: 'What changed' }).textContent()).toContain(
      '(new tip)',
    )
    // Checked from the page: genuine.
    await page.getByLabel('Receipt (id.digest)').fill(copied)
    await page.getByRole('button', { name: 'Check' }).click()
    await page.getByText(/^Genuine: saved /).waitFor()
    await settle(page)
    expect(await layoutProblems(page)).toEqual([])
    // Accessible in the light and the dark scheme, the full receipt opened.
    await save.getByText('Full receipt').click()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      const axe = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze()
      expect(
        axe.violations.map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target).join()}`),
      ).toEqual([])
    }
    if (process.env.RECEIPTS_SCREENSHOT)
      await page.screenshot({ path: process.env.RECEIPTS_SCREENSHOT, fullPage: true })

    // A visitor (no session) checks it through the public route: genuine, and no picks.
    const visitor = await browser.newContext({ baseURL: baseURL() })
    const check = async (id: string, digest: string) => {
      const res = await visitor.request.get(`/api/receipts/${id}?digest=${digest}`)
      expect(res.status()).toBe(200)
      return ((await res.json()) as { success: ReceiptCheckResponse }).success
    }
    expect(await check(receipt.id, receipt.digest)).toEqual({
      genuine: true,
      savedAt: receipt.savedAt,
    })
    const flipped = (receipt.digest[0] === 'a' ? 'b' : 'a') + receipt.digest.slice(1)
    expect(await check(receipt.id, flipped)).toEqual({ genuine: false, savedAt: null })
    await visitor.close()
    await context.close()
  })
})
