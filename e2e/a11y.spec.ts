import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Cookie, Page } from 'playwright-core'
import { baseURL, launchBrowser, signInDemo } from './browser.ts'
import { axeViolations } from './axe.ts'

// axe on every page built so far, at phone and desktop widths, in the light and the dark colour
// scheme (the app follows the system's setting, so each scheme has its own contrast to check).

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

async function newPage(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
  const context = await browser.newContext({ baseURL: baseURL(), viewport, colorScheme })
  const page = await context.newPage()
  // The app follows the scheme: its canvas is dark exactly when the system asks for dark.
  await page.goto('/')
  await page.getByRole('heading', { level: 1 }).waitFor()
  const canvas = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const [r = 255, g = 255, b = 255] = (canvas.match(/\d+/g) ?? []).map(Number)
  expect(r + g + b < 200, `canvas ${canvas} in the ${colorScheme} scheme`).toBe(
    colorScheme === 'dark',
  )
  return { context, page }
}

describe.each(
  VIEWPORTS.flatMap(([name, viewport]) =>
    SCHEMES.map((scheme) => [name, scheme, viewport] as const),
  ),
)('accessibility at %s width, %s scheme', (_name, scheme, viewport) => {
  it("the visitor's pages (landing, registration, help of both sports, not-found) have no axe violations", async () => {
    const { context, page } = await newPage(viewport, scheme)
    await page.goto('/')
    await page.getByTestId('login-open').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/registration')
    await page.locator('input[name="firstName"]').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/bbl/help')
    await page.getByRole('heading', { name: 'Help' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    // The women's competition has its own brand colours.
    await page.goto('/wbbl/help')
    await page.getByRole('heading', { name: 'Help' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/no/such/page')
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('tipping and rankings have no axe violations', async () => {
    const { context, page } = await newPage(viewport, scheme)
    await signIn(page)
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/bbl/rankings')
    await page.getByRole('heading', { name: 'Rankings' }).waitFor()
    await page.getByRole('table').first().locator('tbody tr').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('the league screens have no axe violations', async () => {
    const { context, page } = await newPage(viewport, scheme)
    await signIn(page)
    await page.goto('/bbl/leagues')
    await page.getByRole('link', { name: /The Demo Desk/ }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('link', { name: /The Demo Desk/ }).click()
    await page.getByRole('table').locator('tbody tr').first().waitFor()
    await page.locator('tbody button[aria-expanded]').first().click()
    await page.getByRole('list', { name: /Tips for/ }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Invite friends' }).click()
    await page.getByRole('dialog').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await page.getByRole('link', { name: 'Members' }).click()
    await page.getByRole('region', { name: 'Members' }).locator('li').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'Settings' }).click()
    await page
      .getByRole('button', { name: 'Remove League' })
      .or(page.getByText(/can no longer be removed/))
      .waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/bbl/leagues/create')
    await page.getByRole('button', { name: 'Create league' }).click()
    await page.getByText(/League name must be/).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/bbl/leagues/join')
    await page.locator('input[name="search"]').fill('Bash')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('list', { name: 'Public leagues' }).locator('li').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/no/such/page')
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('the season archive and a league’s past seasons have no axe violations', async () => {
    const { context, page } = await newPage(viewport, scheme)
    await signIn(page)
    await page.goto('/bbl/archive')
    await page.getByRole('link', { name: /2024-25/ }).click()
    await page.getByRole('region', { name: 'Final rankings' }).locator('tbody tr').first().waitFor()
    await page.getByRole('region', { name: 'Team ladder' }).locator('tbody tr').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'The Demo Desk' }).click()
    await page.getByRole('table').locator('tbody tr').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'This season’s league' }).click()
    await page.getByRole('region', { name: 'Past seasons' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })
})
