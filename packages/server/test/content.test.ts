import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  contentResponseSchema,
  faqsFileSchema,
  helpPagesFileSchema,
  mrecsFileSchema,
  notificationBarFileSchema,
} from '@tipping/contract/content'
import { appConfigFileSchema } from '@tipping/contract/static-files'
import { TOP_PRIZE } from '@tipping/contract/constants'
import { createTestApp, registerUser, type TestApp } from './helpers.ts'

// Issue 7: the admin content routes. Admin only; each key validated by its schema with the field
// named; one audit row per change in the same transaction; the public files republished at once.

let t: TestApp
let admin: { cookie: string; id: number }
let tipper: { cookie: string; id: number }

beforeAll(async () => {
  t = await createTestApp()
  admin = await registerUser(t.app)
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN'] })
    .where('id', '=', admin.id)
    .execute()
  tipper = await registerUser(t.app)
})
afterAll(() => t.close())

const getContent = (cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/admin/content',
    headers: cookie ? { cookie } : {},
  })
const put = (key: string, payload: unknown, cookie: string | null = admin.cookie) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/content/${key}`,
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  })
/** A published file as the browser reads it, through /static/. */
const staticFile = async (file: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/static/${file}` })
  expect(res.statusCode, file).toBe(200)
  return res.json<unknown>()
}
const auditRows = (key: string) =>
  t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', '=', 'content')
    .where('entity_id', '=', key)
    .orderBy('id')
    .execute()

const advert = {
  type: 'mrec',
  desktopImage: '/ads/demo-mrec-desktop.png',
  mobileImage: '/ads/demo-mrec-mobile.png',
  url: 'https://example.com/offer',
}

