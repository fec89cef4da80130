// npm run screenshots [-- http://localhost:3000]: pictures of the pages at phone and desktop widths,
// written to docs/screenshots/, taken from a running demo server (npm start).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { CHROMIUM } from './global-setup.ts'

const base = process.argv[2] ?? 'http://localhost:3000'
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots')
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})
for (const [name, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const) {
  const context = await browser.newContext({ baseURL: base, viewport })
  const page = await context.newPage()
  const shot = (what: string) => page.screenshot({ path: path.join(out, `${what}-${name}.png`) })
  await page.goto('/')
  await page.getByTestId('login-open').waitFor()
  await shot('landing')
  await page.goto('/login')
  await page.locator('input[name="email"]').fill('demo@tipping.example')
  await page.locator('input[name="password"]').fill('tip-the-bash')
  await shot('login')
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL('**/bbl/leagues')
  await page.goto('/bbl/tipping')
  await page.locator('[data-testid^="match-card-"]').first().waitFor()
  await page.waitForTimeout(500)
  await shot('tipping-live-round')
  await page.getByTestId('round-prev').click()
  await page.waitForTimeout(800)
  await shot('tipping-complete-round')
  await page.getByTestId('round-next').click()
  await page.waitForTimeout(500)
  await page.getByTestId('round-next').click()
  await page.waitForTimeout(800)
  await shot('tipping-scheduled-golden-week')
  await page.goto('/bbl/leagues')
  await page.getByRole('link', { name: /The Demo Desk/ }).waitFor()
  await page.waitForTimeout(400)
  await shot('leagues')
  await page.getByRole('link', { name: /The Demo Desk/ }).click()
  await page.getByRole('table').waitFor()
  await page.waitForTimeout(600)
  await shot('league-ladder')
  await page.locator('#league-ladder-round').selectOption({ index: 1 })
  await page.waitForTimeout(600)
  await page
    .getByRole('button', { name: /Demo Dashers/ })
    .first()
    .click()
  await page.waitForTimeout(800)
  await shot('league-ladder-week-expanded')
  await page.getByRole('button', { name: 'Invite friends' }).click()
  await page.waitForTimeout(300)
  await shot('league-invite')
  await page.keyboard.press('Escape')
  await page.getByRole('link', { name: 'Settings' }).click()
  await page.waitForTimeout(400)
  await shot('league-settings')
  await page.goto('/bbl/leagues/create')
  await page.locator('input[name="name"]').waitFor()
  await page.getByRole('button', { name: 'Create league' }).click()
  await page.waitForTimeout(300)
  await shot('league-create-errors')
  await page.goto('/bbl/leagues/join')
  await page.locator('input[name="search"]').fill('Bash')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.waitForTimeout(600)
  await shot('league-join')
  await page.goto('/bbl/rankings')
  await page.getByRole('table').first().waitFor()
  await page.waitForTimeout(800)
  await shot('rankings')
  await page.goto('/bbl/account')
  await page.locator('#team-supported option').nth(1).waitFor({ state: 'attached' })
  await shot('account')
  await context.close()

  // Signed out: the forgot-password modal and the reset page of the email's link.
  const visitor = await browser.newContext({ baseURL: base, viewport })
  const visitorPage = await visitor.newPage()
  await visitorPage.goto('/forgot-password')
  await visitorPage.getByRole('button', { name: 'Send reset link' }).waitFor()
  await visitorPage.screenshot({ path: path.join(out, `forgot-password-${name}.png`) })
  await visitorPage.goto('/reset-password?token=example')
  await visitorPage.getByRole('button', { name: 'Set new password' }).waitFor()
  await visitorPage.screenshot({ path: path.join(out, `reset-password-${name}.png`) })
  // Help with its first question open, and the terms.
  await visitorPage.goto('/bbl/help')
  await visitorPage.getByRole('button', { name: 'What is Big Bash Tipping?' }).click()
  await visitorPage.screenshot({ path: path.join(out, `help-${name}.png`) })
  await visitorPage.goto('/terms')
  await visitorPage.getByRole('heading', { name: 'Terms & Conditions', level: 1 }).waitFor()
  await visitorPage.screenshot({ path: path.join(out, `terms-${name}.png`) })
  await visitor.close()
}
await browser.close()
console.log(`Screenshots written to ${out}`)
