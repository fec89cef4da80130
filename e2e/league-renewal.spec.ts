import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type {
  LeagueHistoryResponse,
  RenewalOffersResponse,
  SeasonArchive,
} from '@tipping/contract/archive'
import type { SessionResponse } from '@tipping/contract/auth'
import type { LeagueLadderResponse } from '@tipping/contract/scores'
import { DEMO_ADMIN, apiCall, newPage, signIn, signInDemo } from './browser.ts'
import type { CaughtMail } from './mail-catcher.ts'
import { useOwnServer } from './own-server.ts'

// Issue 31, league renewal end to end in Chromium: the commissioner renews last season's league
// from the archive, its old members are emailed and asked (not moved), one joins from their
// leagues page, another says no thanks, and the renewed league shows last season's history.
//
// The demo seeds this season's "The Demo Desk" as the renewal of 2024-25's, so this spec runs on
// a server of its own, where the admin first removes this season's league (a league is renewed
// once). The old members are the demo's simulated tippers, who have no password: each sets one
// through the real reset mail, as anyone who forgot it would.

const PASSWORD = 'renewal spec secret'
const own = useOwnServer()

/** Mails caught so far with this subject (the catcher writes one JSON file per message). */
function mails(subject: RegExp): CaughtMail[] {
  return fs
    .readdirSync(own.server.mailDir)
    .map((f) => JSON.parse(fs.readFileSync(path.join(own.server.mailDir, f), 'utf8')) as CaughtMail)
    .filter((m) => subject.test(m.subject))
}

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const found = probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`${what} did not arrive`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** A simulated tipper sets a password through the reset mail, then signs in with it. */
async function signInAsOldMember(page: Page, email: string): Promise<number> {
  await page.goto('/terms')
  await apiCall(page, 'POST', '/api/auth/password_reset/request', { email })
  const mail = await waitFor('the reset mail', () =>
    mails(/^Reset your Big Bash Tipping password$/).find((m) => m.to.includes(email)),
  )
  const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]
  await apiCall(page, 'POST', '/api/auth/password_reset', {
    token,
    password: PASSWORD,
    confirmation: PASSWORD,
  })
  await signIn(page, { email, password: PASSWORD })
  return (await apiCall<SessionResponse>(page, 'GET', '/api/session')).user!.id
}

describe('league renewal', () => {
  it('renews last season’s league; one member joins, another declines; its history stays', async () => {
    const phone = { width: 390, height: 844 }
    const commish = await newPage(own.browser, phone)
    await signInDemo(commish.page)
    const demoId = (await apiCall<SessionResponse>(commish.page, 'GET', '/api/session')).user!.id
    const past = await apiCall<SeasonArchive>(commish.page, 'GET', '/api/bbl/seasons/2024-25')
    const old = past.leagues.find((l) => l.name === 'The Demo Desk')!
    expect(old.isCommissioner).toBe(true)
    expect(old.renewedBy).not.toBeNull()

    // This season's renewal goes, so last season's league can be renewed afresh.
    const admin = await newPage(own.browser, { width: 1280, height: 800 })
    await signIn(admin.page, DEMO_ADMIN)
    await apiCall(admin.page, 'DELETE', `/api/admin/leagues/${old.renewedBy}`)
    await admin.context.close()

    // The commissioner renews it from the archive, and follows the link to this season's league.
    const p = commish.page
    await p.goto('/bbl/archive/2024-25')
    const item = p
      .getByRole('region', { name: 'My leagues' })
      .locator('li', { hasText: 'The Demo Desk' })
    await item.getByRole('button', { name: 'Renew for this season' }).click()
    await item.getByRole('link', { name: 'This season’s league' }).click()
    await p.waitForURL(/\/bbl\/league\/\d+\/ladder/)
    const renewedId = Number(/league\/(\d+)\//.exec(p.url())![1])
    expect(renewedId).not.toBe(old.renewedBy)

    // Every old member is asked by email (the commissioner gets a copy); nobody is moved in.
    const to = await waitFor('the renewal mails', () => {
      const all = mails(/^A league is back for /).flatMap((m) => m.to)
      return all.length >= old.numUser ? all : undefined
    })
    expect(to).toHaveLength(old.numUser)
    expect(to).toContain('demo@tipping.example')
    const asked = to.filter((e) => e !== 'demo@tipping.example')
    expect(
      (
        await apiCall<LeagueLadderResponse>(p, 'GET', `/api/bbl/rankings/${renewedId}/rankings`)
      ).rankings.map((r) => r.userId),
    ).toEqual([demoId])

    // One joins from their leagues page.
    const joiner = await newPage(own.browser, phone)
    const joinerId = await signInAsOldMember(joiner.page, asked[0]!)
    await joiner.page.goto('/bbl/leagues')
    const offers = joiner.page.getByRole('region', { name: 'Leagues back for this season' })
    await offers.getByRole('button', { name: 'Join The Demo Desk' }).click()
    await offers.waitFor({ state: 'detached' })

    // Another says no thanks, and is not asked again.
    const decliner = await newPage(own.browser, phone)
    const declinerId = await signInAsOldMember(decliner.page, asked[1]!)
    await decliner.page.goto('/bbl/leagues')
    const theirs = decliner.page.getByRole('region', { name: 'Leagues back for this season' })
    await theirs.getByRole('button', { name: 'No thanks' }).click()
    await theirs.waitFor({ state: 'detached' })
    expect(
      (await apiCall<RenewalOffersResponse>(decliner.page, 'GET', '/api/bbl/league-renewals'))
        .offers,
    ).toEqual([])

    // The renewed league: the commissioner and the one who joined.
    const members = (
      await apiCall<LeagueLadderResponse>(p, 'GET', `/api/bbl/rankings/${renewedId}/rankings`)
    ).rankings.map((r) => r.userId)
    expect(members.sort((a, b) => a - b)).toEqual([demoId, joinerId].sort((a, b) => a - b))
    expect(members).not.toContain(declinerId)

    // Its page keeps last season: the final ladder's link, the champions and the week winners,
    // as the history route has them; the member who joined sees the same.
    const history = await apiCall<LeagueHistoryResponse>(
      joiner.page,
      'GET',
      `/api/bbl/league/${renewedId}/history`,
    )
    expect(history.seasons.map((s) => [s.leagueId, s.year])).toEqual([[old.id, '2024-25']])
    const [season] = history.seasons
    expect(season!.rounds.length).toBeGreaterThan(0)
    await joiner.page.goto(`/bbl/league/${renewedId}/ladder`)
    const region = joiner.page.getByRole('region', { name: 'Past seasons' })
    await region.getByRole('link', { name: '2024-25: The Demo Desk' }).waitFor()
    const weeks = region.getByTestId('past-week-winners')
    await weeks.locator('summary').click()
    expect(await weeks.locator('li').count()).toBe(season!.rounds.length)
    expect(await weeks.locator('li').first().textContent()).toContain(
      `Week ${season!.rounds[0]!.round}:`,
    )
    await region.getByRole('link', { name: '2024-25: The Demo Desk' }).click()
    await joiner.page.waitForURL(`**/bbl/archive/2024-25/league/${old.id}`)
    await joiner.page.getByRole('table').locator('tbody tr').first().waitFor()

    // Last season's league in the archive now leads to this season's.
    await p.goto('/bbl/archive/2024-25')
    await item.getByRole('link', { name: 'This season’s league' }).waitFor()
    expect(await item.getByRole('button', { name: 'Renew for this season' }).count()).toBe(0)
    for (const c of [commish, joiner, decliner]) await c.context.close()
  })
})
