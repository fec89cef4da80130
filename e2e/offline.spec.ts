import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { apiCall, baseURL, newPage, signUp, uniqueEmail } from './browser.ts'
import { axeViolations } from './axe.ts'
import { useOwnServer } from './own-server.ts'

// Issue 32, in Chromium: the app installs (manifest, icons, an active service worker), opens
// without the network (the shell, the week as last seen, the offline banner), and a pick saved
// offline is kept in IndexedDB through a reload and sent when the network returns, the server
// judging each tip as it arrives: one for a match that started meanwhile is refused and shown.
// The network is cut with `context.setOffline(true)` (which Playwright applies to the service
// worker's own fetches too).

// A server of its own: this spec moves the server's clock past a match's start, which stays
// locked for every later spec.
const own = useOwnServer()

interface RoundJson {
  matches: { id: number; status: string; date: string; homeSquadId: number }[]
  predictions: { match: number; squad: number }[]
}

/** Waits until a service worker is active and controls the page. */
const controlled = (page: Page) =>
  page.waitForFunction(
    async () =>
      (await navigator.serviceWorker.ready).active?.state === 'activated' &&
      navigator.serviceWorker.controller !== null,
    undefined,
    { timeout: 60_000 },
  )

/** How many tips the browser keeps in its queue (Chromium's IndexedDB, as the app left it). */
const keptCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('tipping-offline')
        open.onerror = () => reject(new Error(String(open.error)))
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('tip-queue')) return resolve(0)
          const req = db.transaction('tip-queue', 'readonly').objectStore('tip-queue').count()
          req.onsuccess = () => resolve(req.result)
          req.onerror = () => reject(new Error(String(req.error)))
        }
      }),
  )

/** A PNG's width and height, from its header. */
const pngSize = (bytes: Buffer) => ({
  width: bytes.readUInt32BE(16),
  height: bytes.readUInt32BE(20),
})

