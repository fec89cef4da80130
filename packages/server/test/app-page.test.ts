import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BOOT_DATA_ELEMENT_ID, type BootStatic } from '@tipping/contract/boot-files'
import { SPORT_PAGE_MODULES } from '../src/http/route-preloads.ts'
import { createTestApp, type TestApp } from './helpers.ts'

// The app page carries the site content and the checksums inline (http/app-page.ts), so the
// first paint waits for no request of its own; admin-written text in it must stay data.

const hostile = '</script><script>alert(1)</script><!--'
let web: string
let statics: string
let t: TestApp

beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-web-'))
  statics = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-static-'))
  fs.writeFileSync(
    path.join(web, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body></body></html>',
  )
  // A build's manifest, in Vite's shape: the entry, a page that shares a chunk with it, and a
  // chunk with a stylesheet of its own.
  fs.mkdirSync(path.join(web, '.vite'))
  fs.writeFileSync(
    path.join(web, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js'] },
      '_react-1.js': { file: 'assets/react-1.js' },
      '_modal-1.js': {
        file: 'assets/modal-1.js',
        imports: ['_react-1.js'],
        css: ['assets/modal-1.css'],
      },
      [SPORT_PAGE_MODULES.tipping!]: {
        file: 'assets/tipping-page-1.js',
        isDynamicEntry: true,
        imports: ['_react-1.js', 'index.html', '_modal-1.js'],
        css: ['assets/tipping-page-1.css'],
      },
    }),
  )
  t = await createTestApp({ config: { WEB_DIST_DIR: web, STATIC_DIR: statics } })
  // Written after start-up (whatever the app published then), as a publish would.
  fs.writeFileSync(
    path.join(statics, 'checksums.json'),
    JSON.stringify({ files: { 'notification_bar.json': 'n1', 'bbl/rounds.json': 'r1' } }),
  )
  fs.writeFileSync(
    path.join(statics, 'notification_bar.json'),
    JSON.stringify({ bars: [{ sport: 'bbl', isEnabled: true, message: hostile }] }),
  )
  fs.rmSync(path.join(statics, 'app-config.json'), { force: true })
})
afterAll(async () => {
  await t.close()
  fs.rmSync(web, { recursive: true, force: true })
  fs.rmSync(statics, { recursive: true, force: true })
})

const bootOf = (html: string): BootStatic => {
  const open = `<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">`
  const start = html.indexOf(open)
  expect(start).toBeGreaterThan(0)
  const end = html.indexOf('</script>', start)
  return JSON.parse(html.slice(start + open.length, end)) as BootStatic
}

