import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { CaughtMail } from './mail-catcher.ts'
import { apiCall, launchBrowser, newPage, signUp, uniqueEmail } from './browser.ts'

// Issue 9 item 4: what users type is shown as text, never run. Script payloads go into a league
// name and description, a team name and a contact message; Chromium then shows every screen
// that renders them (the tipper's leagues, the league page, the admin console, the support mail's
// HTML). A payload that ran would open a dialog (alert), and an inline handler the CSP blocked
// would log a CSP error: neither may happen, no element a payload describes may exist, and the
// payload must show literally.

const run = Date.now().toString(36)
const PAYLOAD = {
  league: `<script>alert('league')</script>${run}`,
  description: `<img src=x onerror="alert('description')"><svg onload=alert(1)>${run}`,
  team: `<img src=x onerror=alert(1)>${run}`,
  contactName: `<script>alert('name')</script>`,
  message: `<img src=x onerror="alert('message')"><script>alert('m')</script> ${run}`,
}

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

/** Everything that would show a payload ran, or tried to and was blocked. */
function watch(page: Page): string[] {
  const seen: string[] = []
  page.on('dialog', (d) => {
    seen.push(`dialog: ${d.message()}`)
    void d.dismiss()
  })
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text()))
      seen.push(`console on ${new URL(page.url()).pathname}: ${m.text()}`)
  })
  page.on('pageerror', (e) => seen.push(`page error: ${e.message}`))
  return seen
}

/**
 * Elements a payload would have made, had it become markup. A JSON data block never runs, so the
 * page's own (the inline site content) is not one.
 */
const injected = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelectorAll(
        'img[src="x"], svg[onload], [onerror], script:not([src]):not([type="application/json"])',
      ).length,
  )

/** Calls the API from inside the page: same origin, the page's session cookie. */
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

describe('script payloads shown as text', () => {
  let leagueId = 0

  it('in a league name, its description and a team name, on the tipper screens', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    const seen = watch(page)
    await page.goto('/registration')
    await signUp(page, uniqueEmail('xss'), 'Mallory')
    await page.waitForURL('**/bbl/leagues')
    // apiCall throws, naming the status and errors, on a refused call.
    await apiCall(page, 'POST', '/api/bbl/user', { team_name: PAYLOAD.team })
    const created = await apiCall<{ league: { id: number } }>(page, 'POST', '/api/bbl/league', {
      name: PAYLOAD.league,
      description: PAYLOAD.description,
      privacy: 'public',
      // The demo season's clock is mid-season: the last round is always a valid start.
      startRound: 8,
    })
    leagueId = created.league.id

    await page.goto('/bbl/leagues')
    await page.getByText(PAYLOAD.league, { exact: true }).first().waitFor()
    expect(await injected(page)).toBe(0)

    await page.goto(`/bbl/league/${leagueId}/ladder`)
    await page.getByRole('heading', { name: PAYLOAD.league }).waitFor()
    await page.getByText(PAYLOAD.description, { exact: true }).waitFor()
    await page.getByText(PAYLOAD.team).first().waitFor()
    expect(await injected(page)).toBe(0)

    // The settings form holds them as input values.
    await page.goto(`/bbl/league/${leagueId}/settings`)
    await expect.poll(() => page.locator('input[name="name"]').inputValue()).toBe(PAYLOAD.league)
    expect(await injected(page)).toBe(0)
    expect(seen).toEqual([])
    await context.close()
  })

  it('in the admin console (users and leagues)', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    const seen = watch(page)
    await page.goto('/login')
    await page.locator('input[name="email"]').fill('admin@tipping.example')
    await page.locator('input[name="password"]').fill('run-the-bash')
    await page.locator('form button[type="submit"]').click()
    await page.waitForURL((u) => !u.pathname.startsWith('/login'))

    await page.goto('/admin/users')
    await page.getByLabel('Name, team or email').fill(run)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(PAYLOAD.team).first().waitFor()
    expect(await injected(page)).toBe(0)

    await page.goto('/admin/leagues')
    await page.getByLabel('Name, code or commissioner email').fill(run)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText(PAYLOAD.league).first().waitFor()
    expect(await injected(page)).toBe(0)
    expect(seen).toEqual([])
    await context.close()
  })

  it('in a contact message, on the form and in the HTML mail support receives', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 })
    const seen = watch(page)
    await page.goto('/bbl/help/contact')
    await page.getByLabel('Your name').fill(PAYLOAD.contactName)
    await page.getByLabel('Your email').fill(uniqueEmail('xss-contact'))
    await page.getByLabel('Message').fill(PAYLOAD.message)
    await page.getByTestId('contact-submit').click()
    await page.getByTestId('contact-sent').waitFor()
    expect(await injected(page)).toBe(0)
    expect(seen).toEqual([])

    // The mail's HTML in a page with no CSP at all: only escaping keeps it inert.
    const mail = await mailContaining(run)
    expect(mail.html).toBeDefined()
    const inbox = await context.newPage()
    const inboxSeen = watch(inbox)
    await inbox.setContent(mail.html!)
    await inbox.getByText(PAYLOAD.message).waitFor()
    await inbox.getByText(PAYLOAD.contactName).first().waitFor()
    expect(await injected(inbox)).toBe(0)
    expect(inboxSeen).toEqual([])
    await context.close()
  })
})
