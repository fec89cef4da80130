// npm run screenshots [-- http://localhost:3000]: a picture of every screen of screens.ts at phone
// (390 px) and desktop (1280 px) widths, and the main ones in dark mode too, written to
// docs/screenshots/, taken from a running demo server (npm start) whose demo it signs in to.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { CHROMIUM } from './global-setup.ts'
import { ACCOUNTS, SCREENS, signIn, type Who } from './screens.ts'

const base = process.argv[2] ?? 'http://localhost:3000'
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/screenshots')
/** The screens worth seeing dark as well (the theme follows the system setting). */
const DARK = new Set([
  'landing',
  'sign-up dialog',
  'tipping, open round',
  'league ladder',
  'rankings',
  'admin/matches',
])
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

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
fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })
const failed: string[] = []
for (const [label, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    const pages = new Map<Who, { context: BrowserContext; page: Page }>()
    for (const who of ['visitor', 'tipper', 'admin'] as const) {
      const context = await browser.newContext({ baseURL: base, viewport, colorScheme: scheme })
      const page = await context.newPage()
      await page.emulateMedia({ reducedMotion: 'reduce' })
      if (who !== 'visitor') await signIn(page, ACCOUNTS[who])
      pages.set(who, { context, page })
    }
    for (const screen of SCREENS) {
      if (screen.when && !screen.when(viewport.width)) continue
      if (scheme === 'dark' && !DARK.has(screen.name)) continue
      const { page } = pages.get(screen.who)!
      try {
        await screen.open(page)
        await page.waitForTimeout(400)
        const file = `${slug(screen.name)}-${label}${scheme === 'dark' ? '-dark' : ''}.png`
        await page.screenshot({ path: path.join(out, file) })
      } catch (err) {
        failed.push(
          `${screen.name} (${label}, ${scheme}): ${(err as Error).message.split('\n')[0]}`,
        )
      }
    }
    for (const { context } of pages.values()) await context.close()
  }
}
await browser.close()
console.log(`Screenshots written to ${out}`)
if (failed.length > 0) {
  console.error(`Could not open:\n${failed.join('\n')}`)
  process.exitCode = 1
}
