import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Scheduler } from '../src/jobs/scheduler.ts'
import {
  MailDelivery,
  queueEmails,
  retryDelayMs,
  type MailDeliveryOptions,
} from '../src/modules/mail/service.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import {
  createTestApp,
  loadSeasons,
  registerUser,
  type TestApp,
  unsubscribeLinks,
} from './helpers.ts'
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts'

// The outbox and its delivery job against a real SMTP server (smtp-server on a random port).
const ORIGIN = 'https://tipping.example'
const FROM = 'Tipping Test <tips@tipping.example>'
let t: TestApp
let boss: { cookie: string; id: number; email: string }
let league: { id: number; code: string; name: string }
const open: { deliverers: MailDelivery[]; catchers: SmtpCatcher[] } = {
  deliverers: [],
  catchers: [],
}

const quietLog = () =>
  ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as MailDeliveryOptions['log'] & {
    info: ReturnType<typeof vi.fn>
  }

function deliverer(smtpUrl: string | undefined, extra: Partial<MailDeliveryOptions> = {}) {
  const d = new MailDelivery(t.db, t.clock, {
    unsubscribe: unsubscribeLinks(ORIGIN),
    smtpUrl,
    from: FROM,
    log: quietLog(),
    timeoutMs: 3000,
    ...extra,
  })
  open.deliverers.push(d)
  return d
}

async function catcher(opts: Parameters<typeof startSmtpCatcher>[0] = {}) {
  const c = await startSmtpCatcher(opts)
  open.catchers.push(c)
  return c
}

const invite = (emails: string[]) =>
  t.app.inject({
    method: 'POST',
    url: `/api/bbl/league/${league.id}/invite`,
    headers: { cookie: boss.cookie },
    payload: { emails },
  })

const outbox = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute()

beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: ORIGIN } })
  await loadSeasons(t.db)
  boss = await registerUser(t.app, { firstName: 'Bo', lastName: 'Commish', team_name: 'Bo & Co' })
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: { cookie: boss.cookie },
    payload: { name: 'Tom & Jerry <Tippers>', startRound: 2, privacy: 'private' },
  })
  league = res.json().success.league
})
beforeEach(async () => {
  await t.db.deleteFrom('email_outbox').execute()
  await t.db.deleteFrom('audit_log').execute()
})
afterEach(async () => {
  for (const d of open.deliverers.splice(0)) d.close()
  for (const c of open.catchers.splice(0)) await c.close()
})
afterAll(() => t.close())

