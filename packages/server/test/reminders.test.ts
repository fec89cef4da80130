import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ReminderJob } from '../src/modules/reminders/service.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp, mailScheduler } from './helpers.ts'
import { startSmtpCatcher } from './smtp-catcher.ts'

// The weekly reminder job on the real 2025-26 fixtures: before the men's Week 2 starts, who is
// emailed, with which matches, and never twice.
const ORIGIN = 'https://tipping.example'
let t: TestApp
let round: { id: number; label: string; firstAt: Date }
let matches: { id: number; home_squad_id: number; home: string; away: string }[]
type U = { id: number; email: string; cookie: string }
const users: Record<
  'none' | 'all' | 'some' | 'optedOut' | 'noLeagueMail' | 'gone' | 'womenOnly',
  U
> = {} as never

const job = (o: { leadHours?: number; batchSize?: number } = {}) =>
  new ReminderJob(t.db, t.clock, { leadHours: 24, appOrigin: ORIGIN, ...o })

const reminders = () =>
  t.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('kind', '=', 'weekly_reminder')
    .where('subject', 'like', `${round.label} of BBL%`)
    .orderBy('id')
    .execute()

async function tip(userId: number, matchIds: number[]) {
  for (const id of matchIds) {
    const m = matches.find((x) => x.id === id)!
    await t.db
      .insertInto('tips')
      .values({ user_id: userId, match_id: id, round_id: round.id, squad_id: m.home_squad_id })
      .execute()
  }
}

beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: ORIGIN } })
  await loadSeasons(t.db)
  const r = await t.db
    .selectFrom('rounds as r')
    .innerJoin('competitions as c', 'c.id', 'r.competition_id')
    .innerJoin('matches as m', 'm.round_id', 'r.id')
    .select(['r.id', 'r.label', (eb) => eb.fn.min('m.starts_at').as('first')])
    .where('c.sport', '=', 'bbl')
    .where('r.number', '=', 2)
    .groupBy(['r.id', 'r.label'])
    .executeTakeFirstOrThrow()
  round = { id: r.id, label: r.label, firstAt: new Date(r.first) }
  matches = await t.db
    .selectFrom('matches as m')
    .innerJoin('squads as h', 'h.id', 'm.home_squad_id')
    .innerJoin('squads as a', 'a.id', 'm.away_squad_id')
    .select(['m.id', 'm.home_squad_id', 'h.name as home', 'a.name as away'])
    .where('m.round_id', '=', round.id)
    .orderBy('m.starts_at')
    .orderBy('m.id')
    .execute()
  expect(matches.length).toBeGreaterThan(2)
  // Registered while Week 1 is on, a day and a half before Week 2.
  t.clock.set(new Date(round.firstAt.getTime() - 36 * 3_600_000))
  users.none = await registerUser(t.app)
  users.all = await registerUser(t.app)
  users.some = await registerUser(t.app)
  users.optedOut = await registerUser(t.app)
  users.noLeagueMail = await registerUser(t.app)
  users.gone = await registerUser(t.app)
  users.womenOnly = await registerUser(t.app, { sport: 'wbbl' })
  await tip(
    users.all.id,
    matches.map((m) => m.id),
  )
  await tip(users.some.id, [matches[0]!.id, matches[2]!.id])
  await t.db
    .updateTable('users')
    .set({ is_weekly_reminder_enabled: false, reminder_lead: 'off' })
    .where('id', '=', users.optedOut.id)
    .execute()
  await t.db
    .updateTable('users')
    .set({ disabled_notifications: true })
    .where('id', '=', users.noLeagueMail.id)
    .execute()
  await t.db
    .updateTable('users')
    .set({ deactivated_at: t.clock.now() })
    .where('id', '=', users.gone.id)
    .execute()
})
/** Who gets Week 2's reminder: registered, active, reminders on, something left to tip. */
const reminded = () => [users.none, users.some, users.noLeagueMail]

beforeEach(async () => {
  await t.db.deleteFrom('email_outbox').execute()
  await t.db.deleteFrom('reminder_log').execute()
  t.clock.set(new Date(round.firstAt.getTime() - 12 * 3_600_000))
})
afterAll(() => t.close())

