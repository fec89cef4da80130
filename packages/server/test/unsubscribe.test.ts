import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_RECEIPT_SECRET } from '../src/config.ts'
import type { Scheduler } from '../src/jobs/scheduler.ts'
import { readUnsubscribeToken, unsubscribeToken } from '../src/modules/mail/unsubscribe.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp, mailScheduler } from './helpers.ts'
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts'

// One-click unsubscribe (RFC 8058, decision 043): list mail (reminders, league emails) carries a
// signed link in List-Unsubscribe; the mail provider's POST to it, with no session, turns that
// list off; a GET only asks. Through a real SMTP server.
const ORIGIN = 'https://tipping.example'
let t: TestApp
let catcher: SmtpCatcher
let scheduler: Scheduler
type U = { id: number; email: string; cookie: string }

const me = async (u: U) =>
  (await t.app.inject({ url: '/api/session', headers: { cookie: u.cookie } })).json().success
    .user as { reminderLead: string; disabledNotifications: boolean }

/** A header as sent (unfolded), not as the parser interprets it. */
const header = (mail: ParsedMail | undefined, name: string): string | undefined =>
  mail?.headerLines
    .find((h) => h.key === name)
    ?.line.replace(/\r\n[ \t]+/g, ' ')
    .slice(name.length + 1)
    .trim()

const headerLink = (mail: ParsedMail | undefined): string => {
  const value = header(mail, 'list-unsubscribe')
  const m = /^<(https:\/\/tipping\.example\/unsubscribe\/[^>]+)>$/.exec(String(value))
  expect(m, String(value)).not.toBeNull()
  return m![1]!.slice(ORIGIN.length)
}

/** The provider's one-click POST: a form body, no cookie, no Origin. */
const oneClick = (url: string, type = 'application/x-www-form-urlencoded') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': type },
    payload:
      type === 'multipart/form-data; boundary=b'
        ? '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n'
        : 'List-Unsubscribe=One-Click',
  })

beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: ORIGIN } })
  await loadSeasons(t.db)
  const first = await t.db
    .selectFrom('matches as m')
    .innerJoin('rounds as r', 'r.id', 'm.round_id')
    .innerJoin('competitions as c', 'c.id', 'r.competition_id')
    .select('m.starts_at')
    .where('c.sport', '=', 'bbl')
    .where('r.number', '=', 2)
    .orderBy('m.starts_at')
    .executeTakeFirstOrThrow()
  t.clock.set(new Date(new Date(first.starts_at).getTime() - 20 * 3_600_000))
  catcher = await startSmtpCatcher()
  scheduler = mailScheduler(t, { smtpUrl: catcher.url, origin: ORIGIN })
})
afterAll(async () => {
  await scheduler.stop()
  await catcher.close()
  await t.close()
})

describe('unsubscribe tokens', () => {
  it('name the account and list they were made for, and nothing else', () => {
    const token = unsubscribeToken('key-one', 42, 'reminders')
    expect(readUnsubscribeToken('key-one', token)).toEqual({ userId: 42, list: 'reminders' })
    expect(readUnsubscribeToken('key-two', token)).toBeNull()
    const [, , sig] = token.split('.')
    for (const forged of [
      `43.reminders.${sig}`,
      `42.league.${sig}`,
      `42.reminders.${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`,
      `42.reminders.${sig}x`,
      `99999999999.reminders.${sig}`,
      '',
    ]) {
      expect(readUnsubscribeToken('key-one', forged), forged).toBeNull()
    }
  })
})