describe('admin content routes', () => {
  it('refuse visitors (401) and signed-in non-admins (403), for reads and writes', async () => {
    expect((await getContent()).statusCode).toBe(401)
    const forbidden = await getContent(tipper.cookie)
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().errors[0].code).toBe('FORBIDDEN')
    const write = await put('site_switches', { offseason: true, loginEnabled: true }, tipper.cookie)
    expect(write.statusCode).toBe(403)
    expect(
      (await put('site_switches', { offseason: true, loginEnabled: true }, null)).statusCode,
    ).toBe(401)
    // Nothing was stored by the refused writes.
    expect(await t.db.selectFrom('content_settings').selectAll().execute()).toEqual([])
  })

  it('read every setting with defaults when nothing is stored: written help, nothing shown', async () => {
    const res = await getContent(admin.cookie)
    expect(res.statusCode).toBe(200)
    const { content } = contentResponseSchema.parse(res.json().success)
    expect(content.site_switches).toEqual({ offseason: false, loginEnabled: true })
    expect(content.notification_bars.bbl.isEnabled).toBe(false)
    expect(content.adverts).toEqual({ bbl: [], wbbl: [] })
    for (const sport of ['bbl', 'wbbl'] as const) {
      expect(content.faqs[sport].length).toBeGreaterThan(5)
      expect(content.help_pages[sport].map((p) => p.section)).toEqual([
        'guidelines',
        'game-rules',
        'prizes',
      ])
    }
    expect(content.help_pages.bbl.find((p) => p.section === 'prizes')!.body).toContain(TOP_PRIZE)
  })

  it('the default help is published at start: faqs.json and help_pages.json per sport', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/admin/content',
      headers: { cookie: admin.cookie },
    })
    // createTestApp does not publish; a publish (as at start) writes the content files too.
    const { Publisher } = await import('../src/modules/publisher/service.ts')
    const publisher = new Publisher(t.db, t.clock, { staticDir: t.staticDir, logosDir: '/nowhere' })
    const files = await publisher.publishAll()
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'app-config.json',
        'notification_bar.json',
        'bbl/faqs.json',
        'wbbl/help_pages.json',
        'bbl/mrecs.json',
      ]),
    )
    const faqs = faqsFileSchema.parse(await staticFile('wbbl/faqs.json'))
    expect(faqs.faqs[0]!.question).toBe('What is Big Bash Tipping?')
    expect(faqs.faqs[0]!.answer).toContain("Women's Big Bash League")
    const help = helpPagesFileSchema.parse(await staticFile('bbl/help_pages.json'))
    expect(help.pages.find((p) => p.section === 'game-rules')!.body).toContain('Worked example')
    const config = appConfigFileSchema.parse(await staticFile('app-config.json'))
    expect(config).toMatchObject({ offseason: false, loginEnabled: true, topBanner: null })
  })

  it('set a key: stored, audited with before and after, files republished and readable', async () => {
    const res = await put('site_switches', { offseason: true, loginEnabled: false })
    expect(res.statusCode).toBe(200)
    const { content } = contentResponseSchema.parse(res.json().success)
    expect(content.site_switches).toEqual({ offseason: true, loginEnabled: false })
    // GET agrees.
    const again = contentResponseSchema.parse((await getContent(admin.cookie)).json().success)
    expect(again.content.site_switches).toEqual({ offseason: true, loginEnabled: false })

    const audit = await auditRows('site_switches')
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({ actor_user_id: admin.id, action: 'content.update' })
    expect(audit[0]!.data).toEqual({
      before: null,
      after: { offseason: true, loginEnabled: false },
    })

    const config = appConfigFileSchema.parse(await staticFile('app-config.json'))
    expect(config.offseason).toBe(true)
    expect(config.loginEnabled).toBe(false)
    // The checksum list names the new app-config, so browsers refetch it.
    const sums = (await staticFile('checksums.json')) as { files: Record<string, string> }
    expect(sums.files['app-config.json']).toMatch(/^[0-9a-f]{16}$/)

    const back = await put('site_switches', { offseason: false, loginEnabled: true })
    expect(back.statusCode).toBe(200)
    const audit2 = await auditRows('site_switches')
    expect(audit2).toHaveLength(2)
    expect((audit2[1]!.data as { before: unknown }).before).toEqual({
      offseason: true,
      loginEnabled: false,
    })
    expect(appConfigFileSchema.parse(await staticFile('app-config.json')).offseason).toBe(false)
  })

  it('notification bars, top banner and adverts reach their files', async () => {
    expect(
      (
        await put('notification_bars', {
          bbl: { isEnabled: true, message: 'Round 4 starts Friday.' },
          wbbl: { isEnabled: false, message: '' },
        })
      ).statusCode,
    ).toBe(200)
    const bars = notificationBarFileSchema.parse(await staticFile('notification_bar.json'))
    expect(bars.bars).toEqual([
      { sport: 'bbl', isEnabled: true, message: 'Round 4 starts Friday.' },
      { sport: 'wbbl', isEnabled: false, message: '' },
    ])

    expect(
      (
        await put('top_banner', {
          isEnabled: true,
          message: 'Golden Week is here',
          url: '/bbl/help/game-rules',
        })
      ).statusCode,
    ).toBe(200)
    expect(appConfigFileSchema.parse(await staticFile('app-config.json')).topBanner).toEqual({
      message: 'Golden Week is here',
      url: '/bbl/help/game-rules',
    })

    const leaderboard = {
      ...advert,
      type: 'leaderboard',
      desktopImage: '/ads/demo-leaderboard-desktop.png',
      alt: 'Win $10,000. See the prizes.',
    }
    expect((await put('adverts', { bbl: [advert, leaderboard], wbbl: [] })).statusCode).toBe(200)
    const mrecs = mrecsFileSchema.parse(await staticFile('bbl/mrecs.json'))
    expect(mrecs.adverts.map((a) => [a.sport, a.type, a.alt])).toEqual([
      ['bbl', 'mrec', undefined],
      ['bbl', 'leaderboard', 'Win $10,000. See the prizes.'],
    ])
    expect(mrecsFileSchema.parse(await staticFile('wbbl/mrecs.json')).adverts).toEqual([])
  })

  it('faqs and help pages replace the defaults in their files', async () => {
    const { content } = contentResponseSchema.parse((await getContent(admin.cookie)).json().success)
    const faqs = {
      ...content.faqs,
      wbbl: [{ question: 'Is it free?', answer: 'Yes, always.' }],
    }
    expect((await put('faqs', faqs)).statusCode).toBe(200)
    expect(faqsFileSchema.parse(await staticFile('wbbl/faqs.json')).faqs).toEqual(faqs.wbbl)
    const pages = {
      ...content.help_pages,
      bbl: [{ section: 'prizes', title: 'Prizes', body: 'First paragraph.\n\nSecond.' }],
    }
    expect((await put('help_pages', pages)).statusCode).toBe(200)
    expect(helpPagesFileSchema.parse(await staticFile('bbl/help_pages.json')).pages).toEqual(
      pages.bbl,
    )
  })

  it('refuse bad values with a VALIDATION error naming the field, and change nothing', async () => {
    const before = await t.db.selectFrom('audit_log').select('id').execute()
    const cases: [string, unknown, string][] = [
      ['site_switches', { offseason: 'yes', loginEnabled: true }, 'offseason'],
      ['site_switches', { offseason: true }, 'loginEnabled'],
      [
        'notification_bars',
        { bbl: { isEnabled: true, message: '' }, wbbl: { isEnabled: false, message: '' } },
        'bbl.message',
      ],
      ['top_banner', { isEnabled: false, message: '', url: 'javascript:alert(1)' }, 'url'],
      // A browser reads `\` as `/`: this is the protocol-relative //evil.example (issue 26, 10a).
      ['top_banner', { isEnabled: false, message: '', url: '/\\evil.example/x' }, 'url'],
      ['adverts', { bbl: [{ ...advert, url: '/\\/evil.example' }], wbbl: [] }, 'bbl.0.url'],
      ['adverts', { bbl: [{ ...advert, type: 'skyscraper' }], wbbl: [] }, 'bbl.0.type'],
      ['adverts', { bbl: [{ ...advert, alt: 'x'.repeat(201) }], wbbl: [] }, 'bbl.0.alt'],
      ['adverts', { bbl: [{ ...advert, alt: 'two\nlines' }], wbbl: [] }, 'bbl.0.alt'],
      [
        'adverts',
        { bbl: [{ ...advert, mobileImage: 'http://x.example/a.png' }], wbbl: [] },
        'bbl.0.mobileImage',
      ],
      ['faqs', { bbl: [{ question: 'Q?', answer: '' }], wbbl: [] }, 'bbl.0.answer'],
      [
        'help_pages',
        {
          bbl: [
            { section: 'prizes', title: 'A', body: 'x' },
            { section: 'prizes', title: 'B', body: 'y' },
          ],
          wbbl: [],
        },
        'bbl.1.section',
      ],
      [
        'help_pages',
        { bbl: [{ section: 'Game Rules', title: 'A', body: 'x' }], wbbl: [] },
        'bbl.0.section',
      ],
      ['faqs', [1, 2], 'body'],
      // Strict as every request body: a misspelt field is named, not dropped (issue 27).
      ['faqs', { bbl: [{ question: 'Q?', answer: 'A.', anwser: 'A.' }], wbbl: [] }, 'bbl.0.anwser'],
      [
        'site_switches',
        { offseason: false, loginEnabled: true, login_enabled: true },
        'login_enabled',
      ],
    ]
    for (const [key, value, field] of cases) {
      const res = await put(key, value)
      expect(res.statusCode, `${key} ${field}`).toBe(400)
      const [error] = res.json().errors
      expect(error.code).toBe('VALIDATION')
      expect(error.param, `${key} ${JSON.stringify(value)}`).toBe(field)
      expect(error.message.length).toBeGreaterThan(0)
    }
    // An unknown key is refused by the route, naming the key.
    const unknown = await put('colour_scheme', { dark: true })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors[0].param).toBe('key')
    expect(await t.db.selectFrom('audit_log').select('id').execute()).toHaveLength(before.length)
    // The published files still hold the last good values.
    expect(appConfigFileSchema.parse(await staticFile('app-config.json')).offseason).toBe(false)
  })
})
