import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers.ts'

// The built app's scripts go out in the compressed copy the build wrote beside them
// (scripts/precompress.mjs), chosen by Accept-Encoding, and cached for good.

const script = Buffer.from(`console.log(${JSON.stringify('x'.repeat(4000))})\n`)
let web: string
let t: TestApp
beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-web-'))
  fs.mkdirSync(path.join(web, 'assets'))
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><head></head></html>')
  const file = path.join(web, 'assets', 'index-abc.js')
  fs.writeFileSync(file, script)
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script))
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script))
  t = await createTestApp({ config: { WEB_DIST_DIR: web } })
})
afterAll(async () => {
  await t.close()
  fs.rmSync(web, { recursive: true, force: true })
})

const fetchScript = (encoding?: string) =>
  t.app.inject({
    url: '/assets/index-abc.js',
    headers: encoding ? { 'accept-encoding': encoding } : {},
  })

describe('built assets', () => {
  it('sends brotli, else gzip, else the plain file, each decoding to the same script', async () => {
    const br = await fetchScript('gzip, deflate, br')
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(script)).toBe(true)
    expect(br.rawPayload.length).toBeLessThan(script.length / 10)

    const gz = await fetchScript('gzip')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gz.rawPayload).equals(script)).toBe(true)

    const plain = await fetchScript()
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.equals(script)).toBe(true)

    for (const res of [br, gz, plain]) {
      expect(res.headers['content-type']).toMatch(/javascript/)
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
  })
})
