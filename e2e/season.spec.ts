import AxeBuilder from '@axe-core/playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { RoundExplanation, Season, SeasonLeague } from '@tipping/contract/season'
import { baseURL, launchBrowser, newPage, signInDemo } from './browser.ts'
import { layoutProblems, settle } from './layout-check.ts'

// The My season page (issue 31) in Chromium against the demo: reached from the header menu, its
// numbers are the API's, a chosen week is explained, and it is accessible and fits at a phone's
// and a desktop's width.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const apiGet = async <T>(page: Page, path: string): Promise<T> => {
  const res = await page.request.get(path)
  expect(res.status()).toBe(200)
  return ((await res.json()) as { success: T }).success
}
const stat = (page: Page, name: string) => page.locator(`[data-stat="${name}"]`)

describe.each([
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const)('My season at %s width', (_name, viewport) => {
  it('shows the API’s numbers, explains a chosen week, has no axe violations and fits', async () => {
    const { context, page } = await newPage(browser, viewport)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await signInDemo(page)
    // From the header menu (folded behind its toggle on a phone).
    if (viewport.width < 640) await page.getByRole('button', { name: 'Open menu' }).click()
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My season' })
      .click()
    await page.waitForURL('**/bbl/season')
    await stat(page, 'round-points').waitFor()

    const season = await apiGet<Season>(page, '/api/bbl/season')
    // The demo is in round 3: earlier rounds are complete, so there is something to show.
    expect(season.rounds.length).toBeGreaterThanOrEqual(2)
    expect(season.tips.judged).toBeGreaterThan(0)
    expect(await stat(page, 'correct').textContent()).toContain(
      `${season.tips.correct} of ${season.tips.judged}`,
    )
    expect(await stat(page, 'longest').textContent()).toMatch(
      new RegExp(`^${season.streaks.longest}(?!\\d)`),
    )
    expect(await stat(page, 'current').textContent()).toMatch(
      new RegExp(`^${season.streaks.current}(?!\\d)`),
    )
    expect(await stat(page, 'sweeps').textContent()).toMatch(
      new RegExp(`^${season.cleanSweeps.length}(?!\\d)`),
    )
    expect(await stat(page, 'autos').textContent()).toContain(
      `${season.autoTips.wrong} wrong, ${season.autoTips.notCounted} right but not counted`,
    )

    // The chart's table (for screen readers) has a row per round with the API's figures.
    const table = page.getByRole('table', { name: /Points per round/ })
    const rows = table.locator('tbody tr')
    expect(await rows.count()).toBe(season.rounds.length)
    const first = season.rounds[0]!
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      String(first.points),
      first.average === null ? '–' : String(first.average),
      String(first.best),
    ])
    // The drawing itself: a bar per round for me and for the round's best.
    expect(
      await page
        .getByRole('region', { name: 'Points per round', exact: true })
        .locator('svg rect')
        .count(),
    ).toBe(2 * season.rounds.length)

    // The same for a league: the demo league chosen, its charts and table are the API's.
    const leagues = page.getByRole('region', { name: 'In my leagues' })
    const option = leagues.locator('#season-league-select option', { hasText: 'The Demo Desk' })
    const id = Number(await option.first().getAttribute('value'))
    await leagues.getByLabel('League').selectOption(String(id))
    const inLeague = await apiGet<SeasonLeague>(page, `/api/bbl/season/leagues/${id}`)
    expect(inLeague.rounds.length).toBeGreaterThanOrEqual(1)
    const charts = leagues.locator(`[data-league-charts="${id}"]`)
    await charts.waitFor()
    const leagueRows = leagues
      .getByRole('table', { name: /^The Demo Desk: my points per round/ })
      .locator('tbody tr')
    expect(await leagueRows.count()).toBe(inLeague.rounds.length)
    const r0 = inLeague.rounds[0]!
    expect(await leagueRows.first().locator('td').allTextContents()).toEqual([
      String(r0.points),
      r0.average === null ? '–' : String(r0.average),
      String(r0.best),
      r0.rank === null ? 'not ranked' : r0.rank.toLocaleString('en-AU'),
      r0.tippers.toLocaleString('en-AU'),
    ])
    expect(await charts.locator('svg rect').count()).toBe(2 * inLeague.rounds.length)
    const rankedWeeks = inLeague.rounds.filter((r) => r.rank !== null).length
    expect(await charts.locator('svg circle').count()).toBe(rankedWeeks)

    // The latest week is explained first; choosing week 1 explains it.
    const latest = await apiGet<RoundExplanation>(
      page,
      `/api/bbl/season/rounds/${season.rounds.at(-1)!.round}`,
    )
    expect(await stat(page, 'round-points').textContent()).toBe(String(latest.points))
    await page.locator('#season-round-select').selectOption(String(first.round))
    const week1 = await apiGet<RoundExplanation>(page, `/api/bbl/season/rounds/${first.round}`)
    await page.waitForFunction(
      ([points, rank]) =>
        document.querySelector('[data-stat="round-points"]')?.textContent === points &&
        document.querySelector('[data-stat="round-rank"]')?.textContent === rank,
      [String(week1.points), week1.roundRank ? String(week1.roundRank) : '–'] as const,
    )
    expect(week1.points).toBe(first.points)
    const why = page.getByRole('region', { name: 'Why my rank is what it is' })
    expect(await why.locator('tbody tr').count()).toBe(week1.tips.length)
    await why.getByText(week1.tieBreak).waitFor()

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

describe('The rank line on My season', () => {
  it('is reached from the score header’s rank, and ends at that rank', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 })
    await signInDemo(page)
    await page.goto('/bbl/tipping')
    await page.waitForFunction(() =>
      /\d/.test(document.querySelector('[data-testid="overall-rank"]')?.textContent ?? ''),
    )
    const headerRank = await page.getByTestId('overall-rank').textContent()
    await page.getByTestId('my-season-link').click()
    await page.waitForURL('**/bbl/season')
    // The scheduler counts the history in its first pass after start-up.
    const rankNow = page.locator('[data-rank-now]')
    await rankNow.waitFor({ timeout: 20_000 })
    const season = await apiGet<Season>(page, '/api/bbl/season')
    const ranked = season.rounds.filter((r) => r.rank !== null)
    expect(ranked.length).toBeGreaterThanOrEqual(2)
    const last = ranked.at(-1)!
    expect(await rankNow.textContent()).toContain(`After week ${last.round}: `)
    expect(await rankNow.locator('strong').textContent()).toBe(last.rank!.toLocaleString('en-AU'))
    // After the last week played, the line ends at the score header's rank.
    if (last.round === season.rounds.at(-1)!.round)
      expect(headerRank).toBe(last.rank!.toLocaleString('en-AU'))
    // A dot per ranked week, and the table says the same.
    const section = page.getByRole('region', { name: 'Overall rank after each round' })
    expect(await section.locator('svg circle').count()).toBe(ranked.length)
    const table = page.getByRole('table', { name: /overall rank after each round/ })
    expect(await table.locator('tbody tr td').first().textContent()).toBe(
      season.rounds[0]!.rank === null
        ? 'not counted yet'
        : season.rounds[0]!.rank.toLocaleString('en-AU'),
    )
    expect(await layoutProblems(page)).toEqual([])
    await context.close()
  })
})

