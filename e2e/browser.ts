import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { inject } from 'vitest'
import { CHROMIUM } from './global-setup.ts'

// Debian's Chromium, with the flags this closed network needs (no background calls home).
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

let ownServer: string | undefined
/** Points these helpers at a server the spec started itself (see server.ts). */
export function useServer(url: string): void {
  ownServer = url
}

export const baseURL = (): string => ownServer ?? inject('baseURL')

export async function newPage(
  browser: Browser,
  viewport = { width: 390, height: 844 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport })
  const page = await context.newPage()
  return { context, page }
}

export const uniqueEmail = (prefix: string): string =>
  `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** Fills and sends the registration form (the modal must be open). */
export async function signUp(page: Page, email: string, firstName = 'Ellyse'): Promise<void> {
  await page.locator('input[name="firstName"]').fill(firstName)
  await page.locator('input[name="lastName"]').fill('Tipper')
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="password"]').fill('a long password')
  await page.locator('form button[type="submit"]').click()
}

/** Signs in the demo account; an established account lands on its leagues (spec 2 guard). */
export async function signInDemo(page: Page): Promise<void> {
  await page.goto('/login')
  await page.locator('input[name="email"]').fill('demo@tipping.example')
  await page.locator('input[name="password"]').fill('tip-the-bash')
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL('**/bbl/leagues')
}

/** The demo's admin, for the console at /admin. */
export const DEMO_ADMIN = { email: 'admin@tipping.example', password: 'run-the-bash' }

/** Signs an account in through the login page and waits to leave it. */
export async function signIn(
  page: Page,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto('/login')
  await page.locator('input[name="email"]').fill(account.email)
  await page.locator('input[name="password"]').fill(account.password)
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL((u) => !u.pathname.startsWith('/login'))
}

/** Calls the API from inside the page (same origin, the page's session cookie); throws on a 4xx/5xx. */
export const apiCall = <T>(page: Page, method: string, path: string, body?: unknown): Promise<T> =>
  page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const json = (await res.json()) as { success?: unknown; errors?: unknown }
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json.errors)}`)
      return json.success as T
    },
    { method, path, body },
  )

/**
 * The points in a tipper's ladder or rankings row (the number in its third cell). Read again until
 * there is one: a row found a moment before a search's answer replaces the table has no cells by
 * the time they are read (the rankings after typing a name, CI on a loaded machine, 2026-12-04).
 */
export async function ladderPoints(page: Page, name: string, timeout = 10_000): Promise<number> {
  const row = page.locator('tbody tr', { hasText: name }).first()
  const until = Date.now() + timeout
  for (;;) {
    await row.waitFor({ timeout: Math.max(until - Date.now(), 1) })
    const cells = await row.locator('td').allInnerTexts()
    const points = /-?\d+/.exec(cells[2] ?? '')?.[0]
    if (points !== undefined) return Number(points)
    if (Date.now() > until) throw new Error(`no points in the row of ${name}: ${cells.join(' | ')}`)
    await page.waitForTimeout(100)
  }
}
