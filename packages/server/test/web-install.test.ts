import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers.ts'

// The installable app's files (decision 025): the service worker and the manifest are served
// from the built web app, revalidated on every visit (a release is seen at the next one), with
// the same CSP as every answer: `default-src 'self'` is what lets the worker fetch, and the
// page load its manifest, with no directive of their own.

let web: string
let t: TestApp
beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-web-'))
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><head></head></html>')
  fs.writeFileSync(path.join(web, 'sw.js'), 'self.addEventListener("fetch", () => {})\n')
  fs.writeFileSync(path.join(web, 'manifest.webmanifest'), '{"name":"Big Bash Tipping"}')
  t = await createTestApp({ config: { WEB_DIST_DIR: web } })
})
afterAll(async () => {
  await t.close()
  fs.rmSync(web, { recursive: true, force: true })
})

describe('the installable app files', () => {
  it('serves the worker and the manifest with their types, revalidated each visit', async () => {
    const sw = await t.app.inject({ url: '/sw.js' })
    expect(sw.statusCode).toBe(200)
    expect(sw.headers['content-type']).toMatch(/javascript/)
    expect(sw.headers['cache-control']).toBe('no-cache')
    const manifest = await t.app.inject({ url: '/manifest.webmanifest' })
    expect(manifest.statusCode).toBe(200)
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/)
    expect(manifest.headers['cache-control']).toBe('no-cache')
    for (const res of [sw, manifest]) {
      const csp = String(res.headers['content-security-policy'])
      expect(csp).toContain("default-src 'self'")
      expect(csp).not.toMatch(/worker-src|manifest-src/)
    }
  })
})
