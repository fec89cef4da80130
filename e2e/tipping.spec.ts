import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { baseURL, launchBrowser, newPage, signInDemo, signUp, uniqueEmail } from './browser.ts'

// The walking skeleton end to end: register, tip round 3, save, reload, tips still there,
// and a match that has started cannot be tipped (in the page, and by the server).

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

async function register(page: Page, email: string) {
  await page.goto('/registration')
  await signUp(page, email)
  await page.waitForURL('**/bbl/tipping')
}

interface RoundJson {
  round: { number: number }
  matches: { id: number; status: string; homeSquadId: number; awaySquadId: number }[]
  predictions: { match: number; squad: number }[]
}

describe('tipping a round', () => {
  it('registers, tips the open matches of round 3, saves, and finds them after a reload', async () => {
    const { context, page } = await newPage(browser)
    await register(page, uniqueEmail('e2e'))
    await expect.poll(() => page.getByTestId('round-label').textContent()).toContain('3')

    const round: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    const open = round.matches.filter((m) => m.status === 'scheduled')
    const started = round.matches.filter((m) => m.status !== 'scheduled')
    expect(open.length).toBeGreaterThan(1)
    // Live and upcoming matches link to the Match Centre (pattern from configuration).
    const centre = page
      .getByTestId(`match-card-${open[0]!.id}`)
      .getByRole('link', { name: /Match Centre/ })
    expect(await centre.getAttribute('href')).toMatch(/^https:\/\/matchcentre\.example\/bbl\/\d+$/)
    expect(started.length).toBeGreaterThan(0)

    // Tip the first open match home, the second away.
    const choices = open
      .slice(0, 2)
      .map((m, i) => ({ match: m.id, squad: i === 0 ? m.homeSquadId : m.awaySquadId }))
    for (const c of choices) await page.getByTestId(`pick-${c.match}-${c.squad}`).click()
    for (const c of choices) {
      await expect
        .poll(() => page.getByTestId(`pick-${c.match}-${c.squad}`).getAttribute('aria-pressed'))
        .toBe('true')
    }
    await page.getByTestId('save-picks').click()
    await expect.poll(() => page.getByTestId('save-picks').textContent()).toMatch(/Saved/)

    await page.reload()
    for (const c of choices) {
      await expect
        .poll(() => page.getByTestId(`pick-${c.match}-${c.squad}`).getAttribute('aria-pressed'))
        .toBe('true')
    }
    const after: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    for (const c of choices)
      expect(after.predictions.find((p) => p.match === c.match)?.squad).toBe(c.squad)

    // A match that has started: its choices are disabled, and the server refuses it anyway.
    const locked = started[0]!
    expect(await page.getByTestId(`pick-${locked.id}-${locked.homeSquadId}`).isDisabled()).toBe(
      true,
    )
    const refused = await page.evaluate(async (m) => {
      const res = await fetch('/api/bbl/predictions_list', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ predictions: [{ match: m.id, squad: m.homeSquadId }] }),
      })
      return { status: res.status, body: await res.json() }
    }, locked)
    expect(refused.status).toBe(409)
    expect(refused.body.errors[0].code).toBe('MATCH_LOCKED')
    await context.close()
  })

  it('signs in the demo account printed at start-up, landing on its leagues', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await signInDemo(page)
    expect(page.url()).toBe(`${baseURL()}/bbl/leagues`)
    await context.close()
  })

  it('sends a signed-out visit to / and follows the saved tipping link after sign-up', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/wbbl/tipping')
    await page.waitForURL((u) => u.pathname === '/')
    await page.goto('/registration')
    await signUp(page, uniqueEmail('deeplink'))
    await page.waitForURL('**/wbbl/tipping')
    await context.close()
  })
})
