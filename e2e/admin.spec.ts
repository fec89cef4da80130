import { describe, expect, it } from 'vitest'
import { APP_PAGE_PATTERNS } from '@tipping/contract/pages'
import type { Page } from 'playwright-core'
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
import { layoutProblems } from './layout-check.ts'
import { useOwnServer } from './own-server.ts'

// The admin console end to end: an admin enters a whole round's results in the console while two
// tippers in their own browsers watch their league ladder and the rankings change on the public
// pages (one compact row per match, its result form in place); the content tab saving through
// /api/admin/content into the site's public files; an email read in the outbox; the live score of
// the match in progress entered from a phone and read back from the round's live scores. Also:
// who may open /admin, and axe on every admin page at phone and desktop widths.

const ROUND = 4

// A server of its own: the round this spec plays stays locked after the clock is reset, and the
// shared server's other specs tip the open rounds.
const own = useOwnServer()

async function moveClock(body: object) {
  const res = await fetch(`${baseURL()}/api/test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(200)
}

/** GET without a body, POST with one. */
const call = <T>(page: Page, path: string, body?: unknown): Promise<T> =>
  apiCall<T>(page, body === undefined ? 'GET' : 'POST', path, body)

interface RoundMatch {
  id: number
  number: number
  date: string
  homeSquadId: number
  awaySquadId: number
  isMarginGame: boolean
}

const signInAdmin = (page: Page) => signIn(page, DEMO_ADMIN)

describe('the admin console', () => {
  it('sends visitors to sign in and shows tippers a 403 page', async () => {
    const visitor = await newPage(own.browser)
    await visitor.page.goto('/admin')
    await visitor.page.waitForURL('**/login')
    const tipper = await newPage(own.browser)
    await tipper.page.goto('/registration')
    await signUp(tipper.page, uniqueEmail('nosy'), 'Nosy')
    await tipper.page.waitForURL('**/bbl/leagues')
    await tipper.page.goto('/admin')
    await tipper.page.getByRole('heading', { name: '403: admins only' }).waitFor()
    expect(await tipper.page.getByRole('navigation', { name: 'Admin sections' }).count()).toBe(0)
    await visitor.context.close()
    await tipper.context.close()
  })

  it("shows each email's subject, and its body as text on demand, on a phone", async () => {
    // A visitor asks for a password reset of the demo account: a real email in the outbox. (Run
    // before the results test moves the clock: the round's reminders then fill the outbox's first
    // page.)
    const visitor = await newPage(own.browser)
    await visitor.page.goto('/forgot-password')
    const asked = await visitor.page.evaluate(async () => {
      const res = await fetch('/api/auth/password_reset/request', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@tipping.example' }),
      })
      return res.status
    })
    expect(asked).toBe(200)
    await visitor.context.close()

    const { context, page } = await newPage(own.browser, { width: 390, height: 844 })
    await signInAdmin(page)
    await page.goto('/admin/emails')
    const email = page
      .getByRole('row')
      .filter({ hasText: 'Reset your Big Bash Tipping password' })
      .filter({ hasText: 'to demo@tipping.example' })
      .first()
    await email.waitFor()
    const body = email.locator('pre')
    expect(await body.isVisible()).toBe(false)
    await email.locator('summary', { hasText: 'Message' }).click()
    await body.waitFor()
    const text = await body.innerText()
    expect(text).toContain('Someone asked to reset the password')
    // The reset link is shown without its token: reading the outbox opens no one's account.
    expect(text).toMatch(/\/reset-password\?token=\(hidden\)/)
    expect(await layoutProblems(page)).toEqual([])
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('enters the live score of the match in progress from a phone, and the round reads it', async () => {
    // Run before the results test moves the clock: the demo's match in progress is still live.
    const { context, page } = await newPage(own.browser, { width: 390, height: 844 })
    await signInAdmin(page)
    const { competitions } = await call<{
      competitions: { id: number; sport: string; isCurrent: boolean }[]
    }>(page, '/api/admin/competitions')
    const bbl = competitions.find((c) => c.sport === 'bbl' && c.isCurrent)!
    const { rounds } = await call<{
      rounds: {
        number: number
        matches: {
          id: number
          number: number
          status: string
          homeSquadId: number
          awaySquadId: number
        }[]
      }[]
    }>(page, `/api/admin/competitions/${bbl.id}/rounds`)
    const round = rounds.find((r) => r.matches.some((m) => m.status === 'active'))!
    const match = round.matches.find((m) => m.status === 'active')!
    const liveOf = async () => {
      const live = await call<{ matches: { matchId: number; innings: unknown[] }[] }>(
        page,
        `/api/bbl/live/${round.number}`,
      )
      return live.matches.find((l) => l.matchId === match.id)?.innings
    }

    await page.goto(`/admin/matches?competition=${bbl.id}&round=${round.number}`)
    const row = page.getByRole('listitem', { name: new RegExp(`^Match ${match.number}: `) })
    // Only a match in progress offers a live score.
    await row.waitFor()
    const other = round.matches.find((m) => m.status !== 'active')!
    await page.getByRole('button', { name: `Schedule of match ${other.number}` }).waitFor()
    expect(
      await page.getByRole('button', { name: `Live score of match ${other.number}` }).count(),
    ).toBe(0)
    await row.getByRole('button', { name: `Live score of match ${match.number}` }).click()
    const form = row.getByRole('form', { name: `Live score of match ${match.number}` })
    await form.waitFor()
    const first = form.getByRole('group', { name: '1st innings' })
    await first.getByLabel('Batting side').selectOption(String(match.homeSquadId))
    await first.getByLabel('Runs').fill('31')
    await first.getByLabel('Wickets').fill('1')
    await first.getByLabel('Overs', { exact: true }).fill('3.5')
    await first.getByLabel('Sixes').fill('2')
    // A four off the last ball of the over, with the quick buttons.
    await form.getByRole('button', { name: '+4 runs' }).click()
    await form.getByRole('button', { name: '+ball' }).click()
    expect(await first.getByLabel('Overs', { exact: true }).inputValue()).toBe('4')
    expect(await layoutProblems(page)).toEqual([])
    expect(await axeViolations(page)).toEqual([])
    await form.getByRole('button', { name: 'Save live score' }).click()
    await form.getByText(/^Live score saved: .* 35\/1 \(4\)$/).waitFor()
    expect(await liveOf()).toEqual([
      {
        battingSquadId: match.homeSquadId,
        runs: 35,
        wickets: 1,
        overs: '4',
        oversAllotted: null,
        sixes: 2,
      },
    ])

    // Later, the chase, in a reopened console: the form opens on the score as it stands, and the
    // chasing side is the other squad unless changed (the same side twice is refused on the field).
    await page.reload()
    await row.getByRole('button', { name: `Live score of match ${match.number}` }).click()
    await form.waitFor()
    expect(await first.getByLabel('Runs').inputValue()).toBe('35')
    await first.getByLabel('Runs').fill('160')
    await first.getByLabel('Wickets').fill('7')
    await first.getByLabel('Overs', { exact: true }).fill('20')
    await form.getByRole('button', { name: 'Start 2nd innings' }).click()
    const second = form.getByRole('group', { name: '2nd innings' })
    expect(await second.getByLabel('Batting side').inputValue()).toBe(String(match.awaySquadId))
    await second.getByLabel('Batting side').selectOption(String(match.homeSquadId))
    await form.getByRole('button', { name: 'Save live score' }).click()
    await second.getByText('The second innings is batted by the other side').waitFor()
    expect(await second.getByLabel('Batting side').getAttribute('aria-invalid')).toBe('true')
    await second.getByLabel('Batting side').selectOption(String(match.awaySquadId))
    await form.getByRole('button', { name: '+6 runs, a six' }).click()
    await form.getByRole('button', { name: '+ball' }).click()
    await form.getByRole('button', { name: 'Save live score' }).click()
    await form.getByText(/^Live score saved: .* 160\/7 \(20\), .* 6\/0 \(0\.1\)$/).waitFor()
    expect(await liveOf()).toEqual([
      expect.objectContaining({ battingSquadId: match.homeSquadId, runs: 160, overs: '20' }),
      {
        battingSquadId: match.awaySquadId,
        runs: 6,
        wickets: 0,
        overs: '0.1',
        oversAllotted: null,
        sixes: 1,
      },
    ])
    expect(await layoutProblems(page)).toEqual([])
    await context.close()
  })

  it("enters a round's results while two tippers watch their ladder and rankings move", async () => {
    // Two tippers, each on a phone: Alfa tips every home side, Bravo every away side.
    const alfa = await newPage(own.browser)
    await alfa.page.goto('/registration')
    await signUp(alfa.page, uniqueEmail('alfa'), 'Alfaquinn')
    await alfa.page.waitForURL('**/bbl/leagues')
    const bravo = await newPage(own.browser)
    await bravo.page.goto('/registration')
    await signUp(bravo.page, uniqueEmail('bravo'), 'Bravoquinn')
    await bravo.page.waitForURL('**/bbl/leagues')

    const { league } = await call<{ league: { id: number; code: string } }>(
      alfa.page,
      '/api/bbl/league',
      { name: 'Console Watchers', privacy: 'private', startRound: ROUND },
    )
    await call(bravo.page, `/api/bbl/league/${league.code}/join`, {})
    const { matches } = await call<{ matches: RoundMatch[] }>(
      alfa.page,
      `/api/bbl/predictions/${ROUND}`,
    )
    expect(matches.length).toBeGreaterThan(1)
    const tips = (side: 'homeSquadId' | 'awaySquadId') => ({
      predictions: matches.map((m) => ({
        match: m.id,
        squad: m[side],
        margin: m.isMarginGame ? 12 : null,
      })),
    })
    await call(alfa.page, '/api/bbl/predictions_list', tips('homeSquadId'))
    await call(bravo.page, '/api/bbl/predictions_list', tips('awaySquadId'))

    // Before: Bravo's league ladder shows no points, and the rankings already list Alfa, on 0
    // (GAME_RULES "Who is ranked": from the moment they register, not from the next result).
    await bravo.page.goto(`/bbl/league/${league.id}/ladder`)
    await bravo.page.getByRole('heading', { name: 'Console Watchers' }).waitFor()
    expect(await ladderPoints(bravo.page, 'Alfaquinn')).toBe(0)
    await alfa.page.goto('/bbl/rankings')
    await alfa.page.locator('#rankings-search').fill('Alfaquinn')
    expect(await ladderPoints(alfa.page, 'Alfaquinn')).toBe(0)

    // The round is played: the server clock moves past its last start.
    const last = Math.max(...matches.map((m) => Date.parse(m.date)))
    await moveClock({ at: new Date(last + 3_600_000).toISOString() })

    // The admin, on a desktop, enters every result of the round: the home side wins each.
    const admin = await newPage(own.browser, { width: 1280, height: 800 })
    await signInAdmin(admin.page)
    const competitions = await call<{
      competitions: { id: number; sport: string; isCurrent: boolean }[]
    }>(admin.page, '/api/admin/competitions')
    const bbl = competitions.competitions.find((c) => c.sport === 'bbl' && c.isCurrent)!
    await admin.page.goto(`/admin/matches?competition=${bbl.id}&round=${ROUND}`)
    // One compact row per match; the started matches awaiting a result have their forms open.
    const row = (n: number) =>
      admin.page.getByRole('listitem', { name: new RegExp(`^Match ${n}: `) })
    await row(matches[0]!.number).waitFor()
    expect(await admin.page.getByRole('main').getByRole('listitem').count()).toBe(matches.length)
    for (const m of [...matches].sort((a, b) => a.number - b.number)) {
      const form = row(m.number).getByRole('form', { name: `Result of match ${m.number}` })
      await form.waitFor()
      expect(
        await row(m.number)
          .getByRole('button', { name: `Enter result of match ${m.number}` })
          .getAttribute('aria-expanded'),
      ).toBe('true')
      // Saving before a result is chosen is refused on the form, naming the field.
      await form.getByRole('button', { name: 'Save result' }).click()
      await form.getByText('Choose the winner, a tie or no result').waitFor()
      expect(await form.getByLabel('Result').getAttribute('aria-invalid')).toBe('true')
      await form.getByLabel('Result').selectOption(`win:${m.homeSquadId}`)
      const innings = form.getByRole('group')
      await innings.nth(0).getByLabel('Runs').fill('171')
      await innings.nth(0).getByLabel('Wickets').fill('6')
      await innings.nth(0).getByLabel('Overs').fill('20')
      await innings.nth(1).getByLabel('Runs').fill('160')
      await innings.nth(1).getByLabel('Wickets').fill('8')
      await innings.nth(1).getByLabel('Overs').fill('20')
      await form.getByLabel(/^Sixes/).fill('12')
      await form.getByRole('button', { name: 'Save result' }).click()
      // Each save re-scores and republishes while the scheduler catches up with the moved clock:
      // allow for a loaded machine, and say what the row shows if it never confirms.
      await row(m.number)
        .getByText(`Result saved for match ${m.number}`)
        .waitFor({ timeout: 60_000 })
        .catch(async (err: unknown) => {
          throw new Error(`match ${m.number}: ${await row(m.number).innerText()}`, { cause: err })
        })
      // Saved, the form closes and the row reads the result in one line.
      expect(await form.count()).toBe(0)
      await row(m.number)
        .getByText(/ won · .* 171\/6 \(20\) · .* 160\/8 \(20\) · 12 sixes/)
        .waitFor()
    }
    // The whole round on one desktop screen and a bit: compact rows, not a form per match.
    for (const m of matches) {
      const box = await row(m.number).boundingBox()
      expect(box!.height, `match ${m.number}`).toBeLessThan(140)
    }
    expect(await admin.page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(
      1600,
    )
    // The schedule form opens in place on demand.
    const first = row(matches[0]!.number)
    await first.getByRole('button', { name: /^Schedule of match/ }).click()
    await first.getByRole('form', { name: /^Schedule of match/ }).waitFor()
    expect(await layoutProblems(admin.page)).toEqual([])
    expect(await axeViolations(admin.page)).toEqual([])

    // After: the public pages show Alfa ahead, Bravo still on nothing.
    await bravo.page.reload()
    await bravo.page.getByRole('heading', { name: 'Console Watchers' }).waitFor()
    await expect
      .poll(
        async () => {
          await bravo.page.reload()
          return ladderPoints(bravo.page, 'Alfaquinn')
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThanOrEqual(matches.length)
    expect(await ladderPoints(bravo.page, 'Bravoquinn')).toBe(0)
    const firstRow = bravo.page.locator('tbody tr').first()
    expect(await firstRow.innerText()).toContain('Alfaquinn')
    await alfa.page.reload()
    await alfa.page.locator('#rankings-search').fill('Alfaquinn')
    await expect
      .poll(() => ladderPoints(alfa.page, 'Alfaquinn'))
      .toBeGreaterThanOrEqual(matches.length)

    // The audit log records each result, by the admin.
    await admin.page.goto('/admin/audit')
    await admin.page.getByRole('cell', { name: DEMO_ADMIN.email }).first().waitFor()
    expect(await admin.page.getByText('result.set').count()).toBeGreaterThanOrEqual(matches.length)
    for (const p of [alfa, bravo, admin]) await p.context.close()
  }, 300_000)

  it('saves a notification bar and the top banner from the content tab, published for the site', async () => {
    const { context, page } = await newPage(own.browser, { width: 1280, height: 800 })
    await signInAdmin(page)
    await page.goto('/admin/content')
    const bars = page.getByRole('form', { name: 'Notification bars' })
    await bars.waitFor()
    // A bar that is shown needs a message: refused on the form, naming the field.
    await bars.getByLabel('Show the WBBL bar').check()
    await bars.getByLabel('WBBL message').fill('')
    await bars.getByRole('button', { name: 'Save notification bars' }).click()
    await bars.getByText('A bar that is shown needs a message').waitFor()
    const message = `Round ${ROUND} results are in (${Date.now()})`
    await bars.getByLabel('WBBL message').fill(message)
    await bars.getByRole('button', { name: 'Save notification bars' }).click()
    await bars.getByText('Saved and published.').waitFor()

    await page.getByRole('button', { name: 'Top banner' }).click()
    const banner = page.getByRole('form', { name: 'Top banner' })
    await banner.waitFor()
    await banner.getByLabel('Show the top banner').check()
    await banner.getByLabel('Banner message').fill('Finals week: tip before the toss')
    await banner.getByLabel(/^Link/).fill('javascript:alert(1)')
    await banner.getByRole('button', { name: 'Save top banner' }).click()
    await banner.getByText('Use a path on this site (/...) or an https:// address').waitFor()
    await banner.getByLabel(/^Link/).fill('/wbbl/tipping')
    await banner.getByRole('button', { name: 'Save top banner' }).click()
    await banner.getByText('Saved and published.').waitFor()

    // A visitor's browser reads both from the site's public files.
    const visitor = await newPage(own.browser)
    const publicJson = async (file: string) => {
      const res = await visitor.page.goto(`/static/${file}?t=${Date.now()}`)
      expect(res?.status(), file).toBe(200)
      return (await res!.json()) as Record<string, unknown>
    }
    expect((await publicJson('notification_bar.json')).bars).toContainEqual({
      sport: 'wbbl',
      isEnabled: true,
      message,
    })
    expect((await publicJson('app-config.json')).topBanner).toEqual({
      message: 'Finals week: tip before the toss',
      url: '/wbbl/tipping',
    })

    // The console reloads what was saved, then the admin takes both down again.
    await page.reload()
    await bars.waitFor()
    expect(await bars.getByLabel('WBBL message').inputValue()).toBe(message)
    await bars.getByLabel('Show the WBBL bar').uncheck()
    await bars.getByRole('button', { name: 'Save notification bars' }).click()
    await bars.getByText('Saved and published.').waitFor()
    await page.getByRole('button', { name: 'Top banner' }).click()
    await banner.getByLabel('Show the top banner').uncheck()
    await banner.getByRole('button', { name: 'Save top banner' }).click()
    await banner.getByText('Saved and published.').waitFor()
    expect((await publicJson('app-config.json')).topBanner).toBeNull()
    await visitor.context.close()
    await context.close()
  })

  it.each([
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ])('has no axe violations on any admin page at %s width', async (_name, viewport) => {
    const { context, page } = await newPage(own.browser, viewport)
    await signInAdmin(page)
    // Every console page the app has (the contract's page list, which the router's test keeps).
    for (const path of APP_PAGE_PATTERNS.filter((p) => p === '/admin' || p.startsWith('/admin/'))) {
      await page.goto(path)
      await page.getByRole('navigation', { name: 'Admin sections' }).waitFor()
      await page.locator('main h1').first().waitFor()
      // Wait for the section's data (or its error) before judging the page.
      await page.waitForLoadState('networkidle')
      expect(await axeViolations(page), path).toEqual([])
    }
    await context.close()
  })
})
