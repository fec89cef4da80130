import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAppPage } from '@tipping/contract/pages'
import { CANADA_STATES } from '@tipping/contract/site'
import { PREREGISTRATION_SUCCESS } from '@tipping/contract/site-rules'
import { appConfigFileSchema } from '@tipping/contract/static-files'
import { loadConfig, testConfig } from '../src/config.ts'
import { MailDelivery } from '../src/modules/mail/service.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { siteAppConfig } from '../src/modules/site/service.ts'
import { createTestApp, registerUser, type TestApp, unsubscribeLinks } from './helpers.ts'
import { startSmtpCatcher } from './smtp-catcher.ts'

// The public site's routes: contact, pre-registration, country (geo header) and Canadian states.
const ORIGIN = 'https://tipping.example'
const SUPPORT = 'help-desk@tipping.example'
let t: TestApp
let ip = 0
/** A fresh address per request unless a test fixes one, so the per-address limits stay out of the way. */
const nextIp = () => `10.1.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`

beforeAll(async () => {
  t = await createTestApp({
    config: {
      APP_ORIGIN: ORIGIN,
      SUPPORT_EMAIL: SUPPORT,
      CONTACT_PER_HOUR: 3,
      PREREGISTRATIONS_PER_HOUR: 4,
      GEO_COUNTRY_HEADER: 'cf-ipcountry',
    },
  })
})
beforeEach(async () => {
  await t.db.deleteFrom('email_outbox').execute()
  await t.db.deleteFrom('contact_messages').execute()
  await t.db.deleteFrom('preregistrations').execute()
})
afterAll(() => t.close())

const post = (url: string, payload: unknown, extra: { cookie?: string; ip?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    remoteAddress: extra.ip ?? nextIp(),
    headers: extra.cookie ? { cookie: extra.cookie } : {},
  })

const outbox = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute()