describe('the installable app', () => {
  it('serves a valid manifest with its icons, and the service worker becomes active', async () => {
    const { context, page } = await newPage(own.browser)
    await page.goto('/')
    const link = page.locator('link[rel="manifest"]')
    expect(await link.count()).toBe(1)
    const res = await fetch(`${baseURL()}${await link.getAttribute('href')}`)
    expect(res.status).toBe(200)
    const manifest = (await res.json()) as {
      name: string
      short_name: string
      start_url: string
      display: string
      icons: { src: string; sizes: string; type: string; purpose?: string }[]
    }
    expect(manifest.name).toBe('Big Bash Tipping')
    expect(manifest.short_name.length).toBeLessThanOrEqual(12)
    expect(manifest.display).toBe('standalone')
    expect(manifest.start_url).toMatch(/^\//)
    // Chromium's install criteria: a 192 and a 512 px icon; a maskable one for launchers.
    for (const [size, purpose] of [
      [192, 'any'],
      [512, 'any'],
      [512, 'maskable'],
    ] as const) {
      const icon = manifest.icons.find(
        (i) => i.sizes === `${size}x${size}` && (i.purpose ?? 'any') === purpose,
      )
      expect(icon, `${size} ${purpose}`).toBeDefined()
      const png = await fetch(`${baseURL()}${icon!.src}`)
      expect(png.headers.get('content-type')).toBe('image/png')
      expect(pngSize(Buffer.from(await png.arrayBuffer()))).toEqual({ width: size, height: size })
    }
    // iOS reads its own tags.
    const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')
    expect((await fetch(`${baseURL()}${touch}`)).status).toBe(200)
    expect(
      await page.locator('meta[name="apple-mobile-web-app-capable"]').getAttribute('content'),
    ).toBe('yes')
    await controlled(page)
    // The worker answers with the CSP (default-src 'self' covers its own fetches).
    const sw = await fetch(`${baseURL()}/sw.js`)
    expect(sw.headers.get('content-security-policy')).toContain("default-src 'self'")
    // The precache is the player's app: the tipping page's chunk, none of the admin console's
    // (built under assets/admin/), which is still served to whoever opens the console.
    const worker = await sw.text()
    expect(worker).toMatch(/assets\/tipping-route-[\w-]+\.js/)
    expect(worker).not.toContain('assets/admin/')
    const adminChunk = fs
      .readdirSync(path.join(dist, 'assets/admin'))
      .find((f) => f.endsWith('.js'))
    expect(adminChunk).toBeDefined()
    expect((await fetch(`${baseURL()}/assets/admin/${adminChunk}`)).status).toBe(200)
    await context.close()
  })
})

describe('tipping offline', () => {
  it('keeps picks saved offline through a reload, sends them on reconnect, and shows a refused one', async () => {
    const { context, page } = await newPage(own.browser, { width: 1280, height: 900 })
    await page.goto('/registration')
    await signUp(page, uniqueEmail('offline'), 'Offline')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    await controlled(page)
    // Once more under the worker's control, so it has the shell and the week as last seen.
    await page.reload()
    await page.getByTestId('autopick').waitFor()

    const round = await apiCall<RoundJson>(page, 'GET', '/api/bbl/predictions/3')
    const open = round.matches
      .filter((m) => m.status === 'scheduled')
      .sort((a, b) => Date.parse(a.date) - Date.parse(b.date))
    // The earliest open match will start before the queue is sent; a later one will not.
    const locks = open[0]!
    const later = open.find((m) => Date.parse(m.date) > Date.parse(locks.date) + 60_000)!
    expect(later).toBeDefined()

    await context.setOffline(true)
    for (const m of [locks, later]) await page.getByTestId(`pick-${m.id}-${m.homeSquadId}`).click()
    await page.getByTestId('save-picks').click()
    await expect
      .poll(() => page.getByTestId('save-picks').textContent(), { timeout: 10_000 })
      .toMatch(/Kept/)
    await page.getByTestId('offline-banner').waitFor()
    await expect
      .poll(() => page.getByTestId(`kept-tip-${later.id}`).textContent())
      .toMatch(/Waiting to send/)

    // A reload without the network: the app's shell and the week come from the service worker,
    // and the kept picks from IndexedDB.
    await page.reload()
    await page.getByTestId('offline-banner').waitFor()
    await page.getByTestId(`kept-tip-${later.id}`).waitFor()
    expect(await axeViolations(page)).toEqual([])
    for (const m of [locks, later])
      await expect
        .poll(() => page.getByTestId(`pick-${m.id}-${m.homeSquadId}`).getAttribute('aria-pressed'))
        .toBe('true')

    // The earliest match starts on the server while the phone is still offline.
    const moved = await fetch(`${baseURL()}/api/test/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: new Date(Date.parse(locks.date) + 1000).toISOString() }),
    })
    expect(moved.status).toBe(200)

    await context.setOffline(false)
    await expect
      .poll(() => page.getByTestId(`kept-tip-${later.id}`).textContent(), { timeout: 30_000 })
      .toMatch(/Saved/)
    await expect
      .poll(() => page.getByTestId(`kept-tip-${locks.id}`).textContent(), { timeout: 30_000 })
      .toMatch(/Refused: This match has started/)
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' })
    // The verdicts, green and red, pass axe's contrast check (light here, dark below).
    expect(await axeViolations(page)).toEqual([])

    // The server's record: the later match has the kept pick, the started one does not.
    const after = await apiCall<RoundJson>(page, 'GET', '/api/bbl/predictions/3')
    const tipOf = (id: number) => after.predictions.find((p) => p.match === id)?.squad ?? 0
    expect(tipOf(later.id)).toBe(later.homeSquadId)
    expect(tipOf(locks.id)).not.toBe(locks.homeSquadId)
    // The queue is empty: a reload sends nothing again and keeps no pick of its own.
    const kept = await keptCount(page)
    expect(kept).toBe(0)
    await context.close()
  })

  it('shows the banner and the kept tips legibly in the dark scheme too', async () => {
    const context = await own.browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
    })
    const page = await context.newPage()
    await page.goto('/registration')
    await signUp(page, uniqueEmail('dark'), 'Night')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    await context.setOffline(true)
    await page.locator('[data-testid^="pick-"]:not([disabled])').first().click()
    await page.getByTestId('save-picks').click()
    await page.getByTestId('offline-banner').waitFor()
    await page.getByTestId('kept-tips').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })

  it('keeps a save whose session had ended and sends it once the same player logs in again', async () => {
    const { context, page } = await newPage(own.browser)
    const email = uniqueEmail('expired-save')
    await page.goto('/registration')
    await signUp(page, email, 'Lapsed')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    const round = await apiCall<RoundJson>(page, 'GET', '/api/bbl/predictions/3')
    const target = round.matches.filter((m) => m.status === 'scheduled').at(-1)!
    await page.getByTestId(`pick-${target.id}-${target.homeSquadId}`).click()
    // The session ends on the server (it expired, or the player signed out everywhere) before
    // the save: the login dialog opens, and the pick is kept, not put back as it was.
    await context.clearCookies()
    await page.getByTestId('save-picks').click()
    const login = page.getByRole('dialog', { name: 'Log in' })
    await login.getByText('Session expired. Please log in again.').waitFor()
    expect(await keptCount(page)).toBe(1)
    await login.locator('input[name="email"]').fill(email)
    await login.locator('input[name="password"]').fill('a long password')
    await login.locator('form button[type="submit"]').click()
    await page.waitForURL((u) => /^\/bbl\/(leagues|tipping)$/.test(u.pathname))
    // Signed in again: the kept pick is sent, and the server has it.
    await expect.poll(() => keptCount(page), { timeout: 15_000 }).toBe(0)
    const after = await apiCall<RoundJson>(page, 'GET', '/api/bbl/predictions/3')
    expect(after.predictions.find((p) => p.match === target.id)?.squad).toBe(target.homeSquadId)
    await context.close()
  })

  it("never sends one user's kept tip for the next user of the browser", async () => {
    const { context, page } = await newPage(own.browser)
    await page.goto('/registration')
    await signUp(page, uniqueEmail('first'), 'First')
    await page.waitForURL('**/bbl/leagues')
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    const round = await apiCall<RoundJson>(page, 'GET', '/api/bbl/predictions/3')
    const target = round.matches.find((m) => m.status === 'scheduled')!
    await context.setOffline(true)
    await page.getByTestId(`pick-${target.id}-${target.homeSquadId}`).click()
    await page.getByTestId('save-picks').click()
    await page.getByTestId(`kept-tip-${target.id}`).waitFor()
    // The session ends without a sign-out (it expired): the tip stays kept, for its owner only.
    await context.clearCookies()
    await context.setOffline(false)
    await page.goto('/registration')
    await signUp(page, uniqueEmail('second'), 'Second')
    // Where the sign-up lands (the leagues, or the tipping link the expired session left).
    await page.waitForURL((u) => /^\/bbl\/(leagues|tipping)$/.test(u.pathname))
    await page.goto('/bbl/tipping')
    await page.getByTestId('autopick').waitFor()
    // The sender clears the other user's queue once the page knows who is signed in; a busy
    // machine takes longer than expect.poll's default second.
    await expect.poll(() => keptCount(page), { timeout: 15_000 }).toBe(0)
    const mine = await apiCall<RoundJson>(page, 'GET', '/api/bbl/predictions/3')
    expect(mine.predictions.find((p) => p.match === target.id)?.squad ?? 0).toBe(0)
    expect(await page.getByTestId('kept-tips').count()).toBe(0)
    await context.close()
  })

  it('forgets the signed-in reads it kept when the user signs out', async () => {
    const { context, page } = await newPage(own.browser)
    await page.goto('/registration')
    await signUp(page, uniqueEmail('signout'), 'Leaving')
    await page.waitForURL('**/bbl/leagues')
    await controlled(page)
    await page.reload()
    await page.waitForURL('**/bbl/leagues')
    const cached = () =>
      page.evaluate(async () => {
        const cache = await caches.open('tipping-api-reads')
        return (await cache.keys()).map((r) => new URL(r.url).pathname)
      })
    await expect.poll(cached, { timeout: 10_000 }).toContain('/api/session')
    await page.goto('/logout')
    await page.waitForURL((u) => u.pathname === '/')
    await expect
      .poll(async () => (await cached()).filter((p) => p !== '/api/session'), { timeout: 10_000 })
      .toEqual([])
    // Offline now, the app does not bring the last user back from a copy.
    await context.setOffline(true)
    await page.goto('/bbl/leagues')
    await page.waitForURL((u) => u.pathname === '/')
    await context.close()
  })
})

// ---------------------------------------------------------------------------------------------
// Updates: a release is picked up on the next visit. The built app is served by a small static
// server from a copy (build A), then from a second copy whose page and service worker differ
// (build B), at the same origin; the page that loaded A is reloaded and runs B.

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/web/dist')
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
}

function serveBuilds(): Promise<{ url: string; use(dir: string): void; close(): Promise<void> }> {
  let root = ''
  const srv = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = path.join(root, pathname)
    if (pathname.startsWith('/api/')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      return res.end('{"errors":[{"code":"NOT_FOUND","message":"none","param":null}]}')
    }
    const found = file.startsWith(root) && fs.existsSync(file) && fs.statSync(file).isFile()
    const served = found ? file : path.join(root, 'index.html')
    res.writeHead(200, {
      'content-type': TYPES[path.extname(served)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    })
    res.end(fs.readFileSync(served))
  })
  return new Promise((resolve) =>
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      resolve({
        url: `http://localhost:${port}`,
        use: (dir) => (root = dir),
        close: () =>
          new Promise((r) => {
            srv.closeAllConnections()
            srv.close(() => r())
          }),
      })
    }),
  )
}

