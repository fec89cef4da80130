import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers.ts'

// What the site answers at a path, as an uptime monitor, a crawler, a scanner or an old tab
// asks it: the app's pages with 200 (to HEAD as to GET), anything else with the app's not-found
// page and 404, and a missing file as missing, not as a page.

const INDEX =
  '<!doctype html><html><head><meta name="description" content="Tip &amp; win" />' +
  '<title>x</title></head><body>app</body></html>'
let web: string
let t: TestApp
let origin: string

beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-web-'))
  fs.writeFileSync(path.join(web, 'index.html'), INDEX)
  fs.mkdirSync(path.join(web, 'assets'))
  fs.writeFileSync(path.join(web, 'assets', 'index-abc.js'), 'console.log(1)\n')
  t = await createTestApp({ config: { WEB_DIST_DIR: web, APP_ORIGIN: 'https://tipping.example' } })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
afterAll(async () => {
  await t.close()
  fs.rmSync(web, { recursive: true, force: true })
})

const PAGES = [
  '/',
  '/bbl',
  '/wbbl/tipping',
  '/bbl/tipping/',
  '/bbl/Tipping',
  '/bbl/league/12/ladder',
  '/wbbl/archive/2024/league/3',
  '/bbl/help/game-rules',
  '/admin/health',
  '/login/callback',
  '/leagues/join/ABC123',
  '/reset-password?token=x',
]
const NOT_PAGES = [
  '/nonexistent',
  '/xyz/tipping',
  '/BBL/tipping',
  '/bbl/tipping/extra',
  '/bbl/nonexistent',
  '/index.html',
  '/wp-login.php',
  '/.env',
  '/assets/missing-abc.js',
  '/icons/none.png',
]

describe('paths of the site', () => {
  it.each(PAGES)('GET %s is the app with 200', async (url) => {
    const res = await fetch(origin + url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await res.text()).toContain('<body>app</body>')
  })

  it.each(NOT_PAGES)('GET %s is the app (its not-found page) with 404', async (url) => {
    const res = await fetch(origin + url)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await res.text()).toContain('<body>app</body>')
  })

  it('answers HEAD as GET without a body: 200 for a page, 404 for none', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/bbl/tipping', 200],
      ['/nonexistent', 404],
    ] as const) {
      const get = await fetch(origin + url)
      const getBody = await get.arrayBuffer()
      const head = await fetch(origin + url, { method: 'HEAD' })
      expect(head.status, url).toBe(status)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(head.headers.get('cache-control')).toBe('no-cache')
      expect(Number(head.headers.get('content-length'))).toBe(getBody.byteLength)
      expect((await head.arrayBuffer()).byteLength).toBe(0)
    }
  })

  it('serves the built files themselves, and answers the API and other methods with the envelope', async () => {
    const script = await fetch(`${origin}/assets/index-abc.js`)
    expect(script.status).toBe(200)
    expect(await script.text()).toBe('console.log(1)\n')
    const head = await fetch(`${origin}/assets/index-abc.js`, { method: 'HEAD' })
    expect(head.status).toBe(200)

    const api = await fetch(`${origin}/api/nonexistent`)
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ errors: [{ code: 'NOT_FOUND' }] })
    const post = await fetch(`${origin}/bbl/tipping`, { method: 'DELETE' })
    expect(post.status).toBe(404)
    expect(post.headers.get('content-type')).toMatch(/^application\/json/)
  })
})

describe('link previews', () => {
  it("name the game (the sport's on its pages), the description and the share card, at the configured origin", async () => {
    const meta = async (url: string, host?: string) => {
      const html = await (await fetch(origin + url, host ? { headers: { host } } : {})).text()
      return Object.fromEntries(
        [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [
          m[1],
          m[2],
        ]),
      )
    }
    expect(await meta('/')).toMatchObject({
      'og:title': 'Big Bash Tipping',
      'og:site_name': 'Big Bash Tipping',
      'og:description': 'Tip &amp; win',
      'og:image': 'https://tipping.example/share-card.png',
      'og:url': 'https://tipping.example/',
      'twitter:card': 'summary_large_image',
    })
    expect((await meta('/wbbl/leagues/join/ABC'))['og:title']).toBe('WBBL Tipping')
    expect((await meta('/bbl/tipping', 'evil.example'))['og:image']).toBe(
      'https://tipping.example/share-card.png',
    )
  })
})
