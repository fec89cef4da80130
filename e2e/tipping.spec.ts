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
  // A new account lands on its leagues (spec 2 guards after sign-in); these tests tip.
  await page.waitForURL('**/bbl/leagues')
  await page.goto('/bbl/tipping')
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

describe('the tipping and league pages on a phone and a desktop (issue 27)', () => {
  const openMatches = async (page: Page) => {
    const round: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    return round.matches.filter((m) => m.status === 'scheduled')
  }

  it('keeps an open match card at 390 px no taller than 260 px, the advert above the cards', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await signInDemo(page)
    await page.goto('/bbl/tipping')
    await page.locator('[data-testid^="match-card-"]').first().waitFor()
    const open = await openMatches(page)
    expect(open.length).toBeGreaterThan(1)
    for (const m of open) {
      const box = await page.getByTestId(`match-card-${m.id}`).boundingBox()
      expect(box, `match ${m.id}`).not.toBeNull()
      expect(box!.height, `match ${m.id} is ${box!.height} px tall`).toBeLessThanOrEqual(260)
    }
    // Spec 2: the advert is at the top of the tipping screen, not under the cards.
    const advert = await page.getByTestId('advert-leaderboard').boundingBox()
    const heading = await page.getByRole('heading', { name: 'Your tips' }).boundingBox()
    expect(advert!.y).toBeLessThan(heading!.y)
    expect(await page.getByTestId('advert-mrec').count()).toBe(0)

    // The FORM GUIDE says it opens, and opens.
    const card = page.getByTestId(`match-card-${open[0]!.id}`)
    const toggle = card.getByRole('button', { name: 'Form guide' })
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await card.getByRole('region', { name: 'Form guide' }).waitFor()
    await context.close()
  })

  it('shows side content beside the cards at 1280 px, and none at 390 px', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await signInDemo(page)
    await page.goto('/bbl/tipping')
    const aside = page.getByRole('complementary', { name: 'At a glance' })
    await aside.getByRole('heading', { name: /Ladder$/ }).waitFor()
    await aside.getByRole('heading', { name: 'Your leagues' }).waitFor()
    await aside.getByRole('heading', { name: /leaders$/ }).waitFor()
    const side = await aside.boundingBox()
    const cards = await page.getByRole('region', { name: 'Matches' }).boundingBox()
    expect(side!.x).toBeGreaterThanOrEqual(cards!.x + cards!.width)
    expect(side!.y).toBeLessThan(cards!.y)
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => aside.count()).toBe(0)
    await context.close()
  })

  it('heads the rankings Position on a desktop and Pos on a phone, Position to screen readers', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await signInDemo(page)
    await page.goto('/bbl/rankings')
    const header = page.getByRole('columnheader', { name: 'Position' })
    await header.waitFor()
    // The words a sighted reader sees: those drawn wider than a clipped, visually hidden 1 px.
    const seen = () =>
      header.evaluate((th) =>
        [...th.querySelectorAll('span')]
          .filter((s) => s.getBoundingClientRect().width > 1)
          .map((s) => s.textContent?.trim())
          .join(' '),
      )
    expect(await seen()).toBe('Position')
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(seen).toBe('Pos')
    expect(await page.getByRole('columnheader', { name: 'Position' }).count()).toBe(1)
    await context.close()
  })
})
