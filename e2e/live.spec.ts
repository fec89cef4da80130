import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { SquadId } from '@tipping/contract/ids'
import type { LiveScoreBody } from '@tipping/contract/live'
import { REPO_ROOT } from '../packages/server/src/config.ts'
import { cricsheetLiveScores, cricsheetResult } from '../packages/server/src/modules/live/feed.ts'
import {
  DEMO_ADMIN,
  apiCall,
  baseURL,
  ladderPoints,
  newPage,
  signIn,
  signUp,
  uniqueEmail,
} from './browser.ts'
import { axeViolations } from './axe.ts'
import { layoutProblems, settle } from './layout-check.ts'
import { useOwnServer } from './own-server.ts'

// Issue 30, match day live: two tippers in their own browsers watch the same round while a real
// BBL match (a Cricsheet file from data/, matched to the fixture's match by its two sides) is fed
// ball by ball through the admin's live-score route, then its result. Their live cards tick and
// their league ladder moves at the result, with no reload. A third browser, whose push channel is
// blocked, still sees the score through the 31 s fallback refresh. While the match is live the
// league ladder shows the member's place in the league if each side wins, and the result replaces
// that with the real ladder, in place.

const ROUND = 3
const CRICSHEET = path.join(REPO_ROOT, 'data/source/cricsheet')

const own = useOwnServer()

interface RoundMatch {
  id: number
  status: string
  date: string
  homeSquadId: SquadId
  awaySquadId: SquadId
  isMarginGame: boolean
}

/** A Cricsheet match between the two named sides, parsed. */
function cricsheetBetween(a: string, b: string): unknown {
  const want = [a, b].sort().join('|')
  for (const season of fs.readdirSync(CRICSHEET).sort())
    for (const name of fs.readdirSync(path.join(CRICSHEET, season)).sort()) {
      const raw = JSON.parse(fs.readFileSync(path.join(CRICSHEET, season, name), 'utf8')) as {
        info: { teams: string[]; outcome: { winner?: string } }
      }
      // A match with a winner, so the result moves the ladder.
      if (raw.info.teams.slice().sort().join('|') === want && raw.info.outcome.winner) return raw
    }
  throw new Error(`No Cricsheet match between ${a} and ${b} in data/`)
}

/** The ladder page's live projection (issue 30). */
const ladderStakes = (page: Page) => page.getByRole('region', { name: /^Live: your place here/ })

/** The text of the match's live card on a page. */
const liveCard = (page: Page) => page.getByRole('region', { name: /^Live score/ })