describe('one-click unsubscribe', () => {
  it("puts a signed link on a reminder, and the provider's POST stops reminders only", async () => {
    const u = await registerUser(t.app)
    await scheduler.tick()
    await scheduler.tick()
    const mail = catcher.messages.find((m) => m.to[0] === u.email)?.mail
    expect(mail?.subject).toMatch(/you have matches to tip/)
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    const url = headerLink(mail)
    // The same link ends the body, for a mail client that shows no header button.
    expect(mail!.text).toContain(`Unsubscribe in one click: ${ORIGIN}${url}`)
    expect(mail!.html).toContain(`<a href="${ORIGIN}${url}">Unsubscribe</a> in one click.`)
    expect(`${mail!.text}${String(mail!.html)}`).not.toContain('{{unsubscribe}}')

    // A GET (a link scanner, a preview, a person) asks and changes nothing.
    const page = await t.app.inject({ url })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain('Stop tipping reminder emails?')
    expect(page.body).toContain('<form method="post">')
    // Its style is allowed by this answer's policy alone (a fresh nonce), scripts by none.
    const nonce = /<style nonce="([^"]+)">/.exec(page.body)?.[1]
    expect(nonce).toBeDefined()
    expect(String(page.headers['content-security-policy'])).toContain(
      `style-src 'self' 'nonce-${nonce}'`,
    )
    expect(page.body).not.toContain('<script')
    expect(await me(u)).toMatchObject({ reminderLead: 'round', disabledNotifications: false })

    const res = await oneClick(url)
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('You are unsubscribed')
    expect(await me(u)).toMatchObject({ reminderLead: 'off', disabledNotifications: false })
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'data'])
      .where('actor_user_id', '=', u.id)
      .where('action', '=', 'user.unsubscribe')
      .execute()
    expect(audit).toHaveLength(1)
    expect(JSON.stringify(audit[0]!.data)).toContain('reminders')

    // Again is harmless (a provider may retry).
    expect((await oneClick(url)).statusCode).toBe(200)
  })

  it('puts a league link on a league message, which stops league emails only', async () => {
    const boss = await registerUser(t.app)
    const mate = await registerUser(t.app)
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/league',
      headers: { cookie: boss.cookie },
      payload: { name: 'Unsubscribers', startRound: 2, privacy: 'private' },
    })
    const league = created.json().success.league as { id: number; code: string }
    await t.app.inject({
      method: 'POST',
      url: `/api/bbl/league/${league.code}/join`,
      headers: { cookie: mate.cookie },
    })
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/league/send_emails',
      headers: { cookie: boss.cookie },
      payload: { leagueId: league.id, subject: 'Hi', message: 'Tip early {{unsubscribe}}' },
    })
    expect(sent.json()).toEqual({ success: { recipients: 2 } })
    await scheduler.tick()
    const mail = catcher.messages.find(
      (m) => m.to[0] === mate.email && m.mail.subject?.includes('commissioner'),
    )?.mail
    const url = headerLink(mail)
    expect(url).toMatch(new RegExp(`^/unsubscribe/${mate.id}\\.league\\.`))
    // The footer gets the link; the slot typed into the message stays the commissioner's text.
    expect(mail!.text).toContain('> Tip early {{unsubscribe}}')
    expect(mail!.text).toContain(`Unsubscribe in one click: ${ORIGIN}${url}`)
    expect(mail!.html).toContain('Tip early {{unsubscribe}}')
    expect(mail!.html).toContain(`<a href="${ORIGIN}${url}">Unsubscribe</a>`)

    const res = await oneClick(url, 'multipart/form-data; boundary=b')
    expect(res.statusCode).toBe(200)
    expect(await me(mate)).toMatchObject({ reminderLead: 'round', disabledNotifications: true })
  })

  it('leaves mail that is not a list without the header (a password reset)', async () => {
    const u = await registerUser(t.app)
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/password_reset/request',
      payload: { email: u.email },
    })
    await scheduler.tick()
    const reset = catcher.messages.find(
      (m) => m.to[0] === u.email && /password/i.test(m.mail.subject ?? ''),
    )?.mail
    expect(reset).toBeDefined()
    expect(header(reset, 'list-unsubscribe')).toBeUndefined()
    expect(header(reset, 'list-unsubscribe-post')).toBeUndefined()
  })

  it('answers a forged or broken link with a 404 page and changes nothing', async () => {
    const u = await registerUser(t.app)
    const good = `/unsubscribe/${unsubscribeToken(DEV_RECEIPT_SECRET, u.id, 'reminders')}`
    for (const url of [
      `/unsubscribe/${unsubscribeToken('another-key', u.id, 'reminders')}`,
      `${good}x`,
      '/unsubscribe/1.reminders',
      `/unsubscribe/${'x'.repeat(200)}`,
    ]) {
      const get = await t.app.inject({ url })
      expect([404, 400, 414], url).toContain(get.statusCode)
      const post = await oneClick(url)
      expect([404, 400, 414], url).toContain(post.statusCode)
    }
    expect(
      (await t.app.inject({ url: '/unsubscribe/2.league.AAAAAAAAAAAAAAAAAAAAAA' })).body,
    ).toContain('This unsubscribe link is not valid')
    // A token for an account that does not exist is made by this server only in theory.
    const ghost = `/unsubscribe/${unsubscribeToken(DEV_RECEIPT_SECRET, 2_000_000_000, 'league')}`
    expect((await oneClick(ghost)).statusCode).toBe(404)
    expect(await me(u)).toMatchObject({ reminderLead: 'round', disabledNotifications: false })
  })
})
