import AxeBuilder from '@axe-core/playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { LeagueHonoursResponse, LeagueListResponse } from '@tipping/contract/leagues'
import type { LeagueLadderResponse } from '@tipping/contract/scores'
import { tipperName } from '@tipping/contract/names'
import { apiCall, launchBrowser, newPage, signInDemo } from './browser.ts'

// Issue 31 "Leagues with a memory" on the demo's league in Chromium: the week winners the API
// names are the first of that week's ladder, the ladder shows a star beside them and the chosen
// week's winners above it, the overall ladder says what is still to play for, and the members
// list carries each member's weeks won; axe finds nothing on the ladder.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('league honours on the demo league', () => {
  it('shows the week winners, their trophies, the points left and members’ honours', async () => {
    const { page } = await newPage(browser, { width: 1280, height: 800 })
    await signInDemo(page)
    const own = await apiCall<LeagueListResponse>(page, 'GET', '/api/bbl/leagues?page=1')
    const league = own.leagues.find((l) => l.name === 'The Demo Desk')!
    expect(league).toBeDefined()
    const honours = await apiCall<LeagueHonoursResponse>(
      page,
      'GET',
      `/api/bbl/league/${league.id}/honours`,
    )
    // The demo is in week 3: weeks 1 and 2 are complete, each has a winner.
    expect(honours.rounds.map((r) => r.round)).toEqual([1, 2])
    expect(honours.remaining.maxPoints).toBeGreaterThan(0)
    for (const h of honours.rounds) {
      const week = await apiCall<LeagueLadderResponse>(
        page,
        'GET',
        `/api/bbl/rankings/${league.id}/rankings?round=${h.round}&page=1`,
      )
      const firsts = week.rankings.filter((r) => r.rank === 1)
      expect(h.winnerCount).toBe(firsts.length)
      expect(h.winners.map((w) => w.userId).sort()).toEqual(firsts.map((r) => r.userId).sort())
      expect([h.points, h.margin]).toEqual([firsts[0]!.points, firsts[0]!.margin])
    }

    // The overall ladder: a star beside a week's winner, and what is still to play for.
    await page.goto(`/bbl/league/${league.id}/ladder`)
    const winner = honours.rounds[0]!.winners[0]!
    const row = page.locator('tbody tr', { hasText: tipperName(winner) }).first()
    await row.getByText(/won \d+ weeks?/).waitFor({ state: 'attached' })
    const note = page.getByTestId('still-to-play-for')
    expect(await note.textContent()).toContain(
      `${honours.remaining.maxPoints} points are still to play for`,
    )
    const axe = await new AxeBuilder({ page }).analyze()
    expect(axe.violations.map((v) => v.id)).toEqual([])

    // Week 1 chosen: its winners above its ladder.
    await page.locator('#league-ladder-round').selectOption({ value: '1' })
    const banner = page.getByTestId('week-winners')
    await banner.getByText(tipperName(winner)).waitFor()
    expect(await banner.textContent()).toContain(
      `${honours.rounds[0]!.points} pts, margin ${honours.rounds[0]!.margin}`,
    )

    // Members: the winner's weeks won under their name.
    await page.getByRole('link', { name: 'Members' }).click()
    const members = page.getByRole('region', { name: 'Members' })
    await members.locator('li').first().waitFor()
    // Every page of members, so the winner is listed wherever they joined.
    const more = members.getByRole('button', { name: 'Load more' })
    while (await more.isVisible()) {
      await more.click()
      await page.waitForTimeout(300)
    }
    const member = members.locator('li', { hasText: tipperName(winner) })
    await member.getByText(/Won weeks? /).waitFor()
  })
})
