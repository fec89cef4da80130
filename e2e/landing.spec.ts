import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { CaughtMail } from './mail-catcher.ts'
import { launchBrowser, newPage, uniqueEmail } from './browser.ts'
import { axeViolations } from './axe.ts'

// The landing page in each of its modes, the pre-registration card and the contact form, in
// Chromium against the real server, with axe at phone and desktop widths.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

/** The first caught message whose text contains `needle` (several specs share the catcher). */
async function mailContaining(needle: string, timeoutMs = 20_000): Promise<CaughtMail> {
  const dir = inject('mailDir')
  const deadline = Date.now() + timeoutMs
  for (;;) {
    for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CaughtMail
      if (mail.text.includes(needle)) return mail
    }
    if (Date.now() > deadline) throw new Error(`no mail containing ${needle} in ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe.each([
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
])('landing at %s width', (_name, viewport) => {
  it('shows the sign-up banner, the pre-registration card and a contact link on /', async () => {
    const { context, page } = await newPage(browser, viewport)
    await page.goto('/')
    await expect
      .poll(() => page.getByTestId('signup-banner').textContent())
      // No provider brand is configured here: the banner reads naturally without one.
      .toBe('Sign up for Big Bash Tipping')
    await page.getByRole('heading', { name: 'PRE-REGISTER FOR THE 2025-26 SEASON NOW!' }).waitFor()
    expect(await page.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toMatch(
      /^\/(bbl|wbbl)\/help\/contact$/,
    )
    expect(await axeViolations(page)).toEqual([])
    // Nothing wider than the screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await context.close()
  })

  it.each([
    ['/login', 'input[name="password"]', 'Log in'],
    ['/registration', 'input[name="firstName"]', 'Sign up'],
  ])('%s opens its modal over the landing page', async (route, field) => {
    const { context, page } = await newPage(browser, viewport)
    await page.goto(route)
    await page.getByRole('dialog').locator(field).waitFor()
    await page.getByTestId('signup-banner').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('/forgot-password opens the forgot-password modal', async () => {
    const { context, page } = await newPage(browser, viewport)
    await page.goto('/forgot-password')
    await page.getByRole('dialog', { name: /forgot/i }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('/bbl and /wbbl choose the competition', async () => {
    const { context, page } = await newPage(browser, viewport)
    await page.goto('/wbbl')
    await expect
      .poll(() => page.getByRole('button', { name: 'WBBL' }).getAttribute('aria-pressed'))
      .toBe('true')
    expect(
      await page.evaluate(() => document.querySelector('[data-sport]')?.getAttribute('data-sport')),
    ).toBe('wbbl')
    expect(await axeViolations(page)).toEqual([])
    await page.goto('/bbl')
    await expect
      .poll(() =>
        page.getByRole('button', { name: 'BBL', exact: true }).getAttribute('aria-pressed'),
      )
      .toBe('true')
    await context.close()
  })

  it.each([
    ['/login-app', "Women's Big Bash League app"],
    ['/login-bigbash-app', 'Big Bash League app'],
  ])('%s is the app sign-in entry page', async (route, app) => {
    const { context, page } = await newPage(browser, viewport)
    await page.goto(route)
    await expect.poll(() => page.getByTestId('app-entry').textContent()).toContain(app)
    await page.getByTestId('sso-start').first().waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })
})

describe('pre-registration and contact in Chromium', () => {
  it('pre-registers with the spec 5 button rules, once per address, and mails a confirmation', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await page.goto('/')
    const card = page.getByTestId('preregistration')
    const button = card.getByTestId('prereg-submit')
    await card.getByLabel('Name').fill('J')
    const email = uniqueEmail('prereg')
    await card.getByLabel('Email').fill(email.toUpperCase())
    expect(await button.isDisabled()).toBe(true)
    await card.getByLabel('Name').fill('Jess')
    expect(await button.isDisabled()).toBe(false)
    expect(await button.textContent()).toBe('Register your interest')
    await button.click()
    await expect.poll(() => button.textContent()).toBe('Successfully Pre-registered')
    expect(await button.isDisabled()).toBe(true)
    expect(await axeViolations(page)).toEqual([])

    const mail = await mailContaining('Hi Jess,')
    expect(mail.to).toEqual([email.toLowerCase()])
    expect(mail.subject).toContain('2025-26')

    // The same address again (other case, after a reload) gets the same answer.
    await page.reload()
    await card.getByLabel('Name').fill('Jessica')
    await card.getByLabel('Email').fill(email)
    await button.click()
    await expect.poll(() => button.textContent()).toBe('Successfully Pre-registered')
    await context.close()
  })

  it('sends a contact message to support, with the sending and sent states', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    await page.goto('/')
    await page.getByRole('link', { name: 'Contact us' }).click()
    await page.getByRole('heading', { name: 'Contact us' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    const token = `token-${Date.now()}`
    await page.getByLabel('Your name').fill('Casey <b>Fan</b>')
    await page.getByLabel('Your email').fill(uniqueEmail('contact'))
    await page.getByLabel('Message').fill('Too short')
    await page.getByTestId('contact-submit').click()
    // The server's field error shows beside the message.
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/at least 10/)
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel('Message').fill(`My round 3 tips did not save (${token}).`)
    await page.getByTestId('contact-submit').click()
    await page.getByTestId('contact-sent').waitFor()
    expect(await axeViolations(page)).toEqual([])

    const mail = await mailContaining(token)
    expect(mail.to).toEqual(['support@tipping.example'])
    expect(mail.subject).toBe('Contact form message (BBL Tipping)')
    expect(mail.text).toContain('Name: "Casey <b>Fan</b>"')
    expect(mail.text).toContain('Account: a visitor (not signed in)')

    await page.getByRole('button', { name: 'Send another message' }).click()
    expect(await page.getByLabel('Message').inputValue()).toBe('')
    await context.close()
  })
})
