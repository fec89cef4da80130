import type { Page } from 'playwright-core'
import { DEV_RECEIPT_SECRET } from '../packages/server/src/config.ts'
import { unsubscribeToken } from '../packages/server/src/modules/mail/unsubscribe.ts'

// Every screen of the app as a player or the operator reaches it: each route, dialog, menu and
// state worth seeing. The layout check (layout.spec.ts) runs over all of them at four widths and
// the screenshot script (take-screenshots.ts) pictures them, so a new route or dialog gets one
// line here and is both checked and pictured.

export type Who = 'visitor' | 'tipper' | 'admin'
export interface Screen {
  /** The test's name; the screenshot's file name is made from it. */
  name: string
  who: Who
  open: (page: Page) => Promise<void>
  /** Only at these widths (a state that exists only on phones, for instance). */
  when?: (width: number) => boolean
}

export const ACCOUNTS = {
  tipper: { email: 'demo@tipping.example', password: 'tip-the-bash' },
  admin: { email: 'admin@tipping.example', password: 'run-the-bash' },
}

export const visit = async (page: Page, path: string, ready: string) => {
  await page.goto(path)
  await page.locator(ready).first().waitFor()
}
/** The demo's league from the leagues page, as a player opens it: a link in the page. */
export const openLeague = async (page: Page) => {
  await visit(page, '/bbl/leagues', 'a:has-text("The Demo Desk")')
  await page
    .getByRole('link', { name: /The Demo Desk/ })
    .first()
    .click()
  await page.getByRole('table').locator('tbody tr').first().waitFor()
}
const dialog = (page: Page) => page.getByRole('dialog').first().waitFor()
/**
 * The week after or before: waits for its label and its matches in place of the last week's (a
 * condition, not a fixed 500 ms).
 */
const changeRound = async (page: Page, arrow: 'round-prev' | 'round-next') => {
  const before = await page.getByTestId('round-label').innerText()
  await page.getByTestId(arrow).click()
  await page.waitForFunction((label) => {
    const now = document.querySelector('[data-testid="round-label"]')?.textContent ?? ''
    const grid = document.querySelector('section[aria-label="Matches"]')
    return (
      now.trim() !== label.trim() &&
      grid?.getAttribute('aria-busy') === 'false' &&
      grid.querySelector('[data-testid^="match-card-"]') !== null
    )
  }, before)
}
const heading = 'main h1, main h2'

