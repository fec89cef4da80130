import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newPage, uniqueEmail } from './browser.ts'
import { axeViolations } from './axe.ts'
import { putContent as putAdminContent } from './screens.ts'

// Site-wide parts end to end: offseason mode and the login switch turned on through the admin
// content route by the demo admin, the notification bar and top banner, advert images at the
// 700 px breakpoint, help, terms, privacy and the footer, with axe at phone and desktop widths.

const ADMIN = { email: 'admin@tipping.example', password: 'run-the-bash' }

let browser: Browser
let admin: { context: BrowserContext; page: Page }

/** Calls the API from inside the admin's page (same origin, its session cookie). */
async function putContent(key: string, value: unknown): Promise<void> {
  expect(await putAdminContent(admin.page, key, value)).toBe(200)
}

const SWITCHES_ON = { offseason: false, loginEnabled: true }
const BARS_OFF = { bbl: { isEnabled: false, message: '' }, wbbl: { isEnabled: false, message: '' } }
const BANNER_OFF = { isEnabled: false, message: '', url: null }

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await newPage(browser, { width: 1280, height: 800 })
  await admin.page.goto('/terms')
  const status = await admin.page.evaluate(async (body) => {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return res.status
  }, ADMIN)
  expect(status).toBe(200)
})

afterAll(async () => {
  // Leave the shared demo server as it was for the specs that run after this one.
  if (admin) {
    await putContent('site_switches', SWITCHES_ON)
    await putContent('notification_bars', BARS_OFF)
    await putContent('top_banner', BANNER_OFF)
    await admin.context.close()
  }
  await browser?.close()
})

const path = (page: Page) => new URL(page.url()).pathname

/** Signs a page's context in through the API (the page must be on the site already). */
async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/terms')
  const status = await page.evaluate(
    async (body) =>
      (
        await fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status,
    { email, password },
  )
  expect(status).toBe(200)
}

/** Registers a new (non-admin) tipper through the API, signed in in that page's context. */
async function registerTipper(page: Page): Promise<void> {
  await page.goto('/terms')
  const status = await page.evaluate(
    async (email) =>
      (
        await fetch('/api/auth/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            firstName: 'Shell',
            lastName: 'Tester',
            email,
            password: 'a long password',
          }),
        })
      ).status,
    uniqueEmail('shell'),
  )
  expect(status).toBe(200)
}

/** The left and right edges of the first element a locator finds. */
async function edges(page: Page, selector: string): Promise<{ left: number; right: number }> {
  const box = await page.locator(selector).first().boundingBox()
  expect(box, selector).not.toBeNull()
  return { left: Math.round(box!.x), right: Math.round(box!.x + box!.width) }
}

