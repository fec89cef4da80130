import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The files at the site's root that browsers and crawlers ask for without reading a page.

const web = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => fs.readFileSync(path.join(web, file))

describe('the site root files', () => {
  it('favicon.ico is an icon directory of 16, 32 and 48 px PNG images', () => {
    const ico = read('public/favicon.ico')
    expect(ico.readUInt16LE(0)).toBe(0)
    expect(ico.readUInt16LE(2)).toBe(1)
    const count = ico.readUInt16LE(4)
    const images = Array.from({ length: count }, (_, i) => {
      const at = 6 + 16 * i
      const [size, offset] = [ico.readUInt32LE(at + 8), ico.readUInt32LE(at + 12)]
      const png = ico.subarray(offset, offset + size)
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
      // The PNG's own width and height (its IHDR) are the entry's.
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([ico[at], ico[at + 1]])
      return ico[at]
    })
    expect(images).toEqual([16, 32, 48])
  })

  it("the page names the game's own icons, not a club's crest", () => {
    const html = read('index.html').toString('utf8')
    const icons = [...html.matchAll(/<link rel="icon"[^>]*href="([^"]+)"/g)].map((m) => m[1])
    expect(icons).toEqual(['/favicon.ico', '/icons/icon.svg'])
    for (const icon of icons) expect(fs.existsSync(path.join(web, 'public', icon!))).toBe(true)
  })

  it('robots.txt keeps crawlers off the API, the console and invite and reset links', () => {
    const rules = read('public/robots.txt')
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith('Disallow: '))
      .map((line) => line.slice('Disallow: '.length))
    expect(rules).toEqual(
      expect.arrayContaining([
        '/api/',
        '/admin',
        '/leagues/join/',
        '/*/leagues/join/',
        '/reset-password',
      ]),
    )
    // The landing and help pages stay crawlable.
    expect(rules.filter((rule) => rule === '/' || rule.startsWith('/*/help'))).toEqual([])
  })
})
