import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Cookie, Page } from 'playwright-core'
import { baseURL, launchBrowser, signInDemo } from './browser.ts'
import { axeViolations } from './axe.ts'

// axe on every page built so far, at phone and desktop widths, in the light and the dark colour
// scheme (the app follows the system's setting, so each scheme has its own contrast to check).
// Each page is loaded once and checked in both schemes: the scheme is switched in place, as the
// system's setting would be (half the page loads of a load per scheme, a minute of CI).

let browser: Browser
/** The demo account's session, signed in once through the login page for the whole file. */
let session: Cookie[]
beforeAll(async () => {
  browser = await launchBrowser()
  const context = await browser.newContext({ baseURL: baseURL() })
  await signInDemo(await context.newPage())
  session = await context.cookies()
  await context.close()
})
afterAll(() => browser?.close())

// The session's cookies, not the login form again (12 sign-ins cost CI a quarter of a minute).
const signIn = async (page: Page) => {
  await page.context().addCookies(session)
  await page.goto('/bbl/tipping')
  await page.locator('[data-testid^="match-card-"]').first().waitFor()
}

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const
const SCHEMES = ['light', 'dark'] as const

/** Whether the app's canvas is dark, and no colour is still in transition. */
const settledCanvas = (page: Page) =>
  page.evaluate(() => {
    const moving = document
      .getAnimations()
      .some((a) => a instanceof CSSTransition && a.playState === 'running')
    if (moving) return null
    const canvas = getComputedStyle(document.body).backgroundColor
    const [r = 255, g = 255, b = 255] = (canvas.match(/\d+/g) ?? []).map(Number)
    return r + g + b < 200 ? 'dark' : 'light'
  })

/**
 * axe's findings on the page as it is, in each scheme: the scheme switched in place and checked to
 * have reached the canvas (the app follows the system's setting). The next page loads dark.
 */
async function violations(page: Page): Promise<Record<(typeof SCHEMES)[number], string[]>> {
  const inScheme = async (colorScheme: (typeof SCHEMES)[number]) => {
    await page.emulateMedia({ colorScheme })
    await expect.poll(() => settledCanvas(page), { timeout: 5000 }).toBe(colorScheme)
  }
  const found = { light: [] as string[], dark: [] as string[] }
  for (const scheme of SCHEMES) {
    await inScheme(scheme)
    found[scheme] = await axeViolations(page)
  }
  return found
}
const NONE = { light: [], dark: [] }

async function newPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport, colorScheme: 'light' })
  const page = await context.newPage()
  return { context, page }
}

describe.each(VIEWPORTS)('accessibility at %s width, light and dark schemes', (_name, viewport) => {
  it("the visitor's pages (landing, registration, help of both sports, not-found) have no axe violations", async () => {
    const { context, page } = await newPage(viewport)
    await page.goto('/')
    await page.getByTestId('login-open').waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/registration')
    await page.locator('input[name="firstName"]').waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/bbl/help')
    await page.getByRole('heading', { name: 'Help' }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    // The women's competition has its own brand colours.
    await page.goto('/wbbl/help')
    await page.getByRole('heading', { name: 'Help' }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/no/such/page')
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await context.close()
  })

  it('tipping and rankings have no axe violations', async () => {
    const { context, page } = await newPage(viewport)
    await signIn(page)
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/bbl/rankings')
    await page.getByRole('heading', { name: 'Rankings' }).waitFor()
    await page.getByRole('table').first().locator('tbody tr').first().waitFor()
    expect(await violations(page)).toEqual(NONE)
    await context.close()
  })

  it('the league screens have no axe violations', async () => {
    const { context, page } = await newPage(viewport)
    await signIn(page)
    await page.goto('/bbl/leagues')
    await page.getByRole('link', { name: /The Demo Desk/ }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.getByRole('link', { name: /The Demo Desk/ }).click()
    await page.getByRole('table').locator('tbody tr').first().waitFor()
    await page.locator('tbody button[aria-expanded]').first().click()
    await page.getByRole('list', { name: /Tips for/ }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.getByRole('button', { name: 'Invite friends' }).click()
    await page.getByRole('dialog').waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.keyboard.press('Escape')
    await page.getByRole('link', { name: 'Members' }).click()
    await page.getByRole('region', { name: 'Members' }).locator('li').first().waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.getByRole('link', { name: 'Settings' }).click()
    await page
      .getByRole('button', { name: 'Remove League' })
      .or(page.getByText(/can no longer be removed/))
      .waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/bbl/leagues/create')
    await page.getByRole('button', { name: 'Create league' }).click()
    await page.getByText(/League name must be/).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/bbl/leagues/join')
    await page.locator('input[name="search"]').fill('Bash')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('list', { name: 'Public leagues' }).locator('li').first().waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.goto('/no/such/page')
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await context.close()
  })

  it('the season archive and a league’s past seasons have no axe violations', async () => {
    const { context, page } = await newPage(viewport)
    await signIn(page)
    await page.goto('/bbl/archive')
    await page.getByRole('link', { name: /2024-25/ }).click()
    await page.getByRole('region', { name: 'Final rankings' }).locator('tbody tr').first().waitFor()
    await page.getByRole('region', { name: 'Team ladder' }).locator('tbody tr').first().waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.getByRole('link', { name: 'The Demo Desk' }).click()
    await page.getByRole('table').locator('tbody tr').first().waitFor()
    expect(await violations(page)).toEqual(NONE)
    await page.getByRole('link', { name: 'This season’s league' }).click()
    await page.getByRole('region', { name: 'Past seasons' }).waitFor()
    expect(await violations(page)).toEqual(NONE)
    await context.close()
  })
})