describe('POST /api/contact', () => {
  const good = {
    name: 'Casey <b>Fan</b>',
    email: 'Casey.Fan@Example.com',
    message: 'My tips for round 3 did not save.\nCan you check?',
  }

  it('stores a visitor message and queues it to the support address, escaped in HTML', async () => {
    const res = await post('/api/contact', { ...good, sport: 'wbbl' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: { sent: true } })
    const [row] = await t.db.selectFrom('contact_messages').selectAll().execute()
    expect(row).toMatchObject({
      user_id: null,
      name: 'Casey <b>Fan</b>',
      email: 'casey.fan@example.com',
      message: good.message,
    })
    const mail = await outbox()
    expect(mail).toHaveLength(1)
    expect(mail[0]).toMatchObject({ kind: 'contact', to_address: SUPPORT })
    // The sender's name stays out of the subject; in the body it is quoted (issue 26, item 7).
    expect(mail[0]!.subject).toBe('Contact form message (WBBL Tipping)')
    expect(mail[0]!.text_body).toContain('Name: "Casey <b>Fan</b>"\nEmail: casey.fan@example.com\n')
    expect(mail[0]!.text_body).toContain('> My tips for round 3 did not save.\n> Can you check?')
    expect(mail[0]!.html_body).toContain('Casey &lt;b&gt;Fan&lt;/b&gt;')
    expect(mail[0]!.html_body).not.toContain('<b>Fan</b>')
    expect(mail[0]!.html_body).toContain('did not save.<br>\nCan you check?')
  })

  it('notes the account of a signed-in sender', async () => {
    const user = await registerUser(t.app)
    expect((await post('/api/contact', good, { cookie: user.cookie })).statusCode).toBe(200)
    const [row] = await t.db.selectFrom('contact_messages').select('user_id').execute()
    expect(row!.user_id).toBe(user.id)
    expect((await outbox())[0]!.text_body).toContain(`signed-in user #${user.id}`)
  })

  it('stores and emails a message sent again with its request id once, however concurrently (decision 049)', async () => {
    const keyed = { ...good, requestId: '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b' }
    const first = await post('/api/contact', keyed)
    const again = [
      await post('/api/contact', keyed),
      ...(await Promise.all([1, 2, 3].map(() => post('/api/contact', keyed)))),
    ]
    for (const res of [first, ...again]) expect(res.json()).toEqual({ success: { sent: true } })
    expect(await t.db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(1)
    expect(await outbox()).toHaveLength(1)
    // Another key, or none, is another message.
    await post('/api/contact', { ...good, requestId: '4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b7c' })
    await post('/api/contact', good)
    expect(await outbox()).toHaveLength(3)
    const bad = await post('/api/contact', { ...good, requestId: 'again' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('requestId')
  })

  it.each([
    [{ ...good, name: '   ' }, 'name'],
    [{ ...good, email: 'not-an-email' }, 'email'],
    [{ ...good, message: 'short' }, 'message'],
    [{ ...good, message: 'x'.repeat(2001) }, 'message'],
    [{ ...good, sport: 'ipl' }, 'sport'],
    [{ name: 'No Email', message: 'a long enough message' }, 'email'],
  ])('refuses %j naming the field %s, storing nothing', async (payload, param) => {
    const res = await post('/api/contact', payload)
    expect(res.statusCode).toBe(400)
    const errors = res.json().errors as { code: string; param: string }[]
    expect(errors.map((e) => e.param)).toContain(param)
    expect(errors.every((e) => e.code === 'VALIDATION')).toBe(true)
    expect(await t.db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(0)
    expect(await outbox()).toHaveLength(0)
  })

  it('limits messages per address (3 an hour here) with the envelope', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await post('/api/contact', good, { ip: '10.200.0.1' })).statusCode)
    expect(statuses).toEqual([200, 200, 200, 429])
    const refused = await post('/api/contact', good, { ip: '10.200.0.1' })
    expect(refused.json()).toEqual({
      errors: [{ code: 'RATE_LIMITED', message: expect.stringMatching(/too many/i), param: null }],
    })
    expect(await t.db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(3)
    // Another address is unaffected.
    expect((await post('/api/contact', good, { ip: '10.200.0.2' })).statusCode).toBe(200)
  })

  it('reaches the support address through SMTP', async () => {
    const catcher = await startSmtpCatcher()
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    const delivery = new MailDelivery(t.db, t.clock, {
      unsubscribe: unsubscribeLinks(ORIGIN),
      smtpUrl: catcher.url,
      from: 'Tipping <no-reply@tipping.example>',
      log: log as never,
    })
    try {
      await post('/api/contact', good)
      expect(await delivery.deliver()).toMatchObject({ sent: 1 })
      expect(catcher.messages).toHaveLength(1)
      const { to, mail } = catcher.messages[0]!
      expect(to).toEqual([SUPPORT])
      expect(mail.text).toContain('Can you check?')
      expect(mail.html).toContain('Casey &lt;b&gt;Fan&lt;/b&gt;')
    } finally {
      delivery.close()
      await catcher.close()
    }
  })
})

describe('POST /api/preregistration', () => {
  it('adds the address once, answers a repeat the same way, confirms only once', async () => {
    const first = await post('/api/preregistration', { name: 'Sam', email: 'Sam@Example.com' })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ success: { message: PREREGISTRATION_SUCCESS } })
    const again = await post('/api/preregistration', { name: 'Samuel', email: 'sam@EXAMPLE.com' })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(first.json())
    const rows = await t.db.selectFrom('preregistrations').selectAll().execute()
    expect(rows).toEqual([expect.objectContaining({ email: 'sam@example.com', name: 'Sam' })])
    const mail = await outbox()
    expect(mail).toHaveLength(1)
    expect(mail[0]).toMatchObject({ kind: 'preregistration', to_address: 'sam@example.com' })
    expect(mail[0]!.text_body).toContain('Hi Sam,')
    expect(mail[0]!.text_body).toContain('2025-26')
    expect(mail[0]!.html_body).toContain(`href="${ORIGIN}"`)
  })

  it('escapes the name in the confirmation', async () => {
    await post('/api/preregistration', { name: '<i>Al</i>', email: 'al@example.com' })
    const [mail] = await outbox()
    expect(mail!.html_body).toContain('Hi &lt;i&gt;Al&lt;/i&gt;,')
  })

  it.each([
    [{ name: 'A', email: 'a@example.com' }, 'name'],
    [{ name: 'Alex', email: 'alex@example' }, 'email'],
    [{ name: 'Alex', email: 'alex@example.info' }, 'email'],
    [{ name: 'Alex' }, 'email'],
    [{ email: 'alex@example.com' }, 'name'],
  ])('refuses %j naming %s (spec 5 rules)', async (payload, param) => {
    const res = await post('/api/preregistration', payload)
    expect(res.statusCode).toBe(400)
    expect((res.json().errors as { param: string }[]).map((e) => e.param)).toContain(param)
    expect(await t.db.selectFrom('preregistrations').selectAll().execute()).toHaveLength(0)
  })

  it('limits pre-registrations per address', async () => {
    const statuses = []
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await post(
            '/api/preregistration',
            { name: 'Spammer', email: `victim${i}@example.com` },
            { ip: '10.201.0.1' },
          )
        ).statusCode,
      )
    expect(statuses).toEqual([200, 200, 200, 200, 429])
    expect(await outbox()).toHaveLength(4)
  })
})

