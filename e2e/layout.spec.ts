import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { apiCall, launchBrowser, newPage, uniqueEmail } from './browser.ts'
import { LAYOUT_WIDTHS, layoutProblems, settle } from './layout-check.ts'
import { LEAGUE_NAME_MAX } from '@tipping/contract/constants'
import { TEAM_NAME_MAX } from '@tipping/contract/auth'
import { ACCOUNTS, SCREENS, putContent, signIn, visit, type Who } from './screens.ts'

// Issue 27: every screen of screens.ts (each route, dialog, menu and state) at 320, 390, 768 and
// 1280 px, checked by layoutProblems: nothing wider than the screen or its scroll container, no
// clipped text, no target under 24 x 24 px; at 1280 px, its title too (titleProblem). A failing screen is pictured in
// $TMPDIR/layout-failures/ so the report can be looked at, not only read.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

// The landing page and its dialogs are titled with the site's (or the game's) name alone.
const LANDING = new Set(['/', '/bbl', '/wbbl', '/login', '/registration', '/forgot-password'])

/**
 * Decision 042: a page other than the landing is titled after its heading (the heading's words
 * are in the title, and the title is more than the site's name). Null when it is.
 */
async function titleProblem(page: Page): Promise<string | null> {
  const { title, heading, path } = await page.evaluate(() => ({
    title: document.title,
    heading: document.querySelector('main h1')?.textContent?.trim() ?? null,
    path: location.pathname,
  }))
  if (LANDING.has(path) || heading === null) return null
  if (/^(Big Bash|W?BBL) Tipping$/.test(title) || !title.includes(heading))
    return `${path} is titled "${title}", not after its heading "${heading}"`
  return null
}

