import AxeBuilder from '@axe-core/playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { SessionResponse } from '@tipping/contract/auth'
import type { HeadToHeadResponse } from '@tipping/contract/head-to-head'
import type { LeagueLadderResponse } from '@tipping/contract/scores'
import { apiCall, launchBrowser, newPage, signInDemo } from './browser.ts'
import { layoutProblems, settle } from './layout-check.ts'

// The league head-to-head (issue 31) in Chromium on the demo league: reached from the league's
// tabs, me against the leader by default, the API's record on screen, a chosen week's differing
// tips listed (finished matches only), accessible and fitting a phone and a desktop.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe.each([
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const)('head-to-head at %s width', (_name, viewport) => {
  it('shows me against the leader as the API has it, and a week’s differences', async () => {
    const { context, page } = await newPage(browser, viewport)
    await signInDemo(page)
    await page
      .getByRole('link', { name: /The Demo Desk/ })
      .first()
      .click()
    await page.getByRole('table').locator('tbody tr').first().waitFor()
    await page.getByRole('link', { name: 'Head-to-head' }).click()
    await page.waitForURL(/\/bbl\/league\/\d+\/head-to-head/)
    await page.getByRole('heading', { name: /^Rounds won/ }).waitFor()

    const leagueId = Number(/league\/(\d+)\//.exec(page.url())![1])
    const me = (await apiCall<SessionResponse>(page, 'GET', '/api/session')).user!.id
    const ladder = await apiCall<LeagueLadderResponse>(
      page,
      'GET',
      `/api/bbl/rankings/${leagueId}/rankings`,
    )
    const leader = ladder.rankings.find((r) => r.userId !== me)!.userId
    const h2h = await apiCall<HeadToHeadResponse>(
      page,
      'GET',
      `/api/bbl/league/${leagueId}/head-to-head?a=${me}&b=${leader}`,
    )
    // The demo is in round 3: rounds 1 and 2 are complete and decided.
    expect(h2h.rounds.filter((r) => r.winner !== null).length).toBeGreaterThanOrEqual(2)
    expect(h2h.a.won + h2h.b.won + h2h.drawn).toBe(
      h2h.rounds.filter((r) => r.winner !== null).length,
    )
    const won = (which: string) => page.locator(`[data-h2h="${which}"] strong`)
    expect(await won('a').textContent()).toBe(String(h2h.a.won))
    expect(await won('b').textContent()).toBe(String(h2h.b.won))
    expect(await page.locator('[data-h2h="drawn"] dd').textContent()).toBe(String(h2h.drawn))
    const byRound = page.getByRole('table', { name: 'Round by round' }).locator('tbody tr')
    expect(await byRound.count()).toBe(h2h.rounds.length)

    // Week 1: the rows are the API's differences, every one on a finished match.
    await page.getByLabel('Week', { exact: true }).selectOption('1')
    await page.waitForURL(/round=1/)
    const week1 = await apiCall<HeadToHeadResponse>(
      page,
      'GET',
      `/api/bbl/league/${leagueId}/head-to-head?a=${me}&b=${leader}&round=1`,
    )
    expect(week1.tips!.round).toBe(1)
    const rows = page.getByRole('table', { name: 'Tips that differed' }).locator('tbody tr')
    if (week1.tips!.differences.length === 0)
      await page.getByText('No differences in week 1.').waitFor()
    else await expect.poll(() => rows.count()).toBe(week1.tips!.differences.length)
    // The week in play: no tip on a match still to finish is ever in the answer.
    const now = await apiCall<HeadToHeadResponse>(
      page,
      'GET',
      `/api/bbl/league/${leagueId}/head-to-head?a=${me}&b=${leader}&round=3`,
    )
    const round3 = await apiCall<{ matches: { id: number; status: string }[] }>(
      page,
      'GET',
      '/api/bbl/predictions/3',
    )
    const finished = new Set(round3.matches.filter((m) => m.status === 'complete').map((m) => m.id))
    expect(finished.size).toBeLessThan(round3.matches.length)
    for (const d of now.tips!.differences) expect(finished.has(d.match)).toBe(true)

    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze()
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
    ).toEqual([])
    await settle(page)
    expect(await layoutProblems(page)).toEqual([])
    await context.close()
  })
})

describe('head-to-head in the dark scheme', () => {
  it('has no axe violations and fits a phone', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await page.emulateMedia({ colorScheme: 'dark' })
    await signInDemo(page)
    await page
      .getByRole('link', { name: /The Demo Desk/ })
      .first()
      .click()
    await page.getByRole('link', { name: 'Head-to-head' }).click()
    await page.getByRole('heading', { name: /^Rounds won/ }).waitFor()
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze()
    expect(axe.violations.map((v) => v.id)).toEqual([])
    await settle(page)
    expect(await layoutProblems(page)).toEqual([])
    await context.close()
  })
})

describe('head-to-head from a ladder row', () => {
  it('opens another member’s row and compares me with them', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await signInDemo(page)
    await page
      .getByRole('link', { name: /The Demo Desk/ })
      .first()
      .click()
    // The leagues page has a table too (the team ladder): wait for the league's own page.
    await page.waitForURL(/\/bbl\/league\/\d+/)
    await page
      .getByRole('table', { name: /The Demo Desk ladder/ })
      .locator('tbody tr')
      .first()
      .waitFor()
    const me = (await apiCall<SessionResponse>(page, 'GET', '/api/session')).user!.id
    const leagueId = Number(/league\/(\d+)/.exec(page.url())![1])
    const ladder = await apiCall<LeagueLadderResponse>(
      page,
      'GET',
      `/api/bbl/rankings/${leagueId}/rankings`,
    )
    const other = ladder.rankings.find((r) => r.userId !== me)!
    // The first ladder row that is not mine is `other` (the ladder's order is the API's).
    const index = ladder.rankings.indexOf(other)
    await page.locator('tbody tr button[aria-expanded]').nth(index).click()
    const link = page.getByRole('link', { name: /^Head-to-head with / })
    await link.waitFor()
    // My own open row offers no head-to-head with myself.
    expect(await link.count()).toBe(1)
    await link.click()
    await page.waitForURL(new RegExp(`/bbl/league/${leagueId}/head-to-head\\?b=${other.userId}$`))
    await page.getByRole('heading', { name: /^Rounds won/ }).waitFor()
    expect(await page.getByLabel('Against', { exact: true }).inputValue()).toBe(
      String(other.userId),
    )
    await context.close()
  })
})