describe('offseason mode and the login switch', () => {
  it('in offseason only /, /terms and /privacy-policy exist; the rest goes to /', async () => {
    await putContent('site_switches', { offseason: true, loginEnabled: true })
    const { context, page } = await newPage(browser)
    try {
      for (const from of ['/bbl/tipping', '/login', '/wbbl/help/prizes', '/bbl', '/nowhere']) {
        await page.goto(from)
        await page.getByTestId('offseason-page').waitFor()
        expect(path(page), from).toBe('/')
      }
      // The season that finished, and the next one to pre-register for (not the same season).
      await page.getByText('The 2025-26 season has finished').waitFor()
      await page
        .getByRole('heading', { name: 'PRE-REGISTER FOR THE 2026-27 SEASON NOW!' })
        .waitFor()
      expect(await page.getByTestId('login-open').count()).toBe(0)
      await page.goto('/terms')
      await page.getByRole('heading', { name: 'Terms & Conditions', level: 1 }).waitFor()
      expect(path(page)).toBe('/terms')
      await page.goto('/privacy-policy')
      await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor()
      expect(path(page)).toBe('/privacy-policy')
      // A path containing terms is not redirected (it is simply not found here).
      await page.goto('/bbl/terms')
      await page.getByRole('heading', { name: 'Page not found' }).waitFor()
      expect(path(page)).toBe('/bbl/terms')
      expect(await axeViolations(page)).toEqual([])

      await putContent('site_switches', SWITCHES_ON)
      await page.goto('/bbl/help')
      await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor()
      expect(path(page)).toBe('/bbl/help')
      await page.goto('/')
      await page.getByTestId('login-open').waitFor()
      expect(await page.getByTestId('offseason-page').count()).toBe(0)

      // A signed-in player is asked for nothing: the account they have carries over.
      const email = uniqueEmail('offseason')
      const signedUp = await page.request.post('/api/bbl/auth/register', {
        data: { email, password: 'a long password', firstName: 'Meg', lastName: 'Lanning' },
      })
      expect(signedUp.status()).toBe(200)
      await putContent('site_switches', { offseason: true, loginEnabled: true })
      await page.setViewportSize({ width: 320, height: 720 })
      await page.goto('/')
      await page.getByRole('heading', { name: "YOU'RE SET FOR THE 2026-27 SEASON" }).waitFor()
      await page.getByText(email).waitFor()
      await page.getByText('Your account is ready for it.').waitFor()
      expect(await page.getByLabel('Name').count()).toBe(0)
      expect(await page.getByTestId('prereg-submit').count()).toBe(0)
      expect(await axeViolations(page)).toEqual([])
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true)
    } finally {
      await putContent('site_switches', SWITCHES_ON)
      await context.close()
    }
  })

  it('with login switched off there is no way to sign in or sign up', async () => {
    await putContent('site_switches', { offseason: false, loginEnabled: false })
    const { context, page } = await newPage(browser)
    try {
      await page.goto('/')
      await page.getByTestId('login-disabled').waitFor()
      expect(await page.getByTestId('login-open').count()).toBe(0)
      expect(await page.getByTestId('register-open').count()).toBe(0)
      await page.goto('/login')
      await page.getByTestId('login-disabled').waitFor()
      expect(await page.getByRole('dialog').count()).toBe(0)
      await putContent('site_switches', SWITCHES_ON)
      await page.goto('/login')
      await page.getByRole('dialog').waitFor()
    } finally {
      await putContent('site_switches', SWITCHES_ON)
      await context.close()
    }
  })
})

describe('site-wide parts', () => {
  it('the notification bar stays dismissed across a reload, per sport; the top banner shows', async () => {
    await putContent('notification_bars', {
      bbl: { isEnabled: true, message: 'Golden Week starts on Friday' },
      wbbl: { isEnabled: true, message: 'WBBL finals week is here' },
    })
    await putContent('top_banner', {
      isEnabled: true,
      message: 'Read the prize rules',
      url: '/bbl/help/prizes',
    })
    const { context, page } = await newPage(browser)
    try {
      await page.goto('/bbl/help')
      const bar = page.getByTestId('notification-bar')
      await bar.getByText('Golden Week starts on Friday').waitFor()
      await page
        .getByTestId('top-banner')
        .getByRole('link', { name: 'Read the prize rules' })
        .click()
      await page.getByRole('heading', { name: 'Prizes', level: 2 }).waitFor()
      await page.getByRole('button', { name: 'Dismiss notice' }).click()
      expect(await bar.count()).toBe(0)
      expect(await page.evaluate(() => localStorage.getItem('bbl_notification_bar-1'))).toBe(
        'false',
      )
      await page.reload()
      await page.getByRole('heading', { name: 'Prizes', level: 2 }).waitFor()
      expect(await page.getByTestId('notification-bar').count()).toBe(0)
      // The other competition's bar is its own.
      await page.goto('/wbbl/help')
      await page.getByTestId('notification-bar').getByText('WBBL finals week is here').waitFor()
    } finally {
      await putContent('notification_bars', BARS_OFF)
      await putContent('top_banner', BANNER_OFF)
      await context.close()
    }
  })

  it('advert images switch between mobile (699 px) and desktop (701 px)', async () => {
    const { context, page } = await newPage(browser, { width: 699, height: 900 })
    try {
      await page.goto('/bbl/help')
      const leaderboard = page.getByTestId('advert-leaderboard').locator('img')
      const mrec = page.getByTestId('advert-mrec').locator('img')
      await leaderboard.waitFor({ state: 'attached' })
      expect(await leaderboard.getAttribute('src')).toBe('/ads/demo-leaderboard-mobile.png')
      expect(await mrec.getAttribute('src')).toBe('/ads/demo-mrec-mobile.png')
      await page.setViewportSize({ width: 701, height: 900 })
      await expect
        .poll(() => leaderboard.getAttribute('src'))
        .toBe('/ads/demo-leaderboard-desktop.png')
      expect(await mrec.getAttribute('src')).toBe('/ads/demo-mrec-desktop.png')
      // The image files are really served, in the slot's 300 x 250 shape (drawn at 1x or more, so
      // they stay sharp on high-density screens).
      const [width, height] = await mrec.evaluate(async (img: HTMLImageElement) => {
        await img.decode()
        return [img.naturalWidth, img.naturalHeight]
      })
      expect(width).toBeGreaterThanOrEqual(300)
      expect(width * 250).toBe(height * 300)
      await page.setViewportSize({ width: 699, height: 900 })
      await expect.poll(() => mrec.getAttribute('src')).toBe('/ads/demo-mrec-mobile.png')
    } finally {
      await context.close()
    }
  })
})

