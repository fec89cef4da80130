import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Invitations and league messages: who may send them, what is validated, and the hourly quotas
// (small here: 5 invitations, 2 messages and 6 message recipients an hour).
let t: TestApp
type U = { cookie: string; id: number; email: string }
let boss: U, member: U, stranger: U
let league: { id: number; code: string }

beforeAll(async () => {
  t = await createTestApp({
    config: {
      APP_ORIGIN: 'https://tipping.example',
      LEAGUE_INVITES_PER_HOUR: 5,
      LEAGUE_MESSAGES_PER_HOUR: 2,
      LEAGUE_MESSAGE_RECIPIENTS_PER_HOUR: 6,
    },
  })
  await loadSeasons(t.db)
  boss = await registerUser(t.app)
  member = await registerUser(t.app)
  stranger = await registerUser(t.app)
  league = (await post('/api/bbl/league', boss, { name: 'Invite League', startRound: 1 })).json()
    .success.league
  await post(`/api/bbl/league/${league.code}/join`, member)
})
beforeEach(async () => {
  await t.db.deleteFrom('email_outbox').execute()
  await t.db.deleteFrom('audit_log').execute()
})
afterAll(() => t.close())

function post(url: string, u: U | null, payload?: object) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: u ? { cookie: u.cookie } : {},
    ...(payload ? { payload } : {}),
  })
}
const invite = (u: U | null, emails: unknown) =>
  post(`/api/bbl/league/${league.id}/invite`, u, { emails })
const message = (u: U | null, body: object = {}) =>
  post('/api/bbl/league/send_emails', u, {
    leagueId: league.id,
    subject: 'Hello',
    message: 'Tip away',
    ...body,
  })
const outboxCount = async () =>
  (
    await t.db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n

describe('invitations', () => {
  it('queues one invitation per distinct address, however it was typed', async () => {
    const res = await invite(boss, [' Pal@Example.com ', 'pal@example.com', 'other@example.com'])
    expect(res.json()).toEqual({ success: { invited: 2 } })
    const rows = await t.db
      .selectFrom('email_outbox')
      .select(['to_address', 'kind', 'text_body'])
      .orderBy('to_address')
      .execute()
    expect(rows.map((r) => r.to_address)).toEqual(['other@example.com', 'pal@example.com'])
    expect(rows[0]!.text_body).toContain(`https://tipping.example/bbl/leagues/join/${league.code}`)
  })

  it.each([
    [[], 'emails'],
    [['fine@example.com', 'not-an-address'], 'emails.1'],
    [Array.from({ length: 51 }, (_, i) => `p${i}@example.com`), 'emails'],
    ['one@example.com', 'emails'],
  ])('refuses %j naming %s', async (emails, param) => {
    const res = await invite(boss, emails)
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toMatchObject({ code: 'VALIDATION', param })
    expect(await outboxCount()).toBe(0)
  })

  it('lets only the commissioner invite', async () => {
    expect((await invite(null, ['x@example.com'])).statusCode).toBe(401)
    expect((await invite(member, ['x@example.com'])).statusCode).toBe(403)
    expect((await invite(stranger, ['x@example.com'])).statusCode).toBe(404)
    expect(await outboxCount()).toBe(0)
  })

  it('stops at the hourly quota of addresses, and allows more an hour later', async () => {
    expect((await invite(boss, ['a@x.test', 'b@x.test', 'c@x.test'])).statusCode).toBe(200)
    const over = await invite(boss, ['d@x.test', 'e@x.test', 'f@x.test'])
    expect(over.statusCode).toBe(429)
    expect(over.json().errors[0]).toMatchObject({ code: 'RATE_LIMITED', param: 'emails' })
    expect(await outboxCount()).toBe(3)
    expect((await invite(boss, ['d@x.test', 'e@x.test'])).statusCode).toBe(200)
    expect((await invite(boss, ['f@x.test'])).statusCode).toBe(429)
    t.clock.advance(3_600_001)
    expect((await invite(boss, ['f@x.test'])).statusCode).toBe(200)
    expect(await outboxCount()).toBe(6)
  })

  it('counts concurrent requests against one quota', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => invite(boss, [`r${i}a@x.test`, `r${i}b@x.test`])),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429])
    expect(await outboxCount()).toBe(4)
  })
})