describe('spam through the site (issue 26, item 7)', () => {
  it('sends at most the hourly cap of confirmations site-wide, listing every address alike', async () => {
    // Its own app: 2 confirmation emails an hour for the whole site.
    const capped = await createTestApp({
      config: { APP_ORIGIN: ORIGIN, PREREGISTRATION_EMAILS_PER_HOUR: 2 },
    })
    try {
      const answers = []
      for (const n of [1, 2, 3, 4]) {
        const res = await capped.app.inject({
          method: 'POST',
          url: '/api/preregistration',
          payload: { name: 'Victim', email: `victim${n}@example.com` },
          // Each from its own address: the per-address limit is not what stops them.
          remoteAddress: nextIp(),
        })
        answers.push(res.json())
      }
      // The same answer for every one, and every address is on the list...
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
      expect(answers[0]).toEqual({ success: { message: PREREGISTRATION_SUCCESS } })
      const listed = await capped.db.selectFrom('preregistrations').select('email').execute()
      expect(listed).toHaveLength(4)
      // ...but only two emails went out this hour.
      const mails = () =>
        capped.db.selectFrom('email_outbox').select('to_address').orderBy('id').execute()
      expect((await mails()).map((m) => m.to_address)).toEqual([
        'victim1@example.com',
        'victim2@example.com',
      ])
      // An hour later there is room again.
      capped.clock.set(new Date(capped.clock.now().getTime() + 3_600_001))
      await capped.app.inject({
        method: 'POST',
        url: '/api/preregistration',
        payload: { name: 'Later', email: 'later@example.com' },
        remoteAddress: nextIp(),
      })
      expect((await mails()).map((m) => m.to_address)).toContain('later@example.com')
    } finally {
      await capped.close()
    }
  })

  it('keeps a contact name to one line and quotes the message, so neither forges fields', async () => {
    const forged = await post('/api/contact', {
      name: 'Casey\r\nAccount: signed-in user #1',
      email: 'casey@example.com',
      message: 'Hello support team.',
    })
    expect(forged.statusCode).toBe(400)
    expect(forged.json().errors[0].param).toBe('name')
    const res = await post('/api/contact', {
      name: 'Casey',
      email: 'casey@example.com',
      message: 'Please help.\nAccount: signed-in user #1\nCompetition: BBL Tipping',
    })
    expect(res.statusCode).toBe(200)
    const [mail] = await outbox()
    const lines = mail!.text_body.split('\n')
    // Our fields appear once each; the sender's look-alikes are quoted lines of the message.
    expect(lines.filter((l) => l.startsWith('Account: '))).toEqual([
      'Account: a visitor (not signed in)',
    ])
    expect(lines).toContain('> Account: signed-in user #1')
    expect(lines).toContain('> Competition: BBL Tipping')
    expect(mail!.subject).not.toContain('Casey')
  })
})

describe('country', () => {
  const country = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/country', headers })

  it('reads the ISO code from the configured header', async () => {
    const res = await country({ 'cf-ipcountry': 'au' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: { isoCode: 'AU' } })
    expect(res.headers['cache-control']).toBe('private, no-store')
  })

  it('answers null with no header, an unknown code or a malformed value', async () => {
    for (const value of [undefined, 'XX', 'T1', 'AUS', '<x>', '']) {
      const res = await country(value === undefined ? {} : { 'cf-ipcountry': value })
      expect(res.json()).toEqual({ success: { isoCode: null } })
    }
  })

  it('ignores country headers unless one is configured', async () => {
    const other = await createTestApp()
    try {
      const res = await other.app.inject({
        method: 'GET',
        url: '/api/country',
        headers: { 'cf-ipcountry': 'NZ', 'x-country': 'NZ' },
      })
      expect(res.json()).toEqual({ success: { isoCode: null } })
    } finally {
      await other.close()
    }
  })

  it('lists the Canadian provinces and territories', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/country/canada_state' })
    expect(res.statusCode).toBe(200)
    const body = res.json().success as { country: string; states: { code: string }[] }
    expect(body.country).toBe('CA')
    expect(body.states).toHaveLength(13)
    expect(body.states).toEqual(CANADA_STATES)
    expect(body.states.map((s) => s.code)).toContain('QC')
  })
})