describe("My season of the women's competition", () => {
  it('has its own numbers, equal to its API, and no axe violations in the dark scheme', async () => {
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
    })
    const page = await context.newPage()
    await signInDemo(page)
    await page.goto('/wbbl/season')
    await stat(page, 'round-points').waitFor()
    const season = await apiGet<Season>(page, '/api/wbbl/season')
    expect(await stat(page, 'correct').textContent()).toContain(
      `${season.tips.correct} of ${season.tips.judged}`,
    )
    const rows = page.getByRole('table', { name: /Points per round/ }).locator('tbody tr')
    expect(await rows.count()).toBe(season.rounds.length)
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze()
    expect(axe.violations.map((v) => v.id)).toEqual([])
    expect(await layoutProblems(page)).toEqual([])
    await context.close()
  })
})

describe('My season with a league chosen, in the dark scheme', () => {
  it('draws the league’s charts with no axe violations and fits a phone', async () => {
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
    })
    const page = await context.newPage()
    await signInDemo(page)
    await page.goto('/bbl/season')
    const select = page.locator('#season-league-select')
    await select.waitFor()
    const option = select.locator('option', { hasText: 'The Demo Desk' })
    await select.selectOption((await option.first().getAttribute('value')) ?? '')
    await page.locator('[data-league-charts] svg rect').first().waitFor()
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze()
    expect(axe.violations.map((v) => v.id)).toEqual([])
    expect(await layoutProblems(page)).toEqual([])
    await context.close()
  })
})
