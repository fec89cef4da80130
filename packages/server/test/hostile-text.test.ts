import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createLeague,
  createTestApp,
  loadSeasons,
  makeAdmin,
  registerUser,
  type TestApp,
} from './helpers.ts'

// Issue 26 item 4: a NUL (or another control character) in any text field answered 500, because
// PostgreSQL refuses to store or compare it. The contract's text helpers refuse it at the edge
// with a 400 naming the field; multi-line fields keep line breaks and tabs, single-line ones do
// not (a CR/LF in a contact name forged lines in the support email).

let t: TestApp
let user: { cookie: string; id: number; email: string }
let admin: { cookie: string; id: number; email: string }
let league: { id: number; code: string }
let ip = 0
const nextIp = () => `10.9.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  user = await registerUser(t.app, { team_name: 'Plain Team' })
  admin = await registerUser(t.app)
  await makeAdmin(t.db, admin.id)
  league = await createLeague(t.app, user.cookie, 'Plain League')
})
afterAll(() => t.close())

const registration = {
  email: 'nul-probe@example.com',
  password: 'correct horse battery',
  firstName: 'Nul',
  lastName: 'Probe',
  team_name: 'Probe Team',
}
const contact = { name: 'Casey Fan', email: 'casey@example.com', message: 'Hello there, support.' }

type Who = 'visitor' | 'user' | 'admin'
interface Case {
  what: string
  method: 'GET' | 'POST' | 'PUT'
  url: string
  who: Who
  body?: Record<string, unknown>
  query?: Record<string, string>
  param: string
}

const NUL = 'a\u0000b'

/** Each listed field with a NUL in it: body fields and query strings alike. */
const cases = (): Case[] => [
  ...(['firstName', 'lastName', 'team_name'] as const).map((f): Case => ({
    what: `registration ${f}`,
    method: 'POST',
    url: '/api/auth/register',
    who: 'visitor',
    body: { ...registration, [f]: NUL },
    param: f,
  })),
  ...(['first_name', 'last_name', 'team_name'] as const).map((f): Case => ({
    what: `profile ${f}`,
    method: 'POST',
    url: '/api/bbl/user',
    who: 'user',
    body: { [f]: NUL },
    param: f,
  })),
  ...(['name', 'message'] as const).map((f): Case => ({
    what: `contact ${f}`,
    method: 'POST',
    url: '/api/contact',
    who: 'visitor',
    body: { ...contact, [f]: f === 'message' ? `Hello there${NUL} support` : NUL },
    param: f,
  })),
  {
    what: 'pre-registration name',
    method: 'POST',
    url: '/api/preregistration',
    who: 'visitor',
    body: { name: `Pre${NUL}`, email: 'pre@example.com' },
    param: 'name',
  },
  ...(['name', 'description'] as const).map((f): Case => ({
    what: `league create ${f}`,
    method: 'POST',
    url: '/api/bbl/league',
    who: 'user',
    body: { name: 'Fine League', startRound: 1, [f]: `Fine ${NUL} text` },
    param: f,
  })),
  {
    what: 'league search',
    method: 'GET',
    url: '/api/bbl/league/show-for-join',
    who: 'user',
    query: { search: NUL },
    param: 'search',
  },
  {
    what: 'league join code search',
    method: 'GET',
    url: '/api/bbl/league/show-for-join',
    who: 'user',
    query: { code: `ABCD${'\u0000'}` },
    param: 'code',
  },
  {
    what: 'rankings search',
    method: 'GET',
    url: '/api/bbl/rankings/overall/rankings',
    who: 'user',
    query: { search: NUL },
    param: 'search',
  },
  {
    what: 'admin users search',
    method: 'GET',
    url: '/api/admin/users',
    who: 'admin',
    query: { search: NUL },
    param: 'search',
  },
  {
    what: 'admin leagues search',
    method: 'GET',
    url: '/api/admin/leagues',
    who: 'admin',
    query: { search: NUL },
    param: 'search',
  },
  {
    what: 'admin audit actor',
    method: 'GET',
    url: '/api/admin/audit',
    who: 'admin',
    query: { actor: NUL },
    param: 'actor',
  },
  {
    what: 'league message subject',
    method: 'POST',
    url: '/api/bbl/league/send_emails',
    who: 'user',
    body: { leagueId: 0, subject: NUL, message: 'Hi all' },
    param: 'subject',
  },
  {
    what: 'league message body',
    method: 'POST',
    url: '/api/bbl/league/send_emails',
    who: 'user',
    body: { leagueId: 0, subject: 'Hi', message: NUL },
    param: 'message',
  },
  {
    what: 'FAQ answer',
    method: 'PUT',
    url: '/api/admin/content/faqs',
    who: 'admin',
    body: { bbl: [{ question: 'Why?', answer: NUL }], wbbl: [] },
    param: 'bbl.0.answer',
  },
]

const send = (c: Pick<Case, 'method' | 'url' | 'who' | 'body' | 'query'>) =>
  t.app.inject({
    method: c.method,
    url: c.url,
    query: c.query,
    remoteAddress: nextIp(),
    headers: {
      ...(c.who === 'user'
        ? { cookie: user.cookie }
        : c.who === 'admin'
          ? { cookie: admin.cookie }
          : {}),
    },
    ...(c.body
      ? {
          payload: JSON.parse(
            JSON.stringify(c.body).replace('"leagueId":0', `"leagueId":${league.id}`),
          ),
        }
      : {}),
  })

describe('control characters in text fields', () => {
  it.each(cases().map((c) => [c.what, c] as const))(
    'refuses a NUL in the %s with a 400 naming the field',
    async (_what, c) => {
      const res = await send(c)
      expect(res.statusCode, res.body).toBe(400)
      const errors = res.json<{ errors: { code: string; param: string }[] }>().errors
      expect(
        errors.map((e) => e.param),
        res.body,
      ).toContain(c.param)
      expect(errors.find((e) => e.param === c.param)!.code).toBe('VALIDATION')
    },
  )

  it('refuses other control characters and line breaks in a single-line field', async () => {
    for (const bad of [
      'a\u0001b',
      'a\u001bb',
      'a\u007fb',
      'Casey\r\nBcc: x@example.com',
      'a\tb',
      'a\rb',
    ]) {
      const res = await send({
        method: 'POST',
        url: '/api/contact',
        who: 'visitor',
        body: { ...contact, name: bad },
      })
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
      expect(res.json().errors[0].param).toBe('name')
    }
    expect(await t.db.selectFrom('contact_messages').selectAll().execute()).toEqual([])
  })

  it('refuses text-direction controls in a name, and takes a right-to-left name as it is', async () => {
    // A right-to-left override, an embedding and an isolate: each would redraw the row around it.
    for (const [field, bad] of [
      ['team_name', 'Sixers \u202eXI 99'],
      ['first_name', '\u202bAda'],
      ['last_name', 'Love\u2067lace\u2069'],
    ] as const) {
      const res = await send({
        method: 'POST',
        url: '/api/bbl/user',
        who: 'user',
        body: { [field]: bad },
      })
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
      expect(res.json().errors[0]).toMatchObject({
        param: field,
        message: 'Remove text-direction control characters',
      })
    }
    const league = await send({
      method: 'POST',
      url: '/api/bbl/league',
      who: 'user',
      body: { name: 'Fine \u202eLeague', startRound: 1, description: 'About \u2066us\u2069' },
    })
    expect(league.statusCode).toBe(400)
    expect(league.json().errors[0].param).toBe('name')
    const arabic = 'نسور سيدني'
    const res = await send({
      method: 'POST',
      url: '/api/bbl/user',
      who: 'user',
      body: { team_name: arabic },
    })
    expect(res.statusCode, res.body).toBe(200)
    const row = await t.db
      .selectFrom('users')
      .select('team_name')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(row.team_name).toBe(arabic)
  })

  it('keeps line breaks and tabs in a multi-line field, and trims a single-line one', async () => {
    const message = 'Line one,\r\nline two\n\tindented.'
    const res = await send({
      method: 'POST',
      url: '/api/contact',
      who: 'visitor',
      body: { ...contact, name: '  Casey Fan\n', message },
    })
    expect(res.statusCode, res.body).toBe(200)
    const [row] = await t.db.selectFrom('contact_messages').selectAll().execute()
    expect(row).toMatchObject({ name: 'Casey Fan', message })
    // A lone CR is not a line break anyone types; it stays refused.
    const lone = await send({
      method: 'POST',
      url: '/api/contact',
      who: 'visitor',
      body: { ...contact, message: 'Line one\rLine two is here' },
    })
    expect(lone.statusCode).toBe(400)
    expect(lone.json().errors[0].param).toBe('message')
  })
})
