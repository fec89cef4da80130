import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { apiCall, baseURL, launchBrowser, newPage, signUp, uniqueEmail } from './browser.ts'
import { waitForMail } from './mail-catcher.ts'

// Two real browsers play a league against each other: the commissioner creates it and copies the
// invite link; a friend opens the link signed out, signs up and lands in it; the friend leaves and
// rejoins; the commissioner removes them.

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

/** How many mails to `to` the catcher has received. */
const mailsTo = (dir: string, to: string) =>
  fs
    .readdirSync(dir)
    .filter((f) =>
      (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string[] }).to.includes(to),
    ).length

const memberNames = (page: Page) =>
  page.getByRole('region', { name: 'Members' }).locator('li').allTextContents()

describe('a league between two browsers', () => {
  it('invites by link, joins after signing up, leaves, rejoins and is removed', async () => {
    // The commissioner, on a desktop, with clipboard access.
    const boss = await newPage(browser, { width: 1280, height: 800 })
    await boss.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: baseURL(),
    })
    await boss.page.goto('/registration')
    await signUp(boss.page, uniqueEmail('boss'), 'Meg')
    // A new account with no saved link lands on its leagues (spec 2 guards after sign-in).
    await boss.page.waitForURL('**/bbl/leagues')

    // Create: the form names the missing field first, then creates.
    await boss.page.goto('/bbl/leagues/create')
    await boss.page.getByRole('button', { name: 'Create league' }).click()
    await boss.page.getByText('League name must be at least 3 characters').waitFor()
    await boss.page.locator('input[name="name"]').fill('Lanning Legends')
    await boss.page.locator('#league-description').fill('Two browsers, one ladder')
    await boss.page.getByRole('button', { name: 'Create league' }).click()
    await boss.page.waitForURL(/\/bbl\/league\/\d+\/ladder/)
    const leagueUrl = new URL(boss.page.url()).pathname

    // The invite modal opens after creating; Copy link says Copied! and fills the clipboard.
    await boss.page.getByRole('dialog', { name: 'Invite your friends' }).waitFor()
    await boss.page.getByRole('button', { name: 'Copy link' }).click()
    await boss.page.getByRole('button', { name: 'Copied!' }).waitFor()
    const link = await boss.page.evaluate(() => navigator.clipboard.readText())
    expect(link).toMatch(/\/bbl\/leagues\/join\/[A-Z0-9]{10}$/)
    // Invite by email too: the server's mail reaches a real SMTP server with the same link.
    const invitee = uniqueEmail('invitee')
    await boss.page.locator('#invite-emails').fill(`${invitee}, not-an-address`)
    await boss.page.getByRole('button', { name: 'Send invitations' }).click()
    await boss.page.getByText('not-an-address: Not an email address').waitFor()
    await boss.page.locator('#invite-emails').fill(invitee)
    await boss.page.getByRole('button', { name: 'Send invitations' }).click()
    await boss.page.getByText('Invitation sent to 1 address.').waitFor()
    const mail = await waitForMail(inject('mailDir'), invitee)
    // The league's name is in the body, never the subject (issue 26, item 7).
    expect(mail.subject).toBe("You're invited to join a league on BBL Tipping")
    expect(mail.text).toContain('League: "Lanning Legends"')
    expect(mail.text).toContain(link)
    await boss.page.keyboard.press('Escape')

    // A friend on a phone opens the link signed out: sign-in starts, they sign up instead...
    const friend = await newPage(browser)
    await friend.page.goto(link)
    await friend.page.waitForURL('**/login')
    // Both sign-in forms say that signing in joins the league they were invited to.
    const invited = 'You have an invite to a league'
    await friend.page.getByRole('dialog', { name: 'Log in' }).getByText(invited).waitFor()
    await friend.page.getByRole('button', { name: 'Create an account' }).click()
    await friend.page
      .getByRole('dialog', { name: 'Create your account' })
      .getByText(invited)
      .waitFor()
    await signUp(friend.page, uniqueEmail('friend'), 'Beth')
    // ...and land in the league.
    await friend.page.waitForURL((u) => u.pathname === leagueUrl)
    await friend.page.getByRole('heading', { name: 'Lanning Legends' }).waitFor()
    await friend.page.getByText('2 tippers').waitFor()

    // The friend leaves (with the confirmation) and goes back to their leagues...
    await friend.page.getByRole('link', { name: 'Settings' }).click()
    await friend.page.getByRole('button', { name: 'Leave League' }).click()
    await friend.page.getByText('Are you sure you want to leave this league?').waitFor()
    await friend.page.getByTestId('confirm-yes').click()
    await friend.page.waitForURL('**/bbl/leagues')
    await friend.page.getByText('You are not in a league yet.').waitFor()
    // ...then rejoins with the code on the join page.
    const code = link.split('/').pop()!
    await friend.page.goto('/bbl/leagues/join')
    await friend.page.locator('input[name="code"]').fill(code.toLowerCase())
    await friend.page.getByRole('button', { name: 'Join', exact: true }).click()
    await friend.page.waitForURL((u) => u.pathname === leagueUrl)

    // Both appear on the ladder the commissioner sees.
    await boss.page.reload()
    // By name: at desktop width the page's side column has a table of its own.
    const ladder = boss.page.getByRole('table', { name: 'Lanning Legends ladder' })
    await ladder.waitFor()
    await expect.poll(() => ladder.locator('tbody tr').count()).toBe(2)

    // The commissioner removes the friend from the members list.
    await boss.page.getByRole('link', { name: 'Members' }).click()
    await boss.page.getByRole('button', { name: /Remove Beth/ }).click()
    await boss.page.getByTestId('confirm-yes').click()
    await expect.poll(() => memberNames(boss.page)).toHaveLength(1)
    await boss.page.getByText('1 tipper', { exact: true }).waitFor()

    // A league share link ('Where would you like to share?') opens the league again.
    await boss.page.getByRole('button', { name: 'Share', exact: true }).click()
    await boss.page.getByRole('dialog', { name: 'Where would you like to share?' }).waitFor()
    await boss.page.keyboard.press('Escape')
    const leagueId = Number(leagueUrl.split('/')[3])
    const token = Buffer.from(JSON.stringify({ t: '1234', league_id: leagueId })).toString('base64')
    await boss.page.goto(`/share/bbl/league/${token}`)
    await boss.page.waitForURL((u) => u.pathname === leagueUrl)

    // The friend can no longer see the private league.
    await friend.page.reload()
    await friend.page.getByRole('heading', { name: 'League not found' }).waitFor()

    await boss.context.close()
    await friend.context.close()
  })

  it('hands the league to a member, after which the former commissioner leaves', async () => {
    const boss = await newPage(browser, { width: 1280, height: 800 })
    await boss.page.goto('/registration')
    await signUp(boss.page, uniqueEmail('handover-boss'), 'Alyssa')
    await boss.page.waitForURL('**/bbl/leagues')
    const friend = await newPage(browser)
    await friend.page.goto('/registration')
    await signUp(friend.page, uniqueEmail('handover-friend'), 'Tahlia')
    await friend.page.waitForURL('**/bbl/leagues')

    const { league } = await apiCall<{ league: { id: number; code: string } }>(
      boss.page,
      'POST',
      '/api/bbl/league',
      { name: 'Handover Heroes', privacy: 'private', startRound: 8 },
    )
    await apiCall(friend.page, 'POST', `/api/bbl/league/${league.code}/join`, {})

    // The commissioner picks the friend, confirms, and is then a member who may leave.
    await boss.page.goto(`/bbl/league/${league.id}/settings`)
    await boss.page.getByLabel('New commissioner').selectOption({ label: 'Tahlia T.' })
    await boss.page.getByTestId('hand-over').click()
    const dialog = boss.page.getByRole('dialog', { name: 'Hand over league?' })
    await dialog.getByText('make Tahlia T. the commissioner').waitFor()
    await dialog.getByTestId('confirm-yes').click()
    await boss.page.getByRole('button', { name: 'Leave League' }).click()
    await boss.page.getByTestId('confirm-yes').click()
    await boss.page.waitForURL('**/bbl/leagues')

    // The friend now runs it: the league's details are theirs to edit.
    await friend.page.goto(`/bbl/league/${league.id}/settings`)
    await friend.page.getByRole('heading', { name: 'League details' }).waitFor()
    await friend.page.getByText('1 tipper', { exact: true }).waitFor()

    await boss.context.close()
    await friend.context.close()
  })

  it('makes one league and sends one invitation when their answers are lost and the browser sends them again (decision 049)', async () => {
    const boss = await newPage(browser, { width: 1280, height: 800 })
    await boss.page.goto('/registration')
    await signUp(boss.page, uniqueEmail('lost'), 'Lou')
    await boss.page.waitForURL('**/bbl/leagues')
    await boss.page.goto('/bbl/leagues/create')
    await boss.page.locator('input[name="name"]').fill('Lost Answer League')
    // The first send reaches the server and is done; its answer is lost on the way back, which
    // the browser sees as a busy server (503, Retry-After: 1), so its transport sends it again.
    const loseFirstAnswer = async (url: string) => {
      const sent: unknown[] = []
      await boss.page.route(url, async (route) => {
        sent.push(route.request().postDataJSON())
        if (sent.length > 1) return route.continue()
        await route.fetch()
        await route.fulfill({
          status: 503,
          headers: { 'retry-after': '1', 'content-type': 'application/json' },
          body: JSON.stringify({
            errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'Busy', param: null }],
          }),
        })
      })
      return sent
    }
    const sent = await loseFirstAnswer('**/api/bbl/league')
    await boss.page.getByRole('button', { name: 'Create league' }).click()
    await boss.page.waitForURL(/\/bbl\/league\/\d+\/ladder/)
    expect(sent).toHaveLength(2)
    expect(sent[1]).toEqual(sent[0])
    const own = await apiCall<{ leagues: { id: number; name: string }[] }>(
      boss.page,
      'GET',
      '/api/bbl/leagues',
    )
    expect(own.leagues.map((l) => l.name)).toEqual(['Lost Answer League'])
    expect(boss.page.url()).toContain(`/bbl/league/${own.leagues[0]!.id}/ladder`)

    // The same for an invitation: one email. Then one more address, sent plainly; once its mail
    // is in, a second invitation to the first (queued before it) would have come too.
    const invites = await loseFirstAnswer('**/api/bbl/league/*/invite')
    const [friend, later] = [uniqueEmail('lost-friend'), uniqueEmail('later-friend')]
    const dialog = boss.page.getByRole('dialog', { name: 'Invite your friends' })
    await dialog.locator('#invite-emails').fill(friend)
    await dialog.getByRole('button', { name: 'Send invitations' }).click()
    await dialog.getByText('Invitation sent to 1 address.').waitFor()
    expect(invites).toHaveLength(2)
    expect(invites[1]).toEqual(invites[0])
    await dialog.locator('#invite-emails').fill(later)
    await dialog.getByRole('button', { name: 'Send invitations' }).click()
    await waitForMail(inject('mailDir'), later)
    expect(mailsTo(inject('mailDir'), friend)).toBe(1)
    await boss.context.close()
  })

  it("at 320 px, a league's Settings tab is in sight when the settings are open", async () => {
    const { context, page } = await newPage(browser, { width: 320, height: 700 })
    await page.goto('/registration')
    await signUp(page, uniqueEmail('strip'), 'Sophie')
    await page.waitForURL('**/bbl/leagues')
    const { league } = await apiCall<{ league: { id: number } }>(page, 'POST', '/api/bbl/league', {
      name: 'Four Tab Club',
      privacy: 'private',
      startRound: 8,
    })
    // Opened by its address: nothing clicks the tab (a click would scroll it into view itself).
    await page.goto(`/bbl/league/${league.id}/settings`)
    await page.getByRole('heading', { name: 'League details' }).waitFor()
    const row = page.getByRole('navigation', { name: 'League sections' })
    const settings = row.getByRole('link', { name: 'Settings' })
    expect(await settings.getAttribute('aria-current')).toBe('page')
    const [r, s] = await Promise.all([row.boundingBox(), settings.boundingBox()])
    expect(s!.x).toBeGreaterThanOrEqual(r!.x)
    expect(s!.x + s!.width).toBeLessThanOrEqual(r!.x + r!.width + 0.5)
    await context.close()
  })
})