describe('weekly reminders', () => {
  it('emails only opted-in, active, registered users with untipped matches, listing those', async () => {
    const report = await job().run()
    expect(report.queued).toBeGreaterThanOrEqual(2)
    const mail = await reminders()
    const to = mail.map((m) => m.to_address).sort()
    // League emails turned off is not reminders turned off: the account page's two settings.
    expect(to).toEqual(
      reminded()
        .map((u) => u.email)
        .sort(),
    )

    const forNone = mail.find((m) => m.to_address === users.none.email)!
    for (const m of matches) expect(forNone.text_body).toContain(`- ${m.home} v ${m.away}, `)
    expect(forNone.text_body).toContain(`Enter your tips: ${ORIGIN}/bbl/tipping`)
    expect(forNone.text_body).not.toContain('{{untipped-matches}}')
    expect(forNone.html_body).toContain(`<li>${matches[1]!.home} v ${matches[1]!.away}, `)
    expect(forNone.html_body).toContain(`href="${ORIGIN}/bbl/tipping"`)
    expect(forNone.subject).toBe(`${round.label} of BBL Tipping: you have matches to tip`)

    // Only the matches this user left untipped, in start order.
    const forSome = mail.find((m) => m.to_address === users.some.email)!
    const listed = forSome.text_body.split('\n').filter((l) => l.startsWith('- '))
    expect(listed).toEqual(
      matches
        .filter((_, i) => i !== 0 && i !== 2)
        .map((m) => expect.stringContaining(`- ${m.home} v ${m.away}, `) as unknown as string),
    )
    expect(forSome.html_body).not.toContain(`<li>${matches[0]!.home} v ${matches[0]!.away},`)

    const logged = await t.db
      .selectFrom('reminder_log')
      .select('user_id')
      .where('round_id', '=', round.id)
      .execute()
    expect(logged.map((r) => r.user_id).sort()).toEqual(
      reminded()
        .map((u) => u.id)
        .sort(),
    )
  })

  it('never sends twice for the same user and round, across passes and after new tips', async () => {
    await job().run()
    const first = (await reminders()).length
    t.clock.advance(3_600_000)
    await job().run()
    // Someone who had tipped everything and then cleared their tips is reminded once, later;
    // those already reminded are not reminded again.
    await t.db.deleteFrom('tips').where('user_id', '=', users.all.id).execute()
    await job().run()
    expect((await reminders()).map((m) => m.to_address)).toEqual(
      expect.arrayContaining([users.all.email]),
    )
    expect((await reminders()).filter((m) => m.to_address === users.none.email)).toHaveLength(1)
    expect(await reminders()).toHaveLength(first + 1)
    await tip(
      users.all.id,
      matches.map((m) => m.id),
    )
  })

  it('is safe with two schedulers running at once, in small batches', async () => {
    const report = await Promise.all([
      job({ batchSize: 1 }).run(),
      job({ batchSize: 1 }).run(),
      job({ batchSize: 2 }).run(),
    ])
    const mail = await reminders()
    expect(mail.map((m) => m.to_address).sort()).toEqual(
      reminded()
        .map((u) => u.email)
        .sort(),
    )
    const bblQueued = mail.length
    expect(report.reduce((n, r) => n + r.queued, 0)).toBeGreaterThanOrEqual(bblQueued)
  })

  it('waits until the round is within the lead time, and stops once it has started', async () => {
    t.clock.set(new Date(round.firstAt.getTime() - 25 * 3_600_000))
    await job().run()
    expect(await reminders()).toHaveLength(0)
    t.clock.set(new Date(round.firstAt.getTime() + 60_000))
    await job().run()
    expect(await reminders()).toHaveLength(0)
    // A longer lead time reaches further ahead.
    t.clock.set(new Date(round.firstAt.getTime() - 25 * 3_600_000))
    await job({ leadHours: 30 }).run()
    expect(await reminders()).toHaveLength(reminded().length)
  })

  it('does nothing when turned off (lead time 0)', async () => {
    expect(await job({ leadHours: 0 }).run()).toEqual({ rounds: 0, queued: 0 })
    expect(await reminders()).toHaveLength(0)
  })

  it('goes out from the scheduler pass through SMTP', async () => {
    const catcher = await startSmtpCatcher()
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    const scheduler = mailScheduler(t, {
      smtpUrl: catcher.url,
      origin: ORIGIN,
      reminders: job(),
      log,
    })
    try {
      await scheduler.tick()
      await scheduler.tick()
      const bbl = catcher.messages.filter((m) =>
        m.mail.subject?.startsWith(`${round.label} of BBL`),
      )
      expect(bbl.map((m) => m.to[0]).sort()).toEqual(
        reminded()
          .map((u) => u.email)
          .sort(),
      )
      const msg = bbl.find((m) => m.to[0] === users.some.email)!.mail
      expect(msg.text).toContain(`${matches[1]!.home} v ${matches[1]!.away}`)
      expect(msg.text).not.toContain(`${matches[0]!.home} v ${matches[0]!.away}`)
      expect(msg.html).toContain('<li>')
      expect(log.error).not.toHaveBeenCalled()
    } finally {
      await scheduler.stop()
      await catcher.close()
    }
  })
})
