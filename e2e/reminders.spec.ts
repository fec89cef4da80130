import AxeBuilder from '@axe-core/playwright'
import { describe, expect, it } from 'vitest'
import { baseURL, newPage, signUp, uniqueEmail } from './browser.ts'
import { waitForMail } from './mail-catcher.ts'
import { useOwnServer } from './own-server.ts'

// Reminders the player controls and autopilot (issue 32) in Chromium: the account page at phone
// width sets a 2-hour reminder and autopilot, the server clock moves to 90 minutes before the next
// open match, and the reminder arrives at the real SMTP catcher listing the untipped matches with
// what autopilot will tip. A server of its own: the clock move would remind (and, later, autopilot
// would tip for) the shared server's other tippers.
const own = useOwnServer()

interface RoundJson {
  matches: { id: number; status: string; date: string; homeSquadId: number }[]
}

describe('reminder lead and autopilot on the account page', () => {
  it('sets both at 390 px, then gets the 2-hour reminder by mail', async () => {
    const { context, page } = await newPage(own.browser, { width: 390, height: 844 })
    const email = uniqueEmail('remind')
    await page.goto('/registration')
    await signUp(page, email, 'Remy')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/account')

    await page.getByLabel('Email me a reminder to tip').selectOption('match')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByTestId('profile-saved').waitFor()

    await page.getByLabel('Tip for me with').selectOption('home')
    await page.getByLabel('When a match I have not tipped starts in').selectOption('15')
    await page.getByRole('button', { name: 'Save autopilot' }).click()
    await page.getByText('Autopilot saved').waitFor()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
      ).toBe(false)
      const axe = await new AxeBuilder({ page })
        .include('[data-testid="autopilot-card"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze()
      expect(axe.violations.map((v) => v.id)).toEqual([])
    }
    // Both settings are the server's after a reload.
    await page.reload()
    expect(await page.getByLabel('Email me a reminder to tip').inputValue()).toBe('match')
    expect(await page.getByLabel('Tip for me with').inputValue()).toBe('home')

    // 90 minutes before the next open match: the scheduler (every 5 s) sends the reminder.
    const round: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    const next = round.matches
      .filter((m) => m.status === 'scheduled' && Date.parse(m.date) > Date.now())
      .sort((a, b) => Date.parse(a.date) - Date.parse(b.date))[0]!
    const moved = await fetch(`${baseURL()}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: new Date(Date.parse(next.date) - 90 * 60_000).toISOString() }),
    })
    expect(moved.status).toBe(200)
    // The BBL reminder: a new tipper is registered for both sports, and when the demo's next WBBL
    // match is within two hours of now its reminder (no autopilot there) comes first.
    const mail = await waitForMail(own.server.mailDir, email, 30_000, (m) =>
      m.text.includes('/bbl/tipping'),
    )
    expect(mail.subject).toContain('a match you have not tipped starts soon')
    const listed = mail.text.split('\n').filter((l) => l.startsWith('- '))
    expect(listed.length).toBeGreaterThan(0)
    for (const line of listed) expect(line).toMatch(/\(autopilot will tip .+\)$/)
    expect(mail.text).toContain('/bbl/tipping')
    await context.close()
  }, 120_000)
})