describe('the app page', () => {
  it('carries the checksums and the site content, with admin text unable to end the element', async () => {
    const res = await t.app.inject({ url: '/bbl/tipping' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.body).not.toContain(hostile)
    const boot = bootOf(res.body)
    expect(boot.checksums).toEqual({ 'notification_bar.json': 'n1', 'bbl/rounds.json': 'r1' })
    // Only the site content is inline; a missing file is left for the app to fetch.
    expect(boot.files).toEqual({
      'notification_bar.json': { bars: [{ sport: 'bbl', isEnabled: true, message: hostile }] },
    })
  })

  it('shows a publish on the very next page', async () => {
    const bars = { bars: [{ sport: 'wbbl', isEnabled: true, message: 'Finals week' }] }
    fs.writeFileSync(path.join(statics, 'notification_bar.json'), JSON.stringify(bars))
    fs.writeFileSync(
      path.join(statics, 'checksums.json'),
      JSON.stringify({ files: { 'notification_bar.json': 'n2' } }),
    )
    const boot = bootOf((await t.app.inject({ url: '/bbl/tipping' })).body)
    expect(boot.checksums).toEqual({ 'notification_bar.json': 'n2' })
    expect(boot.files).toEqual({ 'notification_bar.json': bars })
  })

  it('preloads the session check, which every page makes at boot', async () => {
    const preload =
      '<link rel="preload" href="/api/session" as="fetch" crossorigin="use-credentials">'
    for (const url of ['/wbbl/leagues?x=1', '/bbl', '/', '/bblx/tipping'])
      expect((await t.app.inject({ url })).body, url).toContain(preload)
    const landing = await t.app.inject({ url: '/' })
    expect(landing.body.match(/rel="preload"/g)).toHaveLength(1)
    expect(bootOf(landing.body).checksums).toHaveProperty('notification_bar.json')
  })

  it("preloads a sport page's own chunks, not what the main script brings", async () => {
    const head = (await t.app.inject({ url: '/wbbl/tipping?round=3' })).body.split('</head>')[0]!
    const links = [
      ...head.matchAll(/<link rel="(stylesheet|modulepreload)" crossorigin href="([^"]+)">/g),
    ]
    expect(links.map((m) => `${m[1]} ${m[2]}`)).toEqual([
      'stylesheet /assets/tipping-page-1.css',
      'stylesheet /assets/modal-1.css',
      'modulepreload /assets/tipping-page-1.js',
      'modulepreload /assets/modal-1.js',
    ])
    // A page the manifest does not know, the landing page and a non-sport path: nothing.
    for (const url of ['/bbl/leagues', '/bbl', '/', '/tipping'])
      expect((await t.app.inject({ url })).body).not.toContain('modulepreload')
    // The manifest itself is the server's, not a public file.
    expect((await t.app.inject({ url: '/.vite/manifest.json' })).body).not.toContain('isEntry')
  })

  it("preloads the tipping page's static files for a signed-in visitor, as the app asks for them", async () => {
    fs.writeFileSync(
      path.join(statics, 'checksums.json'),
      JSON.stringify({ files: { 'wbbl/rounds.json': 'r2', 'wbbl/squads.json': 's"><x' } }),
    )
    const cookie = { tip_session: 'anything' }
    const links = (body: string) =>
      [
        ...body.matchAll(/<link rel="preload" href="(\/static\/[^"]+)" as="fetch" crossorigin>/g),
      ].map((m) => m[1])
    expect(links((await t.app.inject({ url: '/wbbl/tipping', cookies: cookie })).body)).toEqual([
      '/static/wbbl/rounds.json?v=r2',
      // A checksum that is not the publisher's hex is not written into the page.
      '/static/wbbl/venues.json',
      '/static/wbbl/formguide.json',
    ])
    const secure = { '__Host-tip_session': 'anything' }
    expect(
      links((await t.app.inject({ url: '/wbbl/tipping', cookies: secure })).body),
    ).toHaveLength(3)
    // Signed out (sent on to sign in), or another page: none.
    expect(links((await t.app.inject({ url: '/wbbl/tipping' })).body)).toEqual([])
    expect(links((await t.app.inject({ url: '/wbbl/leagues', cookies: cookie })).body)).toEqual([])
    expect(links((await t.app.inject({ url: '/', cookies: cookie })).body)).toEqual([])
  })

  it('preloads the week the tipping page opens on, for a signed-in visitor, as the app reads it', async () => {
    const round = (id: number, number: number, status: string) => ({
      id,
      number,
      label: `Week ${number}`,
      status,
      startDate: '2026-12-01T08:00:00.000Z',
      endDate: '2026-12-08T08:00:00.000Z',
      isGoldenWeek: false,
      matches: [],
    })
    const publish = (rounds: unknown[], sum: string) => {
      fs.mkdirSync(path.join(statics, 'wbbl'), { recursive: true })
      const competition = {
        identifier: 'wbbl-11',
        name: "Women's Big Bash League",
        season: 11,
        year: '2025-26',
        goldenWeekRound: null,
      }
      fs.writeFileSync(
        path.join(statics, 'wbbl', 'rounds.json'),
        JSON.stringify({ competition, rounds }),
      )
      fs.writeFileSync(
        path.join(statics, 'checksums.json'),
        JSON.stringify({ files: { 'wbbl/rounds.json': sum } }),
      )
    }
    const cookie = { tip_session: 'anything' }
    const week = (body: string) =>
      [
        ...body.matchAll(
          /<link rel="preload" href="(\/api\/[^"]+)" as="fetch" crossorigin="use-credentials">/g,
        ),
      ]
        .map((m) => m[1])
        .filter((href) => href !== '/api/session')
    // Round ids are not week numbers: the link names the first open week by its number.
    publish([round(31, 1, 'complete'), round(32, 2, 'active'), round(33, 3, 'scheduled')], 'a1')
    expect(week((await t.app.inject({ url: '/wbbl/tipping', cookies: cookie })).body)).toEqual([
      '/api/wbbl/predictions/2',
    ])
    expect(week((await t.app.inject({ url: '/wbbl/tipping/', cookies: cookie })).body)).toEqual([
      '/api/wbbl/predictions/2',
    ])
    // A publish moves it on the next page.
    publish([round(31, 1, 'complete'), round(32, 2, 'complete'), round(33, 3, 'scheduled')], 'a2')
    expect(week((await t.app.inject({ url: '/wbbl/tipping', cookies: cookie })).body)).toEqual([
      '/api/wbbl/predictions/3',
    ])
    // Signed out, another page, or no fixture the server can read: no week is guessed.
    expect(week((await t.app.inject({ url: '/wbbl/tipping' })).body)).toEqual([])
    for (const url of ['/wbbl/tips-history', '/wbbl/leagues', '/bbl/tipping', '/'])
      expect(week((await t.app.inject({ url, cookies: cookie })).body), url).toEqual([])
    fs.writeFileSync(path.join(statics, 'wbbl', 'rounds.json'), '{"rounds": "not a fixture"}')
    fs.writeFileSync(path.join(statics, 'checksums.json'), JSON.stringify({ files: {} }))
    expect(week((await t.app.inject({ url: '/wbbl/tipping', cookies: cookie })).body)).toEqual([])
  })

  it('names page modules that exist in the web app', () => {
    const webRoot = path.resolve(import.meta.dirname, '../../web')
    const router = fs.readFileSync(path.join(webRoot, 'src/app/router.tsx'), 'utf8')
    for (const [segment, module] of Object.entries(SPORT_PAGE_MODULES)) {
      expect(fs.existsSync(path.join(webRoot, module)), module).toBe(true)
      // The router lazy-loads that module for that segment.
      const imported = `import('../${module.replace(/^src\//, '')}')`
      const at = router.search(new RegExp(`path: '${segment}['/]`))
      expect(at, segment).toBeGreaterThan(0)
      expect(router.indexOf(imported, at) - at, `${segment} -> ${module}`).toBeLessThan(200)
    }
  })
})
