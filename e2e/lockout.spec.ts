import { describe, expect, it } from 'vitest'
import { baseURL, newPage, uniqueEmail, signUp } from './browser.ts'
import { useOwnServer } from './own-server.ts'

// A match locks while the page is open: the save of a tip made before the lockout is refused by the
// server, the earlier picks come back with a note in the footer (spec 8 keeps a 409 out of the
// Error modal), and the card turns read-only without a reload. Lockouts follow the server's clock,
// not the device's (decision 047): a phone whose clock runs fast still tips until the start. The
// server clock is moved by the test-only clock route; the browser's by Playwright.

// A server of its own: the match this spec locks stays locked after the clock is reset, and on a
// locked match every tipper registered before its start has the auto-tip, which would give the
// shared server's later sign-ups a pick they never made.
const own = useOwnServer()

interface RoundJson {
  matches: { id: number; status: string; date: string; homeSquadId: number }[]
}

describe('a match locking while the page is open', () => {
  it('refuses the late save, restores the earlier picks and locks the card', async () => {
    // The device's clock keeps the real time throughout, before the match's start.
    const { context, page } = await newPage(own.browser, { width: 1280, height: 800 })
    await page.goto('/registration')
    await signUp(page, uniqueEmail('late'), 'Late')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()

    const round: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    const target = round.matches.find((m) => m.status === 'scheduled')!
    const pick = page.getByTestId(`pick-${target.id}-${target.homeSquadId}`)
    await pick.click()
    expect(await pick.getAttribute('aria-pressed')).toBe('true')

    // The match starts on the server before the tip is saved.
    const lockAt = Date.parse(target.date) + 1000
    const moved = await fetch(`${baseURL()}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: new Date(lockAt).toISOString() }),
    })
    expect(moved.status).toBe(200)
    await page.getByTestId('save-picks').click()
    // Spec 8: a 409 stays out of the Error modal; the footer says why the picks went back.
    const refusal = page.getByRole('alert').filter({ hasText: 'This match has started' })
    await refusal.waitFor()
    expect(await page.getByRole('dialog', { name: 'Error' }).count()).toBe(0)
    expect(await pick.getAttribute('aria-pressed')).toBe('false')
    await refusal.getByRole('button', { name: 'OK' }).click()
    await refusal.waitFor({ state: 'detached' })

    // The refusal's answer carried the server's clock, past the start: the card locks without a
    // reload, though the device's clock has not reached the start.
    expect(Date.now()).toBeLessThan(Date.parse(target.date))
    await expect.poll(() => pick.isDisabled()).toBe(true)

    // The server's lockout job records when it locked the match (decision 027), to the
    // millisecond, no earlier than the start; the card shows that time after a reload.
    const lockedAt = async () =>
      (
        (await page.evaluate(
          async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
        )) as { matches: { id: number; lockedAt?: string | null }[] }
      ).matches.find((m) => m.id === target.id)?.lockedAt ?? null
    await expect.poll(lockedAt, { timeout: 30_000, interval: 500 }).not.toBeNull()
    const recorded = (await lockedAt())!
    expect(Date.parse(recorded)).toBeGreaterThanOrEqual(Date.parse(target.date))
    await page.reload()
    const shown = page.getByTestId(`match-card-${target.id}`).getByTestId('lock-time')
    await shown.waitFor()
    expect(await shown.textContent()).toBe(`Locked at ${recorded.slice(11, 23)} UTC`)
    await context.close()
  })

  it('lets a device whose clock is ten minutes fast tip until the start', async () => {
    // The server is five minutes before the next match of the round; the phone thinks the match
    // began five minutes ago. Without the server's clock the card would be locked and the tip lost.
    const { context, page } = await newPage(own.browser, { width: 390, height: 844 })
    await page.goto('/registration')
    await signUp(page, uniqueEmail('fast'), 'Fast')
    await page.waitForURL('**/bbl/leagues')
    const round: RoundJson = await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )
    const next = round.matches.find((m) => m.status === 'scheduled')!
    const start = Date.parse(next.date)
    const moved = await fetch(`${baseURL()}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: new Date(start - 5 * 60_000).toISOString() }),
    })
    expect(moved.status).toBe(200)
    await context.clock.install({ time: new Date(start + 5 * 60_000) })

    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    const pick = page.getByTestId(`pick-${next.id}-${next.homeSquadId}`)
    await expect.poll(() => pick.isDisabled()).toBe(false)
    await pick.click()
    await page.getByTestId('save-picks').click()
    await expect.poll(() => page.getByTestId('save-picks').textContent()).toMatch(/Saved/)
    const saved = (await page.evaluate(
      async () => (await (await fetch('/api/bbl/predictions/3')).json()).success,
    )) as { predictions: { match: number; squad: number }[] }
    expect(saved.predictions.find((p) => p.match === next.id)?.squad).toBe(next.homeSquadId)
    await context.close()
  })
})
