import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { baseURL, launchBrowser, newPage } from './browser.ts'
import { axeViolations } from './axe.ts'

// Single sign-on in Chromium against the development provider the server mounts at /oidc:
// the whole flow from the landing page, and the refusals a browser can meet.

const PASSWORD = 'sso-big-bash'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

/** Content-Security-Policy violations the page reports, to prove the provider's pages fit it. */
function cspViolations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) seen.push(m.text())
  })
  return seen
}

async function signInAtProvider(page: Page, email: string): Promise<void> {
  await page.waitForURL('**/oidc/interaction/**')
  expect(await page.title()).toBe('Sign in with Big Bash Account')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

const EXCHANGE = /\/api\/(bbl|wbbl)\/auth\/login$/

/**
 * Runs the flow until the provider sends the browser back with a real code, but stops the app's
 * exchange (the code stays unused), then puts the sign-in's stored state, verifier and nonce back.
 * Returns the callback URL, for a test to replay as it likes.
 */
async function holdCallback(page: Page, email: string): Promise<URL> {
  await page.route(EXCHANGE, (route) => route.abort())
  await page.goto('/')
  await page.getByTestId('sso-start').click()
  await page.waitForURL('**/oidc/interaction/**')
  const request = await stored(page)
  await signInAtProvider(page, email)
  await page.waitForURL(/\/login\/callback\?/)
  const callback = new URL(page.url())
  await page.getByTestId('sso-error').waitFor()
  await page.unroute(EXCHANGE)
  await restore(page, request)
  return callback
}

const restore = (page: Page, r: Awaited<ReturnType<typeof stored>>) =>
  page.evaluate((r) => {
    localStorage.setItem('ssoState-1', r.state!)
    localStorage.setItem('ssoVerifier-1', r.verifier!)
    localStorage.setItem('ssoNonce-1', r.nonce!)
  }, r)

function loginPosts(page: Page): string[] {
  const posts: string[] = []
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/(bbl|wbbl)\/auth\/login$/.test(r.url()))
      posts.push(r.url())
  })
  return posts
}

const stored = (page: Page) =>
  page.evaluate(() => ({
    state: localStorage.getItem('ssoState-1'),
    verifier: localStorage.getItem('ssoVerifier-1'),
    nonce: localStorage.getItem('ssoNonce-1'),
  }))

describe('single sign-on', () => {
  it('signs a new tipper in from the landing page and lands on the leagues page', async () => {
    const { context, page } = await newPage(browser)
    const csp = cspViolations(page)
    await page.goto('/')
    await page.getByTestId('sso-start').click()

    // The authorize request as spec 7 lists it.
    await page.waitForURL('**/oidc/interaction/**')
    expect(await axeViolations(page)).toEqual([])
    const pending = await stored(page)
    expect(pending.verifier).toMatch(/^[A-Za-z0-9\-._~]{128}$/)
    expect(pending.state).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(pending.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/)

    await signInAtProvider(page, 'sso-demo@tipping.example')
    // No saved link: the leagues page (spec 2 guards after sign-in; issue 27).
    await page.waitForURL('**/bbl/leagues')
    await page.getByRole('button', { name: 'Open menu' }).waitFor()

    // Signed in by the session cookie, and nothing of the exchange left in the browser.
    const me = await page.request.get('/api/bbl/user')
    expect(me.status()).toBe(200)
    expect((await me.json()).success.user).toMatchObject({
      email: 'sso-demo@tipping.example',
      first_name: 'Sam',
      last_name: 'Sixes',
    })
    expect(await stored(page)).toEqual({ state: null, verifier: null, nonce: null })
    expect(page.url()).not.toContain('code=')
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === 'tip_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
    })

    // Logout also ends the provider's session (RP-initiated logout), then comes home.
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL('**/oidc/session/end**')
    await page.getByRole('button', { name: 'Yes, sign me out' }).click()
    await page.waitForURL(`${baseURL()}/`)
    expect((await page.request.get('/api/bbl/user')).status()).toBe(401)

    expect(csp).toEqual([])
    await context.close()
  })

  it('is offered in the login modal too', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/login')
    const dialog = page.getByRole('dialog', { name: 'Log in' })
    await dialog.getByTestId('sso-start').click()
    await page.waitForURL('**/oidc/interaction/**')
    expect((await stored(page)).verifier).toMatch(/^[A-Za-z0-9\-._~]{128}$/)
    await context.close()
  })

  it("signs in through the women's app entry page as that app's client", async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/login-app')
    await page.getByTestId('sso-start').click()
    await page.waitForURL('**/oidc/interaction/**')
    await signInAtProvider(page, 'sso-fan@tipping.example')
    await page.waitForURL('**/wbbl/leagues')
    expect(
      await page.evaluate(() => [
        localStorage.getItem('appUser-1'),
        localStorage.getItem('ssoSignedIn-1'),
      ]),
    ).toEqual(['wbbl', 'wbblApp'])
    await context.close()
  })

  it('refuses a callback whose state is not the stored one, in the browser', async () => {
    const { context, page } = await newPage(browser)
    const callback = await holdCallback(page, 'demo@tipping.example')
    const posts = loginPosts(page)
    expect(callback.pathname).toBe('/login/callback')
    expect(callback.searchParams.get('code')).toBeTruthy()

    const forged = new URL(callback)
    forged.searchParams.set('state', 'not-the-state-this-browser-stored')
    await page.goto(forged.toString())
    await expect
      .poll(() => page.getByTestId('sso-error').textContent())
      .toBe('This sign-in response does not match the sign-in you started (state mismatch).')
    expect(await axeViolations(page)).toEqual([])
    // Never sent to the server, the code is gone from the address bar, nobody is signed in.
    expect(posts).toEqual([])
    await expect.poll(() => page.url()).toBe(`${baseURL()}/login/callback`)
    expect((await page.request.get('/api/bbl/user')).status()).toBe(401)
    await context.close()
  })

  it('refuses a wrong nonce: the server compares it with the ID token', async () => {
    const { context, page } = await newPage(browser)
    const callback = await holdCallback(page, 'demo@tipping.example')
    // The nonce stored for this sign-in is swapped before the callback runs.
    await page.evaluate(() => localStorage.setItem('ssoNonce-1', 'a-nonce-from-another-sign-in'))
    await page.goto(callback.toString())
    await expect
      .poll(() => page.getByTestId('sso-error').textContent())
      .toBe('The ID token was issued for a different sign-in request (nonce mismatch)')
    expect((await page.request.get('/api/bbl/user')).status()).toBe(401)
    await context.close()
  })

  it('refuses a replayed code, even with the stored values put back', async () => {
    const { context, page } = await newPage(browser)
    const callback = await holdCallback(page, 'demo@tipping.example')
    const request = await stored(page)
    await page.goto(callback.toString())
    await page.waitForURL(/\/bbl\/(leagues|tipping)$/)

    // Again: the browser has forgotten the sign-in, so it refuses by itself...
    await page.goto(callback.toString())
    await expect
      .poll(() => page.getByTestId('sso-error').textContent())
      .toBe('This sign-in was not started in this browser, or has already been used.')

    // ...and with state, verifier and nonce restored, the provider refuses the spent code.
    await restore(page, request)
    await page.goto(callback.toString())
    await expect
      .poll(() => page.getByTestId('sso-error').textContent())
      .toBe('This sign-in code is invalid, expired or has already been used. Please sign in again.')
    await context.close()
  })
})