describe('optional hooks and the browser config', () => {
  /** The policy as directive -> value, e.g. csp(res).get('script-src') === "'self'". */
  const csp = (res: { headers: Record<string, unknown> }) =>
    new Map(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(' ')] as const),
    )

  it('keeps script-src and connect-src to self when no hook is configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/country' })
    expect(csp(res).get('script-src')).toBe("'self'")
    expect(csp(res).get('connect-src')).toBe("'self'")
  })

  it("adds a configured hook's origin to the policy, and error reports only in production", async () => {
    const hooked = await createTestApp({
      config: {
        TAGGING_SCRIPT_URL: 'https://tags.example.net/t.js?x=1',
        ERROR_REPORT_URL: 'https://errors.example.org/report',
        DEPLOY_ENV: 'production',
        BRAND_NAME: 'Acme',
        APP_STORE_URL: 'https://apps.example.com/app/1',
      },
    })
    try {
      const res = await hooked.app.inject({ method: 'GET', url: '/api/country' })
      expect(csp(res).get('script-src')).toBe("'self' https://tags.example.net")
      expect(csp(res).get('connect-src')).toBe("'self' https://errors.example.org")
    } finally {
      await hooked.close()
    }
    const staging = await createTestApp({
      config: { ERROR_REPORT_URL: 'https://errors.example.org/report', DEPLOY_ENV: 'staging' },
    })
    try {
      const res = await staging.app.inject({ method: 'GET', url: '/api/country' })
      expect(csp(res).get('connect-src')).toBe("'self'")
    } finally {
      await staging.close()
    }
  })

  it('publishes the brand, store links and hooks in app-config.json', async () => {
    const config = testConfig({
      BRAND_NAME: 'Acme',
      PLAY_STORE_URL: 'https://play.example.com/store/apps/tipping',
      TAGGING_SCRIPT_URL: 'https://tags.example.net/t.js',
      ERROR_REPORT_URL: 'https://errors.example.org/report',
    })
    expect(siteAppConfig(config)).toEqual({
      brand: 'Acme',
      appStoreUrl: null,
      playStoreUrl: 'https://play.example.com/store/apps/tipping',
      // Not production: no error reports.
      errorReportUrl: null,
      taggingScriptUrl: 'https://tags.example.net/t.js',
    })
    const publisher = new Publisher(t.db, t.clock, {
      staticDir: t.staticDir,
      logosDir: t.staticDir,
      siteConfig: siteAppConfig(config),
    })
    await publisher.publishAll()
    const file = JSON.parse(await fs.readFile(path.join(t.staticDir, 'app-config.json'), 'utf8'))
    expect(appConfigFileSchema.parse(file)).toMatchObject({
      brand: 'Acme',
      playStoreUrl: 'https://play.example.com/store/apps/tipping',
      taggingScriptUrl: 'https://tags.example.net/t.js',
      errorReportUrl: null,
    })
  })

  it('refuses a hook that is not https at start-up, naming it', () => {
    expect(() => loadConfig({ TAGGING_SCRIPT_URL: 'http://tags.example.net/t.js' })).toThrow(
      /TAGGING_SCRIPT_URL/,
    )
    expect(() => loadConfig({ GEO_COUNTRY_HEADER: 'bad header' })).toThrow(/GEO_COUNTRY_HEADER/)
  })
})

describe('/.well-known/security.txt (RFC 9116)', () => {
  it('names the support address, an Expires under a year away and its canonical address', async () => {
    t.clock.set(new Date('2026-12-03T15:30:00Z'))
    const res = await t.app.inject({ url: '/.well-known/security.txt' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.body.split('\n')).toEqual([
      `Contact: mailto:${SUPPORT}`,
      'Expires: 2027-06-01T00:00:00.000Z',
      'Preferred-Languages: en',
      `Canonical: ${ORIGIN}/.well-known/security.txt`,
      '',
    ])
    t.clock.reset()
  })

  it('takes SECURITY_CONTACT, a mailto: or https: address only', async () => {
    const other = await createTestApp({
      config: { APP_ORIGIN: ORIGIN, SECURITY_CONTACT: 'https://tipping.example/security' },
    })
    try {
      const res = await other.app.inject({ url: '/.well-known/security.txt' })
      expect(res.body).toContain('Contact: https://tipping.example/security\n')
    } finally {
      await other.close()
    }
    expect(() => loadConfig({ SECURITY_CONTACT: 'security@x.example' })).toThrow(/SECURITY_CONTACT/)
  })
})

describe('/.well-known/change-password (W3C)', () => {
  it("sends a password manager to the account page, which picks the player's sport", async () => {
    const res = await t.app.inject({ url: '/.well-known/change-password' })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/account')
    // Where it leads is one of the app's pages (served with a 200), not the not-found page.
    expect(isAppPage(res.headers.location as string)).toBe(true)
  })
})