export const SCREENS: Screen[] = [
  // Before signing in.
  { name: 'landing', who: 'visitor', open: (p) => visit(p, '/', '[data-testid="login-open"]') },
  {
    name: 'landing (wbbl)',
    who: 'visitor',
    open: (p) => visit(p, '/wbbl', '[data-testid="login-open"]'),
  },
  { name: 'login dialog', who: 'visitor', open: (p) => visit(p, '/login', 'input[name="email"]') },
  {
    name: 'sign-up dialog',
    who: 'visitor',
    open: (p) => visit(p, '/registration', 'input[name="firstName"]'),
  },
  {
    name: 'sign-up dialog, every error',
    who: 'visitor',
    open: async (p) => {
      await visit(p, '/registration', 'input[name="firstName"]')
      await p.locator('form button[type="submit"]').click()
      await p.locator('[aria-invalid="true"]').first().waitFor()
    },
  },
  {
    name: 'forgot-password dialog',
    who: 'visitor',
    open: (p) => visit(p, '/forgot-password', 'input[name="email"]'),
  },
  {
    name: 'reset password',
    who: 'visitor',
    open: (p) => visit(p, '/reset-password?token=not-a-real-token', 'input[type="password"]'),
  },
  {
    name: 'sign-in callback, failed',
    who: 'visitor',
    open: (p) => visit(p, '/login/callback?error=access_denied', '[data-testid="sso-error"]'),
  },
  { name: 'terms', who: 'visitor', open: (p) => visit(p, '/terms', 'h1') },
  { name: 'privacy policy', who: 'visitor', open: (p) => visit(p, '/privacy-policy', 'h1') },
  { name: 'help (FAQ)', who: 'visitor', open: (p) => visit(p, '/bbl/help', heading) },
  {
    name: 'help (game rules)',
    who: 'visitor',
    open: (p) => visit(p, '/wbbl/help/game-rules', heading),
  },
  {
    name: 'contact, every error',
    who: 'visitor',
    open: async (p) => {
      await visit(p, '/bbl/help/contact', '[data-testid="contact-submit"]')
      await p.getByTestId('contact-submit').click()
      await p.locator('[aria-invalid="true"]').first().waitFor()
    },
  },
  { name: 'not found', who: 'visitor', open: (p) => visit(p, '/no/such/page', 'h1') },
  // A reminder's unsubscribe link (decision 043), as its GET shows it: it only asks. Signed with
  // the development key, as the demo and the end-to-end server sign.
  {
    name: 'unsubscribe link',
    who: 'visitor',
    open: (p) =>
      visit(p, `/unsubscribe/${unsubscribeToken(DEV_RECEIPT_SECRET, 1, 'reminders')}`, 'h1'),
  },

  // A signed-in tipper.
  {
    name: 'tipping, open round',
    who: 'tipper',
    open: (p) => visit(p, '/bbl/tipping', '[data-testid^="match-card-"]'),
  },
  {
    name: 'tipping, form guide open',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      await p
        .getByRole('button', { name: /form guide/i })
        .first()
        .click()
      await p.getByRole('region', { name: 'Form guide' }).first().waitFor()
    },
  },
  {
    name: 'tipping, finished round',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      await changeRound(p, 'round-prev')
    },
  },
  {
    name: 'tipping, next round',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      await changeRound(p, 'round-next')
    },
  },
  {
    name: 'tipping, picks made (footer)',
    who: 'tipper',
    open: async (p) => {
      // Every open match picked by hand (Autopick saves: the next width would find nothing
      // to pick), so the footer shows Clear All.
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      for (const card of await p.locator('[data-testid^="match-card-"]').all()) {
        if ((await card.locator('[aria-pressed="true"]').count()) > 0) continue
        const open = card.locator('[data-testid^="pick-"]:not([disabled])')
        if ((await open.count()) > 0) await open.first().click()
      }
      await p.getByTestId('clear-all').waitFor()
    },
  },
  {
    name: 'tipping, a refused save (footer note)',
    who: 'tipper',
    open: async (p) => {
      // The save answered as the server answers once a match has started (lockout.spec.ts drives
      // the real one); here only the note's place at each width matters, and nothing is saved.
      await p.route('**/api/bbl/predictions_list', (route) =>
        route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({
            errors: [{ code: 'CONFLICT', message: 'This match has started', param: null }],
          }),
        }),
      )
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      await p
        .locator('[data-testid^="pick-"]:not([disabled]):not([aria-pressed="true"])')
        .first()
        .click()
      await p.getByTestId('save-picks').click()
      await p.getByRole('alert').filter({ hasText: 'This match has started' }).waitFor()
      // The page serves the next screens too: their saves reach the server again.
      await p.unroute('**/api/bbl/predictions_list')
    },
  },
  {
    name: 'tipping (wbbl)',
    who: 'tipper',
    open: (p) => visit(p, '/wbbl/tipping', '[data-testid^="match-card-"]'),
  },
  {
    name: 'share dialog',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      await p.getByRole('button', { name: 'Share your score' }).click()
      await dialog(p)
    },
  },
  {
    name: 'menu',
    who: 'tipper',
    when: (w) => w < 640,
    open: async (p) => {
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      await p.getByRole('button', { name: 'Open menu' }).click()
      await p.locator('#main-menu').waitFor()
      // Every sub-menu open too (the leagues list, when the menu folds it).
      for (const toggle of await p.locator('#main-menu [aria-expanded="false"]').all()) {
        await toggle.click()
      }
      await p.waitForFunction(() => !document.querySelector('#main-menu [aria-expanded="false"]'))
    },
  },
  {
    name: 'leagues',
    who: 'tipper',
    open: (p) => visit(p, '/bbl/leagues', 'a:has-text("The Demo Desk")'),
  },
  { name: 'league ladder', who: 'tipper', open: openLeague },
  {
    name: 'league ladder, a tipper opened',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.locator('tbody button[aria-expanded]').first().click()
      await p.getByRole('list', { name: /Tips for/ }).waitFor()
    },
  },
  {
    name: 'league ladder, one round',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.locator('#league-ladder-round').selectOption({ index: 1 })
      await p.waitForTimeout(500)
    },
  },
  {
    name: 'invite dialog',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.getByRole('button', { name: 'Invite friends' }).click()
      await dialog(p)
    },
  },
  {
    name: 'league members',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.getByRole('link', { name: 'Members' }).click()
      await p.getByRole('region', { name: 'Members' }).locator('li').first().waitFor()
    },
  },
  {
    name: 'league settings',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.getByRole('link', { name: 'Settings' }).click()
      await p.locator('main form, main button').first().waitFor()
      await p.waitForTimeout(300)
    },
  },
  {
    name: 'create league, every error',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/leagues/create', 'input[name="name"]')
      await p.getByRole('button', { name: 'Create league' }).click()
      await p.locator('[aria-invalid="true"]').first().waitFor()
    },
  },
  {
    name: 'join league, search results',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/leagues/join', 'input[name="search"]')
      await p.locator('input[name="search"]').fill('Bash')
      await p.getByRole('button', { name: 'Search' }).click()
      await p.getByRole('list', { name: 'Public leagues' }).locator('li').first().waitFor()
    },
  },
  {
    name: 'rankings',
    who: 'tipper',
    open: (p) => visit(p, '/bbl/rankings', 'table tbody tr'),
  },
  {
    name: 'my season',
    who: 'tipper',
    open: (p) => visit(p, '/bbl/season', '[data-stat="round-points"]'),
  },
  {
    name: 'account',
    who: 'tipper',
    open: (p) => visit(p, '/bbl/account', 'input[name="email"], form'),
  },
  {
    name: 'deactivate dialog',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/account', '[data-testid="deactivate-open"]')
      await p.getByTestId('deactivate-open').click()
      await dialog(p)
    },
  },
  { name: 'help, signed in', who: 'tipper', open: (p) => visit(p, '/bbl/help', heading) },

  // The operator.
  ...['', '/matches', '/content', '/users', '/leagues', '/emails', '/audit', '/health'].map(
    (path): Screen => ({
      name: `admin${path || ' (competitions)'}`,
      who: 'admin',
      open: async (p) => {
        await visit(p, `/admin${path}`, 'main h1, main h2')
        await p.waitForLoadState('networkidle')
      },
    }),
  ),
  {
    name: 'admin matches, live score form',
    who: 'admin',
    open: async (p) => {
      // The demo's match in progress is in the round the matches page opens on.
      await visit(p, '/admin/matches', 'main h1')
      await p
        .getByRole('button', { name: /^Live score of match/ })
        .first()
        .click()
      const form = p.getByRole('form', { name: /^Live score of match/ })
      await form.waitFor()
      // In view for the screenshot: on a phone the match is a few rows down.
      await form.scrollIntoViewIfNeeded()
    },
  },
  {
    name: 'my tips history',
    who: 'tipper',
    open: (p) =>
      visit(p, '/bbl/tips-history', '[aria-label="Saves"], [data-testid="history-empty"]'),
  },
  {
    name: 'tipping, a pick kept offline (banner, kept tips)',
    who: 'tipper',
    open: async (p) => {
      // The week loads, then no call reaches the API, as with no signal (offline.spec.ts cuts
      // the real network): the save is kept on the device, the banner and the kept tips panel
      // show. Routed on the context, so the service worker's own fetches fail too. The kept
      // pick is sent (and saved) when a later screen's page comes back to the front.
      await visit(p, '/bbl/tipping', '[data-testid^="match-card-"]')
      const api = '**/api/**'
      await p.context().route(api, (route) => route.abort('internetdisconnected'))
      try {
        await p
          .locator('[data-testid^="pick-"]:not([disabled]):not([aria-pressed="true"])')
          .first()
          .click()
        await p.getByTestId('save-picks').click()
        await p.getByTestId('offline-banner').waitFor()
        await p.getByTestId('kept-tips').waitFor()
      } finally {
        await p.context().unroute(api)
      }
    },
  },
  {
    name: 'league head-to-head',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.getByRole('link', { name: 'Head-to-head' }).click()
      await p.getByRole('heading', { name: /^Rounds won/ }).waitFor()
    },
  },
  // Issue 31: the season archive and a renewed league's past seasons (the demo's 2024-25).
  {
    name: 'season archive',
    who: 'tipper',
    open: (p) => visit(p, '/bbl/archive', 'a:has-text("2024-25")'),
  },
  {
    name: 'season archive, one season',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/archive/2024-25', 'h1')
      await p.getByRole('region', { name: 'Final rankings' }).locator('tbody tr').first().waitFor()
      await p.getByRole('region', { name: 'Team ladder' }).locator('tbody tr').first().waitFor()
    },
  },
  {
    name: 'season archive, a league’s final ladder',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/archive/2024-25', 'a:has-text("The Demo Desk")')
      await p.getByRole('link', { name: 'The Demo Desk' }).first().click()
      await p.getByRole('table').locator('tbody tr').first().waitFor()
    },
  },
  {
    name: 'league ladder, past seasons',
    who: 'tipper',
    open: async (p) => {
      await openLeague(p)
      await p.getByRole('region', { name: 'Past seasons' }).waitFor()
      // The season's week winners opened, so the check measures the longest form of the list.
      const weeks = p.getByTestId('past-week-winners').first()
      await weeks.locator('summary').click()
      await weeks.locator('li').first().waitFor()
    },
  },
  {
    name: 'My season, a league chosen',
    who: 'tipper',
    open: async (p) => {
      await visit(p, '/bbl/season', '#season-league-select')
      const option = p.locator('#season-league-select option', { hasText: 'The Demo Desk' })
      await p
        .locator('#season-league-select')
        .selectOption((await option.first().getAttribute('value')) ?? '')
      await p.locator('[data-league-charts] table').first().waitFor({ state: 'attached' })
    },
  },
]

/** Signs in through the API from inside the page (same origin: the page gets the session cookie). */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/terms')
  const status = await page.evaluate(async (body) => {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return res.status
  }, account)
  if (status !== 200) throw new Error(`sign-in of ${account.email} answered ${status}`)
}

/** An admin's content change (PUT /api/admin/content/{key}) from inside their page; its status. */
export async function putContent(page: Page, key: string, value: unknown): Promise<number> {
  return page.evaluate(
    async ({ key, value }) =>
      (
        await fetch(`/api/admin/content/${key}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(value),
        })
      ).status,
    { key, value },
  )
}
