import { afterEach, describe, expect, it, vi } from 'vitest'
import { BOOT_DATA_ELEMENT_ID } from '@tipping/contract/boot-files'
import { adoptBootStatic, invalidateStatic, staticJson } from './static-data.ts'

// The site content the server wrote into the page is read as if fetched: no request for it.

afterEach(() => {
  vi.unstubAllGlobals()
  document.getElementById(BOOT_DATA_ELEMENT_ID)?.remove()
  invalidateStatic()
})

const bootElement = (text: string) => {
  const el = document.createElement('script')
  el.type = 'application/json'
  el.id = BOOT_DATA_ELEMENT_ID
  el.textContent = text
  document.head.append(el)
}

describe('adoptBootStatic', () => {
  it('answers the inline files and checksums without fetching, and fetches the rest', async () => {
    const bars = { bars: [{ sport: 'bbl', isEnabled: true, message: 'Hi' }] }
    bootElement(
      JSON.stringify({
        checksums: { 'notification_bar.json': 'n1', 'bbl/rounds.json': 'r1' },
        files: { 'notification_bar.json': bars },
      }),
    )
    const fetch = vi.fn(async (url: string) => new Response(JSON.stringify({ url })))
    vi.stubGlobal('fetch', fetch)
    adoptBootStatic()
    expect(await staticJson('notification_bar.json')).toEqual(bars)
    expect(await staticJson('bbl/rounds.json')).toEqual({ url: '/static/bbl/rounds.json?v=r1' })
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/static/bbl/rounds.json?v=r1'])
  })

  it('ignores a data block that is not JSON and fetches as usual', async () => {
    bootElement('{not json')
    const fetch = vi.fn(async (url: string) =>
      url.startsWith('/static/checksums.json')
        ? new Response(JSON.stringify({ files: { 'a.json': 'c' } }))
        : new Response(JSON.stringify({ fetched: url })),
    )
    vi.stubGlobal('fetch', fetch)
    adoptBootStatic()
    expect(await staticJson('a.json')).toEqual({ fetched: '/static/a.json?v=c' })
    expect(fetch).toHaveBeenCalledTimes(2)
  })
})

describe('staticJson', () => {
  it('shares one request between readers of the same file at the same time', async () => {
    const fetch = vi.fn(async (url: string) =>
      url.startsWith('/static/checksums.json')
        ? new Response(JSON.stringify({ files: { 'b.json': 'v1' } }))
        : new Response(JSON.stringify({ fetched: url })),
    )
    vi.stubGlobal('fetch', fetch)
    const [first, second] = await Promise.all([staticJson('b.json'), staticJson('b.json')])
    expect(first).toEqual({ fetched: '/static/b.json?v=v1' })
    expect(second).toBe(first)
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([
      '/static/checksums.json',
      '/static/b.json?v=v1',
    ])
  })
})
