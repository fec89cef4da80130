import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Share links answer with a page the networks can preview (Open Graph and card tags) that sends
// people on into the app, without ever naming a private league.

let t: TestApp
let publicId: number
let privateId: number
const token = (json: object) =>
  encodeURIComponent(Buffer.from(JSON.stringify(json)).toString('base64'))
const meta = (html: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(html)?.[1]

beforeAll(async () => {
  t = await createTestApp({
    now: new Date('2025-12-01T00:00:00Z'),
    config: { APP_ORIGIN: 'https://tips.example' },
  })
  await loadSeasons(t.db)
  const boss = await registerUser(t.app)
  const create = async (name: string, privacy: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/bbl/league',
        headers: { cookie: boss.cookie, origin: 'https://tips.example' },
        payload: { name, privacy, startRound: 1 },
      })
    ).json().success.league.id as number
  publicId = await create('Sixes <b>& Co</b>', 'public')
  privateId = await create('Secret Office Crew', 'private')
})
afterAll(() => t.close())

describe('share pages', () => {
  it('previews a public league by name (escaped) and sends people to its ladder', async () => {
    const res = await t.app.inject({
      url: `/share/bbl/league/${token({ t: '1234', league_id: publicId })}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(meta(res.body, 'og:title')).toBe('Sixes &lt;b&gt;&amp; Co&lt;/b&gt; · BBL Tipping')
    expect(meta(res.body, 'og:image')).toBe('https://tips.example/share-card.png')
    expect(meta(res.body, 'twitter:card')).toBe('summary_large_image')
    expect(res.body).toContain(`content="0; url=/bbl/league/${publicId}/ladder"`)
    expect(res.body).not.toContain('<b>')
  })

  it('never names a private league', async () => {
    const res = await t.app.inject({
      url: `/share/bbl/league/${token({ t: '1', league_id: privateId })}`,
    })
    expect(res.body).not.toContain('Secret Office Crew')
    expect(meta(res.body, 'og:title')).toBe('BBL Tipping')
  })

  it('sends a general share to the competition, and junk to the home page', async () => {
    const general = await t.app.inject({ url: `/share/wbbl/general/${token({ t: '9' })}` })
    expect(meta(general.body, 'og:title')).toBe('WBBL Tipping')
    expect(general.body).toContain('content="0; url=/wbbl"')
    const junk = await t.app.inject({ url: '/share/cricket/league/%25%25notbase64' })
    expect(junk.statusCode).toBe(200)
    expect(junk.body).toContain('content="0; url=/"')
  })

  it('serves the preview image', async () => {
    const res = await t.app.inject({ url: '/share-card.png' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG')
  })
})