describe('the app shell', () => {
  it('keeps the gutter at 390 px: not-found panel, sign-in callback panel, notification bar', async () => {
    await putContent('notification_bars', {
      bbl: { isEnabled: true, message: 'Golden Week starts on Friday' },
      wbbl: { isEnabled: false, message: '' },
    })
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    const gutter = async (selector: string) => {
      const { left, right } = await edges(page, selector)
      expect(left, `${selector} left`).toBeGreaterThanOrEqual(12)
      expect(390 - right, `${selector} right`).toBeGreaterThanOrEqual(12)
    }
    try {
      // Not a sport (`/:sport` matches it): the not-found page has the site's header too.
      for (const nowhere of ['/nowhere', '/cricket/tipping', '/cricket/help']) {
        await page.goto(nowhere)
        await page.getByRole('heading', { name: 'Page not found' }).waitFor()
        await page.getByRole('banner').getByRole('link', { name: 'Big Bash Tipping' }).waitFor()
        await gutter('section:has(> h1)')
      }
      await page.goto('/login/callback?code=forged&state=forged')
      await page.getByTestId('sso-error').waitFor()
      await gutter('section:has(> h1)')
      await page.goto('/bbl/help')
      await page.getByTestId('notification-bar').waitFor()
      await gutter('[data-testid="notification-bar"]')
    } finally {
      await putContent('notification_bars', BARS_OFF)
      await context.close()
    }
  })

  it('starts the brand, the notification bar and the page at the same x at 1280 px', async () => {
    await putContent('notification_bars', {
      bbl: { isEnabled: true, message: 'Golden Week starts on Friday' },
      wbbl: { isEnabled: false, message: '' },
    })
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    try {
      await registerTipper(page)
      await page.goto('/bbl/account')
      await page.getByTestId('notification-bar').waitFor()
      await page.locator('main h1').waitFor()
      const brand = await edges(page, 'header a')
      expect((await edges(page, '[data-testid="notification-bar"]')).left).toBe(brand.left)
      expect((await edges(page, 'main h1')).left).toBe(brand.left)
      // A visitor's page too.
      await page.goto('/terms')
      await page.locator('main h1').waitFor()
      expect((await edges(page, 'main h1')).left).toBe((await edges(page, 'header a')).left)
    } finally {
      await putContent('notification_bars', BARS_OFF)
      await context.close()
    }
  })

  it('on a phone, Your Leagues is a real toggle and Escape closes the menu', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    try {
      await registerTipper(page)
      await page.goto('/bbl/account')
      const menu = page.getByRole('button', { name: 'Open menu' })
      await menu.click()
      const leagues = page.getByRole('button', { name: 'Your Leagues' })
      const join = page.getByRole('link', { name: 'Join a league' })
      expect(await leagues.getAttribute('aria-expanded')).toBe('false')
      expect(await join.isVisible()).toBe(false)
      await leagues.click()
      expect(await leagues.getAttribute('aria-expanded')).toBe('true')
      expect(await join.isVisible()).toBe(true)
      await leagues.click()
      expect(await join.isVisible()).toBe(false)

      await leagues.click()
      await join.focus()
      await page.keyboard.press('Escape')
      expect(await join.isVisible()).toBe(false)
      expect(await leagues.evaluate((el) => el === document.activeElement)).toBe(true)
      await page.keyboard.press('Escape')
      expect(await page.locator('#main-menu').isVisible()).toBe(false)
      const closed = page.getByRole('button', { name: 'Open menu' })
      expect(await closed.getAttribute('aria-expanded')).toBe('false')
      expect(await closed.evaluate((el) => el === document.activeElement)).toBe(true)
      expect(await axeViolations(page)).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('admins find the console in the header menu, on a phone and a desktop; tippers do not', async () => {
    await admin.page.goto('/bbl/help')
    await admin.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Admin' })
      .click()
    await admin.page.waitForURL('**/admin')

    const phone = await newPage(browser, { width: 390, height: 844 })
    const tipper = await newPage(browser, { width: 1280, height: 800 })
    try {
      await signInAs(phone.page, ADMIN.email, ADMIN.password)
      await phone.page.goto('/bbl/help')
      await phone.page.getByRole('button', { name: 'Open menu' }).click()
      await phone.page.getByRole('link', { name: 'Admin' }).click()
      await phone.page.waitForURL('**/admin')

      await registerTipper(tipper.page)
      await tipper.page.goto('/bbl/help')
      const nav = tipper.page.getByRole('navigation', { name: 'Main' })
      await nav.getByRole('link', { name: 'Account' }).waitFor()
      expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0)
    } finally {
      await phone.context.close()
      await tipper.context.close()
    }
  })
})

describe('help, terms and privacy', () => {
  it('help shows the FAQ accordion and each published page; the footer leads to the legal pages', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    try {
      await page.goto('/bbl/help')
      const first = page.getByRole('button', { name: 'What is Big Bash Tipping?' })
      expect(await first.getAttribute('aria-expanded')).toBe('false')
      const answer = page.getByText(/before each match of the men's Big Bash League/)
      expect(await answer.isVisible()).toBe(false)
      await first.click()
      expect(await first.getAttribute('aria-expanded')).toBe('true')
      expect(await answer.isVisible()).toBe(true)

      const tabs = page.getByRole('navigation', { name: 'Help sections' })
      await tabs.getByRole('link', { name: 'Game rules' }).click()
      await page.getByRole('heading', { name: 'Game rules', level: 2 }).waitFor()
      expect(path(page)).toBe('/bbl/help/game-rules')
      await tabs.getByRole('link', { name: 'Guidelines' }).click()
      await page.getByRole('heading', { name: 'Guidelines', level: 2 }).waitFor()

      await page.goto('/wbbl/help/prizes')
      await page.getByRole('heading', { name: 'Prizes', level: 2 }).waitFor()
      expect(await page.locator('article').innerText()).toContain('$10,000')
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('WBBL')

      await page.goto('/bbl/help/no-such-section')
      await page.getByRole('heading', { name: 'No such help page' }).waitFor()
      // The contact form keeps its own route under help.
      await page.goto('/bbl/help/contact')
      await page.locator('textarea').waitFor()

      const footer = page.getByRole('contentinfo')
      await footer.getByRole('link', { name: 'Terms & Conditions' }).click()
      await page.getByRole('heading', { name: 'Terms & Conditions', level: 1 }).waitFor()
      expect(path(page)).toBe('/terms')
      await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click()
      await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor()
      expect(path(page)).toBe('/privacy-policy')
    } finally {
      await context.close()
    }
  })

  it.each([
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ])('help, terms and privacy have no axe violations at %s width', async (_name, viewport) => {
    const { context, page } = await newPage(browser, viewport)
    try {
      await page.goto('/bbl/help')
      await page.getByRole('button', { name: 'What is Big Bash Tipping?' }).click()
      expect(await axeViolations(page)).toEqual([])
      await page.goto('/wbbl/help/game-rules')
      await page.getByRole('heading', { name: 'Game rules', level: 2 }).waitFor()
      expect(await axeViolations(page)).toEqual([])
      await page.goto('/terms')
      await page.getByRole('heading', { name: 'Terms & Conditions', level: 1 }).waitFor()
      expect(await axeViolations(page)).toEqual([])
      await page.goto('/privacy-policy')
      await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor()
      expect(await axeViolations(page)).toEqual([])
    } finally {
      await context.close()
    }
  })
})