describe('mail delivery', () => {
  it('delivers an invitation with the join link, league name and commissioner', async () => {
    const smtp = await catcher()
    expect((await invite(['Friend@Example.com'])).json()).toEqual({ success: { invited: 1 } })
    const [row] = await outbox()
    expect(row).toMatchObject({ kind: 'league_invite', to_address: 'friend@example.com' })
    expect(row!.sent_at).toBeNull()

    const report = await deliverer(smtp.url).deliver()
    expect(report).toEqual({ sent: 1, retrying: 0, failed: 0 })
    expect(smtp.messages).toHaveLength(1)
    const { to, mail } = smtp.messages[0]!
    const link = `${ORIGIN}/bbl/leagues/join/${league.code}`
    expect(to).toEqual(['friend@example.com'])
    expect(mail.from?.text).toContain('tips@tipping.example')
    // Nothing the commissioner typed is in the subject (issue 26, item 7); the body quotes it.
    expect(mail.subject).toBe("You're invited to join a league on BBL Tipping")
    expect(mail.text).toContain(link)
    expect(mail.text).toContain('League: "Tom & Jerry <Tippers>"')
    expect(mail.text).toContain('Invited by: "Bo & Co"')
    expect(mail.text).toContain('Starting week: 2')
    expect(mail.html).toContain(`<a href="${link}">Join now</a>`)
    // What the commissioner typed is escaped in the HTML, never markup.
    expect(mail.html).toContain('Tom &amp; Jerry &lt;Tippers&gt;')
    expect(mail.html).not.toContain('<Tippers>')

    const [sent] = await outbox()
    expect(sent!.sent_at).not.toBeNull()
    expect(sent!.attempts).toBe(1)
  })

  it('delivers a league message to every member who takes email', async () => {
    const smtp = await catcher()
    const mate = await registerUser(t.app, { firstName: 'Mate' })
    const quiet = await registerUser(t.app, { firstName: 'Quiet' })
    for (const u of [mate, quiet])
      await t.app.inject({
        method: 'POST',
        url: `/api/bbl/league/${league.code}/join`,
        headers: { cookie: u.cookie },
      })
    await t.db
      .updateTable('users')
      .set({ disabled_notifications: true })
      .where('id', '=', quiet.id)
      .execute()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/league/send_emails',
      headers: { cookie: boss.cookie },
      payload: {
        leagueId: league.id,
        subject: 'Round 2',
        message: 'Tip early!\n<b>No excuses</b>',
      },
    })
    expect(res.json()).toEqual({ success: { recipients: 2 } })
    await deliverer(smtp.url).deliver()
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([boss.email, mate.email].sort())
    const { mail } = smtp.messages[0]!
    // The league's name and the commissioner's subject are in the body, quoted, not the subject.
    expect(mail.subject).toBe('A message from your league commissioner on BBL Tipping')
    expect(mail.text).toContain('League: "Tom & Jerry <Tippers>"\n')
    expect(mail.text).toContain('Subject: "Round 2"\n')
    expect(mail.text).toContain('> Tip early!\n> <b>No excuses</b>')
    expect(mail.html).toContain('Tip early!<br>\n&lt;b&gt;No excuses&lt;/b&gt;')
    for (const u of [mate, quiet])
      await t.app.inject({
        method: 'POST',
        url: `/api/bbl/league/${league.id}/user/${u.id}`,
        headers: { cookie: boss.cookie },
      })
  })

  it('leaves emails pending without SMTP_URL, saying so once', async () => {
    await invite(['a@example.com', 'b@example.com'])
    const log = quietLog()
    const d = deliverer(undefined, { log })
    expect(await d.deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    expect(await d.deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    expect(log.info).toHaveBeenCalledTimes(1)
    const rows = await outbox()
    expect(rows).toHaveLength(2)
    expect(rows.every((r) => r.sent_at === null && r.attempts === 0)).toBe(true)
  })

  it('keeps emails pending while SMTP is down, backs off, and delivers them later', async () => {
    // A port that was free a moment ago: nothing listens on it until the server "comes back".
    const probe = await startSmtpCatcher()
    const port = probe.port
    await probe.close()
    await invite(['one@example.com', 'two@example.com', 'three@example.com'])
    const d = deliverer(`smtp://127.0.0.1:${port}`)

    expect(await d.deliver()).toEqual({ sent: 0, retrying: 3, failed: 0 })
    const now = t.clock.now().getTime()
    for (const r of await outbox()) {
      expect(r.sent_at).toBeNull()
      expect(r.failed_at).toBeNull()
      expect(r.attempts).toBe(1)
      expect(r.error).toMatch(/ECONNREFUSED|connect/i)
      expect(new Date(r.next_attempt_at).getTime()).toBe(now + retryDelayMs(1))
    }
    // Not due yet: nothing is tried again before the back-off has passed.
    expect(await d.deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    t.clock.advance(retryDelayMs(1) / 2)
    expect(await d.deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })

    const smtp = await catcher({ port })
    t.clock.advance(retryDelayMs(1))
    expect(await d.deliver()).toEqual({ sent: 3, retrying: 0, failed: 0 })
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([
      'one@example.com',
      'three@example.com',
      'two@example.com',
    ])
    const rows = await outbox()
    expect(rows.every((r) => r.sent_at !== null && r.attempts === 2)).toBe(true)
  })

  it('gives up on a permanent refusal instead of retrying it', async () => {
    const smtp = await catcher()
    await invite(['gone@bounce.test', 'here@example.com'])
    expect(await deliverer(smtp.url).deliver()).toEqual({ sent: 1, retrying: 0, failed: 1 })
    const gone = (await outbox()).find((r) => r.to_address === 'gone@bounce.test')!
    expect(gone.failed_at).not.toBeNull()
    expect(gone.sent_at).toBeNull()
    expect(gone.error).toMatch(/550/)
    t.clock.advance(2 * 3_600_000)
    expect(await deliverer(smtp.url).deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
  })

  it('sends each email once with two deliverers running at once', async () => {
    const smtp = await catcher({ delayMs: 3 })
    const addresses = Array.from({ length: 60 }, (_, i) => `tipper${i}@example.com`)
    await queueEmails(
      t.db,
      addresses.map((to) => ({ kind: 'test', to, subject: `Hello ${to}`, text: 'Hi', html: null })),
      t.clock.now(),
    )
    const a = deliverer(smtp.url, { batchSize: 7 })
    const b = deliverer(smtp.url, { batchSize: 7 })
    const totals = { a: 0, b: 0 }
    for (let pass = 0; pass < 10; pass++) {
      const [ra, rb] = await Promise.all([a.deliver(), b.deliver()])
      totals.a += ra.sent
      totals.b += rb.sent
      if (ra.sent + rb.sent === 0) break
    }
    expect(totals.a + totals.b).toBe(60)
    expect(totals.a).toBeGreaterThan(0)
    expect(totals.b).toBeGreaterThan(0)
    const received = smtp.messages.map((m) => m.to[0]).sort()
    expect(received).toEqual([...addresses].sort())
    const rows = await outbox()
    expect(rows.every((r) => r.sent_at !== null && r.attempts === 1)).toBe(true)
  })

  it('runs in the scheduler pass', async () => {
    const smtp = await catcher()
    await invite(['scheduled@example.com'])
    const scheduler = new Scheduler({
      db: t.db,
      clock: t.clock,
      publisher: new Publisher(t.db, t.clock, {
        staticDir: t.staticDir,
        logosDir: path.join(t.staticDir, 'logos'),
      }),
      mail: deliverer(smtp.url),
      log: quietLog(),
      intervalMs: 0,
    })
    await scheduler.tick()
    expect(smtp.messages.map((m) => m.to[0])).toEqual(['scheduled@example.com'])
    await scheduler.stop()
  })
})