describe('a match played live', () => {
  it('ticks on two open pages, moves the ladder at the result, and falls back to polling', async () => {
    const alfa = await newPage(own.browser, { width: 390, height: 844 })
    const bravo = await newPage(own.browser, { width: 1280, height: 800 })
    await alfa.page.goto('/registration')
    await signUp(alfa.page, uniqueEmail('live-alfa'), 'Livealfa')
    await alfa.page.waitForURL('**/bbl/leagues')
    await bravo.page.goto('/registration')
    await signUp(bravo.page, uniqueEmail('live-bravo'), 'Livebravo')
    await bravo.page.waitForURL('**/bbl/leagues')
    const { league } = await apiCall<{ league: { id: number; code: string } }>(
      alfa.page,
      'POST',
      '/api/bbl/league',
      { name: 'Live Watchers', privacy: 'private', startRound: ROUND },
    )
    await apiCall(bravo.page, 'POST', `/api/bbl/league/${league.code}/join`, {})

    // The first match of the round still to start: Alfa tips the home side, Bravo the away side.
    const { matches } = await apiCall<{ matches: RoundMatch[] }>(
      alfa.page,
      'GET',
      `/api/bbl/predictions/${ROUND}`,
    )
    const target = matches
      .filter((m) => m.status === 'scheduled' && Date.parse(m.date) > Date.now())
      .sort((a, b) => Date.parse(a.date) - Date.parse(b.date))[0]!
    const tip = (squad: SquadId) => ({
      predictions: [{ match: target.id, squad, margin: target.isMarginGame ? 12 : null }],
    })
    await apiCall(alfa.page, 'POST', '/api/bbl/predictions_list', tip(target.homeSquadId))
    await apiCall(bravo.page, 'POST', '/api/bbl/predictions_list', tip(target.awaySquadId))
    const squads = (await (await fetch(`${baseURL()}/static/bbl/squads.json`)).json()) as {
      squads: { id: number; name: string }[]
    }
    const nameOf = (id: number) => squads.squads.find((s) => s.id === id)!.name
    const file = cricsheetBetween(nameOf(target.homeSquadId), nameOf(target.awaySquadId))
    const squadOf = (team: string) =>
      squads.squads.find((s) => s.name.toLowerCase() === team.toLowerCase())!.id as SquadId
    const balls: LiveScoreBody[] = [...cricsheetLiveScores(file, squadOf)]
    const result = cricsheetResult(file, squadOf, target.homeSquadId)

    // The match starts: the server clock moves past its start and the scheduler locks it.
    const moved = await fetch(`${baseURL()}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: new Date(Date.parse(target.date) + 60_000).toISOString() }),
    })
    expect(moved.status).toBe(200)
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ matches: RoundMatch[] }>(
              alfa.page,
              'GET',
              `/api/bbl/predictions/${ROUND}`,
            )
          ).matches.find((m) => m.id === target.id)?.status,
        { timeout: 60_000, interval: 500 },
      )
      .toBe('active')

    // Both watch the round: Alfa its tipping page, Bravo the league ladder beside it.
    await alfa.page.goto('/bbl/tipping')
    await bravo.page.goto('/bbl/tipping')
    const bravoLadder = await bravo.context.newPage()
    await bravoLadder.goto(`/bbl/league/${league.id}/ladder`)
    await bravoLadder.getByRole('heading', { name: 'Live Watchers' }).waitFor()
    expect(await ladderPoints(bravoLadder, 'Livealfa')).toBe(0)
    for (const page of [alfa.page, bravo.page, bravoLadder])
      await page.evaluate(
        () => ((window as unknown as { notReloaded: boolean }).notReloaded = true),
      )

    // A third browser whose push channel is blocked: the page falls back to the 31 s refresh.
    const blocked = await newPage(own.browser, { width: 390, height: 844 })
    await blocked.context.route('**/api/bbl/events', (route) => route.abort())
    await blocked.context.clock.install({ time: new Date() })
    await blocked.page.goto('/registration')
    await signUp(blocked.page, uniqueEmail('live-poll'), 'Livepoll')
    await blocked.page.waitForURL('**/bbl/leagues')
    await blocked.page.goto('/bbl/tipping')
    await blocked.page.getByTestId('autopick').waitFor()

    // The admin feeds the match: every 25th delivery, then the last of each innings.
    const admin = await newPage(own.browser, { width: 1280, height: 800 })
    await signIn(admin.page, DEMO_ADMIN)
    const firstInningsEnd = balls.findIndex((b) => b.innings.length === 2) - 1
    const fed = balls.filter(
      (_, i) => i % 25 === 0 || i === firstInningsEnd || i === balls.length - 1,
    )
    expect(fed.length).toBeGreaterThan(5)
    let lastShown = ''
    for (const body of fed) {
      await apiCall(admin.page, 'PUT', `/api/admin/bbl/matches/${target.id}/live`, body)
      const now = body.innings.at(-1)!
      lastShown = `${now.runs}/${now.wickets}`
      // Each tick reaches both open pages within seconds, by the push channel.
      for (const page of [alfa.page, bravo.page])
        await liveCard(page)
          .filter({ hasText: lastShown })
          .filter({ hasText: `(${now.overs} ov` })
          .waitFor({ timeout: 10_000 })
    }
    // In the chase the card gives the target and says how the tipper's pick stands.
    const card = await liveCard(alfa.page).innerText()
    expect(card).toContain(`Target ${fed.at(-1)!.innings[0]!.runs + 1}`)
    expect(card).toMatch(/Your pick, \w+, is (ahead|behind) right now/)
    // The card, with what is at stake on each result, fits every width (issue 27's check).
    const stakes = liveCard(alfa.page).getByRole('region', { name: /^If it ends this way/ })
    await stakes
      .getByText(/ win: \d+\w\w of \d+/)
      .nth(1)
      .waitFor({ timeout: 15_000 })
    for (const width of [320, 390, 768]) {
      await alfa.page.setViewportSize({ width, height: 844 })
      await settle(alfa.page)
      expect(await layoutProblems(alfa.page), `${width} px`).toEqual([])
    }
    expect(await layoutProblems(bravo.page)).toEqual([])

    // Bravo's league ladder, open since before the first ball: Bravo's place in the league and
    // points if each side wins. Bravo tipped the away side and both start level on 0, so the
    // away side's win puts Bravo 1st of 2 with points gained, the home side's 2nd with none.
    const ladderStakesRegion = ladderStakes(bravoLadder)
    const lines = ladderStakesRegion.getByRole('listitem')
    await lines
      .filter({ hasText: /win: 1st of 2, \+\d+ pts? \(\d+ pts\)/ })
      .waitFor({ timeout: 15_000 })
    await lines
      .filter({ hasText: /win: 2nd of 2, no points \(0 pts\)/ })
      .waitFor({ timeout: 15_000 })
    const texts = await lines.allInnerTexts()
    expect(texts).toHaveLength(2)
    const squadFile = (await (await fetch(`${baseURL()}/static/bbl/squads.json`)).json()) as {
      squads: { id: number; name: string; nickname: string }[]
    }
    const shown = (id: number) => {
      const s = squadFile.squads.find((x) => x.id === id)!
      return s.nickname || s.name
    }
    expect(texts.find((t) => t.includes('1st of 2'))).toContain(`${shown(target.awaySquadId)} win:`)
    expect(texts.find((t) => t.includes('2nd of 2'))).toContain(`${shown(target.homeSquadId)} win:`)
    for (const width of [320, 390, 768, 1280]) {
      // Settled first: the ladder's columns follow the width through a media query the page
      // hears at its next frame, and a check before it measured the desktop's columns
      // squeezed into 320 px (CI, 2026-11-27).
      await bravoLadder.setViewportSize({ width, height: 844 })
      await settle(bravoLadder)
      expect(await layoutProblems(bravoLadder), `ladder at ${width} px`).toEqual([])
    }
    for (const colorScheme of ['light', 'dark'] as const) {
      await bravoLadder.emulateMedia({ colorScheme })
      expect(await axeViolations(bravoLadder), `ladder, ${colorScheme}`).toEqual([])
    }

    // The blocked page has not heard a thing until its refresh comes round.
    expect(await liveCard(blocked.page).count()).toBe(0)
    await blocked.context.clock.runFor(32_000)
    await liveCard(blocked.page).filter({ hasText: lastShown }).waitFor({ timeout: 10_000 })

    // The result: the card gives way to it at once, and the ladder moves (its read is spread over
    // the channel's window) without a reload.
    await apiCall(admin.page, 'POST', `/api/admin/bbl/matches/${target.id}/result`, result)
    const winner = nameOf(result.winnerSquadId!)
    for (const page of [alfa.page, bravo.page])
      await page
        .getByTestId(`match-card-${target.id}`)
        .getByText(`${winner} won`)
        .waitFor({ timeout: 10_000 })
    expect(await liveCard(alfa.page).count()).toBe(0)
    const alfaWon = result.winnerSquadId === target.homeSquadId
    await expect
      .poll(async () => ladderPoints(bravoLadder, alfaWon ? 'Livealfa' : 'Livebravo'), {
        timeout: 40_000,
        interval: 1000,
      })
      .toBeGreaterThan(0)
    // The projection gave way to the real ladder on the same page.
    expect(await ladderStakes(bravoLadder).count()).toBe(0)
    for (const page of [alfa.page, bravo.page, bravoLadder])
      expect(
        await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
      ).toBe(true)

    for (const p of [alfa, bravo, blocked, admin]) await p.context.close()
  })
})
