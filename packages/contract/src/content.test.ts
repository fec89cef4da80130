import { describe, expect, it } from 'vitest'
import { contentLinkSchema, isSitePath } from './content.ts'

// Issue 26 item 10a: admin-entered links (top banner, adverts) are a path on this site or an
// https:// address. A browser reads `\` as `/` in a URL's path and drops tabs and line breaks, so
// `/\evil.example/x` went off-site as `//evil.example/x` (protocol-relative).

const ORIGIN = 'https://tipping.example'
// The WHATWG URL parser browsers use (the contract's own types know no URL: it runs anywhere).
const { URL: WhatwgUrl } = globalThis as unknown as {
  URL: new (input: string, base: string) => { origin: string }
}
const resolvesHere = (v: string) => new WhatwgUrl(v, ORIGIN).origin === ORIGIN

describe('content links', () => {
  it.each([
    '/\\evil.example/x',
    '/\\\\evil.example',
    '\\\\evil.example',
    '//evil.example/x',
    '/%5C/ok-but/\\evil',
    '/path\\with\\backslashes',
    '/\t/evil.example',
    '/\n/evil.example',
    ' //evil.example',
    'evil.example/x',
    'http://evil.example',
    'javascript:alert(1)',
  ])('refuses %j', (v) => {
    expect(contentLinkSchema.safeParse(v).success).toBe(false)
  })

  it.each(['/', '/bbl/help/game-rules', '/static/ads/mrec.png?v=2#top', '/a/%5Cb'])(
    'keeps the site path %j, which a browser resolves on this site',
    (v) => {
      expect(contentLinkSchema.parse(v)).toBe(v)
      expect(resolvesHere(v)).toBe(true)
    },
  )

  it('keeps https:// addresses elsewhere', () => {
    expect(contentLinkSchema.parse('https://shop.example/offer?a=1')).toBe(
      'https://shop.example/offer?a=1',
    )
  })

  it('accepts as a site path only what a browser resolves on this site', () => {
    for (const v of ['/\\evil.example/x', '//evil.example', '/ok', '/\\/x', '/./\\evil'])
      expect(isSitePath(v), v).toBe(resolvesHere(v) && !v.includes('\\'))
  })
})