async function picture(page: Page, name: string): Promise<void> {
  const dir = path.join(os.tmpdir(), 'layout-failures')
  fs.mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`) })
}

describe.each(LAYOUT_WIDTHS)('at %i px', (width) => {
  const pages = new Map<Who, { context: BrowserContext; page: Page }>()
  beforeAll(async () => {
    for (const who of ['visitor', 'tipper', 'admin'] as const) {
      const opened = await newPage(browser, { width, height: 800 })
      await opened.page.emulateMedia({ reducedMotion: 'reduce' })
      if (who !== 'visitor') await signIn(opened.page, ACCOUNTS[who])
      pages.set(who, opened)
    }
  })
  afterAll(async () => {
    for (const { context } of pages.values()) await context.close()
  })

  it.each(SCREENS.filter((s) => !s.when || s.when(width)).map((s) => [s.name, s] as const))(
    '%s fits',
    async (_name, state) => {
      const { page } = pages.get(state.who)!
      await state.open(page)
      await settle(page)
      const problems = await layoutProblems(page)
      if (problems.length > 0) await picture(page, `${width}-${state.name}`)
      expect(problems).toEqual([])
      // Titles do not depend on the width: checked once, on the screens already open here.
      if (width === 1280) expect(await titleProblem(page)).toBeNull()
    },
  )
})

describe('site-wide bars and the offseason page', () => {
  let admin: { context: BrowserContext; page: Page }
  const put = async (key: string, value: unknown) =>
    expect(await putContent(admin.page, key, value)).toBe(200)
  const long =
    'Finals week is here: every tip counts double, and the league ladders close on Sunday night'
  beforeAll(async () => {
    admin = await newPage(browser, { width: 1280, height: 800 })
    await signIn(admin.page, ACCOUNTS.admin)
  })
  afterAll(async () => {
    await put('notification_bars', {
      bbl: { isEnabled: false, message: '' },
      wbbl: { isEnabled: false, message: '' },
    })
    await put('top_banner', { isEnabled: false, message: '', url: null })
    await put('site_switches', { offseason: false, loginEnabled: true })
    await admin.context.close()
  })

  it.each(LAYOUT_WIDTHS)('the notification bar and top banner fit at %i px', async (width) => {
    await put('notification_bars', {
      bbl: { isEnabled: true, message: long },
      wbbl: { isEnabled: false, message: '' },
    })
    await put('top_banner', { isEnabled: true, message: long, url: null })
    const { context, page } = await newPage(browser, { width, height: 800 })
    await signIn(page, ACCOUNTS.tipper)
    await visit(page, '/bbl/tipping', '[data-testid="notification-bar"]')
    await page.getByTestId('top-banner').waitFor()
    await settle(page)
    const problems = await layoutProblems(page)
    await context.close()
    expect(problems).toEqual([])
  })

  it.each(LAYOUT_WIDTHS)('the offseason page fits at %i px, signed out and in', async (width) => {
    await put('site_switches', { offseason: true, loginEnabled: true })
    const { context, page } = await newPage(browser, { width, height: 800 })
    await visit(page, '/', '[data-testid="offseason-page"]')
    await settle(page)
    const problems = { visitor: await layoutProblems(page), tipper: [] as string[] }
    // A signed-in player's card tells them their account carries over, with their address.
    await signIn(page, ACCOUNTS.tipper)
    await visit(page, '/', '[data-testid="prereg-signed-in"]')
    await settle(page)
    problems.tipper = await layoutProblems(page)
    await context.close()
    await put('site_switches', { offseason: false, loginEnabled: true })
    expect(problems).toEqual({ visitor: [], tipper: [] })
  })
})

// Names as players choose them: a team and a league named with one long word each (the longest
// the contract allows, no space to break at). Every page that shows them must still fit a phone:
// headings, ladder and member rows, the head-to-head, the invite dialog and the admin's list wrap
// or truncate with the whole name in a title, never scroll the page sideways.
describe('long unbroken names', () => {
  const teamName = 'Thunderbolts'.repeat(4).slice(0, TEAM_NAME_MAX)
  const leagueName = 'Supercalifragilisticexpialidocious'.repeat(2).slice(0, LEAGUE_NAME_MAX)
  let leagueId = 0
  const register = async (page: Page, email: string, team: string | null) => {
    await page.goto('/')
    const res = await page.request.post('/api/bbl/auth/register', {
      data: {
        email,
        password: 'a long password',
        firstName: 'Wrapping',
        lastName: 'Tester',
        ...(team ? { team_name: team } : {}),
      },
    })
    expect(res.status()).toBe(200)
  }
  const owner = { email: uniqueEmail('long-names-owner'), password: 'a long password' }

  beforeAll(async () => {
    const boss = await newPage(browser, { width: 1280, height: 800 })
    await register(boss.page, owner.email, teamName)
    const { league } = await apiCall<{ league: { id: number; code: string } }>(
      boss.page,
      'POST',
      '/api/bbl/league',
      { name: leagueName, privacy: 'public', startRound: 8 },
    )
    leagueId = league.id
    const friend = await newPage(browser, { width: 1280, height: 800 })
    await register(friend.page, uniqueEmail('long-names-friend'), null)
    await apiCall(friend.page, 'POST', `/api/bbl/league/${league.code}/join`, {})
    await boss.context.close()
    await friend.context.close()
  })

  it.each([320, 390] as const)('fit at %i px', async (width) => {
    const player = await newPage(browser, { width, height: 800 })
    await signIn(player.page, owner)
    const admin = await newPage(browser, { width, height: 800 })
    await signIn(admin.page, ACCOUNTS.admin)
    const search = async (page: Page) => {
      await page.getByLabel('Name, code or commissioner email').fill(leagueName)
      await page.getByRole('button', { name: 'Search' }).click()
      await page.locator('tbody tr', { hasText: leagueName.slice(0, 20) }).waitFor()
    }
    const screens: [Page, string, string, ((page: Page) => Promise<void>)?][] = [
      [player.page, '/bbl/leagues', `a:has-text("${leagueName.slice(0, 20)}")`],
      [player.page, `/bbl/league/${leagueId}/ladder`, 'tbody tr'],
      [player.page, `/bbl/league/${leagueId}/ladder?invite=1`, '[role="dialog"]'],
      [player.page, `/bbl/league/${leagueId}/members`, 'li:has-text("Commissioner")'],
      [player.page, `/bbl/league/${leagueId}/settings`, 'input[name="name"]'],
      [player.page, `/bbl/league/${leagueId}/head-to-head`, 'h2'],
      [player.page, '/bbl/account', 'input[name="team_name"]'],
      [admin.page, '/admin/leagues', 'tbody tr', search],
    ]
    const problems: Record<string, string[]> = {}
    for (const [page, path, ready, then] of screens) {
      await visit(page, path, ready)
      await then?.(page)
      await settle(page)
      const found = await layoutProblems(page)
      if (found.length > 0) {
        problems[path] = found
        await picture(page, `${width}-long-names-${path}`)
      }
    }
    await player.context.close()
    await admin.context.close()
    expect(problems).toEqual({})
  })
})