/** The build's version as the controlling service worker reports it (B's answers; A's does not). */
const workerBuild = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const channel = new MessageChannel()
        channel.port1.onmessage = (e) => resolve(String(e.data))
        navigator.serviceWorker.controller?.postMessage({ type: 'build?' }, [channel.port2])
        setTimeout(() => resolve('no answer'), 1000)
      }),
  )

describe('updates', () => {
  it('serves build A, then build B at the same origin: the reload runs B, online and offline', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-builds-'))
    const a = path.join(tmp, 'a')
    const b = path.join(tmp, 'b')
    fs.cpSync(dist, a, { recursive: true })
    fs.cpSync(dist, b, { recursive: true })
    // Build B: another page and a worker that differs by a byte (as any release's precache list
    // does), which also says which build it is when asked.
    const indexB = path.join(b, 'index.html')
    fs.writeFileSync(
      indexB,
      fs
        .readFileSync(indexB, 'utf8')
        .replace('<head>', '<head><meta name="app-build" content="B">'),
    )
    for (const f of ['sw.js.br', 'sw.js.gz']) fs.rmSync(path.join(b, f), { force: true })
    fs.appendFileSync(
      path.join(b, 'sw.js'),
      `\nself.addEventListener('message', (e) => { if (e.data && e.data.type === 'build?') e.ports[0].postMessage('B') })\n`,
    )
    const builds = await serveBuilds()
    try {
      builds.use(a)
      const context = await own.browser.newContext({ baseURL: builds.url })
      const page = await context.newPage()
      await page.goto('/')
      await controlled(page)
      expect(await page.locator('meta[name="app-build"]').count()).toBe(0)
      expect(await workerBuild(page)).toBe('no answer')

      builds.use(b)
      await page.reload()
      // The page is B's at once (pages are network-first); B's worker takes over (skipWaiting).
      expect(await page.locator('meta[name="app-build"]').getAttribute('content')).toBe('B')
      await expect.poll(() => workerBuild(page), { timeout: 30_000 }).toBe('B')

      // Offline, the shell kept is B's too: no stale code is served.
      await context.setOffline(true)
      await page.reload()
      expect(await page.locator('meta[name="app-build"]').getAttribute('content')).toBe('B')
      await context.close()
    } finally {
      await builds.close()
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})