describe('a send again with its request id (decision 049)', () => {
  it('queues the invitations once, answers as the first did, and counts one use of the quota', async () => {
    const requestId = '5f0c3b2a-1d4e-4a6b-8c7d-9e0f1a2b3c4d'
    const body = { emails: ['once@x.test', 'twice@x.test'], requestId }
    const first = await post(`/api/bbl/league/${league.id}/invite`, boss, body)
    expect(first.json()).toEqual({ success: { invited: 2 } })
    const again = [
      await post(`/api/bbl/league/${league.id}/invite`, boss, body),
      ...(await Promise.all(
        [1, 2, 3].map(() => post(`/api/bbl/league/${league.id}/invite`, boss, body)),
      )),
    ]
    for (const res of again) expect(res.json()).toEqual({ success: { invited: 2 } })
    expect(await outboxCount()).toBe(2)
    // One use of the quota of 5: three more addresses still fit, a fourth does not.
    expect((await invite(boss, ['a@x.test', 'b@x.test', 'c@x.test'])).statusCode).toBe(200)
    expect((await invite(boss, ['d@x.test'])).statusCode).toBe(429)
  })

  it('queues a message once, however often and however concurrently it is sent', async () => {
    const requestId = '8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d'
    const sends = await Promise.all([1, 2, 3].map(() => message(boss, { requestId })))
    for (const res of sends) expect(res.json()).toEqual({ success: { recipients: 2 } })
    expect(await outboxCount()).toBe(2)
    // One message of the two an hour used: another key still sends, a third is over.
    expect(
      (await message(boss, { requestId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e' })).statusCode,
    ).toBe(200)
    expect((await message(boss)).statusCode).toBe(429)
    // Without a key, each send counts, as before.
    expect(await outboxCount()).toBe(4)
  })

  it("refuses a request id used for another league's send (409) or not a UUID (400)", async () => {
    const other = (
      await post('/api/bbl/league', boss, { name: 'Second League', startRound: 1 })
    ).json().success.league
    const requestId = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f'
    expect((await message(boss, { requestId })).statusCode).toBe(200)
    const elsewhere = await post('/api/bbl/league/send_emails', boss, {
      leagueId: other.id,
      subject: 'Hello',
      message: 'Tip away',
      requestId,
    })
    expect(elsewhere.statusCode).toBe(409)
    expect(elsewhere.json().errors[0]).toMatchObject({ code: 'CONFLICT', param: 'requestId' })
    const bad = await post(`/api/bbl/league/${league.id}/invite`, boss, {
      emails: ['x@x.test'],
      requestId: 'twice',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('requestId')
    expect(await outboxCount()).toBe(2)
  })
})

describe('league messages', () => {
  it('queues the message for every member, commissioner only', async () => {
    expect((await message(null)).statusCode).toBe(401)
    expect((await message(member)).statusCode).toBe(403)
    expect((await message(stranger)).statusCode).toBe(404)
    expect(await outboxCount()).toBe(0)
    const res = await message(boss, { subject: 'Week 1', message: 'First round this week' })
    expect(res.json()).toEqual({ success: { recipients: 2 } })
    const rows = await t.db
      .selectFrom('email_outbox')
      .select(['to_address', 'subject', 'kind'])
      .orderBy('to_address')
      .execute()
    expect(rows.map((r) => r.to_address)).toEqual([boss.email, member.email].sort())
    expect(
      rows.every((r) => r.subject === 'A message from your league commissioner on BBL Tipping'),
    ).toBe(true)
    expect(rows.every((r) => r.kind === 'league_message')).toBe(true)
  })

  it.each([
    [{ subject: '' }, 'subject'],
    [{ subject: 'Line one\nBcc: victim@example.com' }, 'subject'],
    [{ subject: 's'.repeat(151) }, 'subject'],
    [{ message: '   ' }, 'message'],
    [{ message: 'm'.repeat(5001) }, 'message'],
    [{ leagueId: 'one' }, 'leagueId'],
  ])('refuses %j naming %s', async (body, param) => {
    const res = await message(boss, body)
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toMatchObject({ code: 'VALIDATION', param })
  })

  it('allows a few messages an hour', async () => {
    expect((await message(boss)).statusCode).toBe(200)
    expect((await message(boss)).statusCode).toBe(200)
    const over = await message(boss)
    expect(over.statusCode).toBe(429)
    expect(over.json().errors[0].code).toBe('RATE_LIMITED')
    expect(await outboxCount()).toBe(4)
    t.clock.advance(3_600_001)
    expect((await message(boss)).statusCode).toBe(200)
  })

  it('limits the recipients of an hour of messages, so a big league cannot be spammed', async () => {
    const extra = await Promise.all([1, 2, 3, 4, 5].map(() => registerUser(t.app)))
    for (const u of extra) await post(`/api/bbl/league/${league.code}/join`, u)
    // Seven members, six recipients an hour: refused whole, nothing queued.
    const res = await message(boss)
    expect(res.statusCode).toBe(429)
    expect(await outboxCount()).toBe(0)
    await t.db
      .deleteFrom('league_members')
      .where(
        'user_id',
        'in',
        extra.map((u) => u.id),
      )
      .execute()
    await t.db.updateTable('leagues').set({ num_users: 2 }).where('id', '=', league.id).execute()
  })
})

describe('the daily cap per league (issue 26, item 7)', () => {
  // Its own app: a generous hourly quota per commissioner, 4 addresses a day per league.
  let d: TestApp
  let owner: U
  const leagues: { id: number; code: string }[] = []
  beforeAll(async () => {
    d = await createTestApp({
      config: {
        APP_ORIGIN: 'https://tipping.example',
        LEAGUE_INVITES_PER_HOUR: 100,
        LEAGUE_INVITES_PER_LEAGUE_PER_DAY: 4,
      },
    })
    await loadSeasons(d.db)
    owner = await registerUser(d.app)
    for (const name of ['Spam League One', 'Spam League Two']) {
      const res = await d.app.inject({
        method: 'POST',
        url: '/api/bbl/league',
        headers: { cookie: owner.cookie },
        payload: { name, startRound: 1 },
      })
      leagues.push(res.json().success.league)
    }
  })
  afterAll(() => d.close())

  const inviteTo = (l: { id: number }, emails: string[]) =>
    d.app.inject({
      method: 'POST',
      url: `/api/bbl/league/${l.id}/invite`,
      headers: { cookie: owner.cookie },
      payload: { emails },
    })
  const addresses = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`)
  const queued = async () =>
    Number(
      (
        await d.db
          .selectFrom('email_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it("stops a league's invitations at the day's cap, though the hourly quota has room", async () => {
    const [one, two] = [leagues[0]!, leagues[1]!]
    expect((await inviteTo(one, addresses('a', 3))).json()).toEqual({ success: { invited: 3 } })
    const over = await inviteTo(one, addresses('b', 2))
    expect(over.statusCode).toBe(429)
    expect(over.json().errors[0]).toMatchObject({ code: 'RATE_LIMITED', param: 'emails' })
    expect(over.json().errors[0].message).toMatch(/1 of the 4 a day for this league are left/)
    expect(await queued()).toBe(3)
    // Two hours on (the hourly window long past) the league's day is still used up...
    d.clock.set(new Date(d.clock.now().getTime() + 2 * 3_600_000))
    expect((await inviteTo(one, addresses('c', 2))).statusCode).toBe(429)
    expect((await inviteTo(one, addresses('c', 1))).json()).toEqual({ success: { invited: 1 } })
    expect((await inviteTo(one, addresses('d', 1))).statusCode).toBe(429)
    // ...while the commissioner's other league has its own day.
    expect((await inviteTo(two, addresses('e', 4))).json()).toEqual({ success: { invited: 4 } })
    // A day after the first invitations the league may invite again.
    d.clock.set(new Date(d.clock.now().getTime() + 23 * 3_600_000))
    expect((await inviteTo(one, addresses('f', 3))).json()).toEqual({ success: { invited: 3 } })
    expect(await queued()).toBe(11)
  })
})

describe('user text in subjects (issue 26, item 7)', () => {
  it('keeps league names, commissioner names and message subjects out of every subject', async () => {
    const spam = await post('/api/bbl/league', boss, {
      name: 'WIN $1000 now at evil.example',
      startRound: 1,
    })
    const l = spam.json().success.league
    await post(`/api/bbl/league/${l.id}/invite`, boss, { emails: ['target@example.com'] })
    await post('/api/bbl/league/send_emails', boss, {
      leagueId: l.id,
      subject: 'Claim your prize at evil.example',
      message: 'From: Big Bash Tipping Support\nAccount: verified',
    })
    const rows = await t.db.selectFrom('email_outbox').select(['subject', 'text_body']).execute()
    expect(rows.length).toBe(2)
    for (const r of rows) expect(r.subject).not.toMatch(/evil|WIN|Claim/)
    const body = rows.map((r) => r.text_body).join('\n')
    expect(body).toContain('League: "WIN $1000 now at evil.example"')
    expect(body).toContain('Subject: "Claim your prize at evil.example"')
    // The message's own lines are quoted, never lines of ours.
    expect(body).toContain('> From: Big Bash Tipping Support\n> Account: verified')
    expect(body).not.toMatch(/^From: Big Bash/m)
  })
})
