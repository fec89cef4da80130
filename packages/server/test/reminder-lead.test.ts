import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Scheduler } from '../src/jobs/scheduler.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp, mailScheduler } from './helpers.ts'
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts'

// Reminders the player controls (issue 32, decision 026): the lead time per player ('round',
// 'match' or 'off'), the old switch kept working, and the 'match' reminder listing exactly the
// untipped matches with what autopilot will tip, through a real SMTP server.
const ORIGIN = 'https://tipping.example'
let t: TestApp
let catcher: SmtpCatcher
let scheduler: Scheduler
let round: { id: number; label: string }
let matches: { id: number; starts_at: Date; home_squad_id: number; home: string; away: string }[]
type U = { id: number; email: string; cookie: string }

const profile = async (u: U, body: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/user',
    headers: { cookie: u.cookie },
    payload: body,
  })
  expect(res.statusCode).toBe(200)
  return res.json().success.user as { reminderLead: string; isWeeklyReminderEnabled: boolean }
}

const tip = (u: U, i: number) =>
  t.db
    .insertInto('tips')
    .values({
      user_id: u.id,
      match_id: matches[i]!.id,
      round_id: round.id,
      squad_id: matches[i]!.home_squad_id,
    })
    .execute()

const mailTo = (u: U) => catcher.messages.filter((m) => m.to[0] === u.email)

beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: ORIGIN } })
  await loadSeasons(t.db)
  const r = await t.db
    .selectFrom('rounds as r')
    .innerJoin('competitions as c', 'c.id', 'r.competition_id')
    .select(['r.id', 'r.label'])
    .where('c.sport', '=', 'bbl')
    .where('r.number', '=', 2)
    .executeTakeFirstOrThrow()
  round = r
  matches = (
    await t.db
      .selectFrom('matches as m')
      .innerJoin('squads as h', 'h.id', 'm.home_squad_id')
      .innerJoin('squads as a', 'a.id', 'm.away_squad_id')
      .select(['m.id', 'm.starts_at', 'm.home_squad_id', 'h.name as home', 'a.name as away'])
      .where('m.round_id', '=', round.id)
      .orderBy('m.starts_at')
      .orderBy('m.id')
      .execute()
  ).map((m) => ({ ...m, starts_at: new Date(m.starts_at) }))
  expect(matches.length).toBeGreaterThan(2)
  t.clock.set(new Date(matches[0]!.starts_at.getTime() - 36 * 3_600_000))
  catcher = await startSmtpCatcher()
  scheduler = mailScheduler(t, { smtpUrl: catcher.url, origin: ORIGIN })
})
afterAll(async () => {
  await scheduler.stop()
  await catcher.close()
  await t.close()
})

describe('reminder lead time', () => {
  it('maps the old weekly switch onto the lead and back', async () => {
    const u = await registerUser(t.app)
    expect(await profile(u, {})).toMatchObject({
      reminderLead: 'round',
      isWeeklyReminderEnabled: true,
    })
    expect(await profile(u, { isWeeklyReminderEnabled: false })).toMatchObject({
      reminderLead: 'off',
      isWeeklyReminderEnabled: false,
    })
    expect(await profile(u, { isWeeklyReminderEnabled: true })).toMatchObject({
      reminderLead: 'round',
    })
    expect(await profile(u, { reminderLead: 'match' })).toMatchObject({
      reminderLead: 'match',
      isWeeklyReminderEnabled: true,
    })
    // An old client's "on" keeps the lead the player chose.
    expect(await profile(u, { isWeeklyReminderEnabled: true })).toMatchObject({
      reminderLead: 'match',
    })
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/user',
      headers: { cookie: u.cookie },
      payload: { reminderLead: 'weekly' },
    })
    expect(bad.statusCode).toBe(400)
    expect(JSON.stringify(bad.json().errors)).toContain('reminderLead')
  })

  it('sends each player their kind once, only when something is untipped, listing exactly that', async () => {
    t.clock.set(new Date(matches[0]!.starts_at.getTime() - 36 * 3_600_000))
    const weekly = await registerUser(t.app)
    const soon = await registerUser(t.app)
    const pilot = await registerUser(t.app)
    const tippedFirst = await registerUser(t.app)
    const off = await registerUser(t.app)
    for (const u of [soon, pilot, tippedFirst]) await profile(u, { reminderLead: 'match' })
    await profile(off, { reminderLead: 'off' })
    const ap = await t.app.inject({
      method: 'PUT',
      url: '/api/bbl/autopilot',
      headers: { cookie: pilot.cookie },
      payload: { strategy: 'home', leadMinutes: 15 },
    })
    expect(ap.statusCode).toBe(200)
    await tip(soon, 1)
    await tip(tippedFirst, 0)

    // A day before the round: the weekly reminder only.
    t.clock.set(new Date(matches[0]!.starts_at.getTime() - 12 * 3_600_000))
    await scheduler.tick()
    await scheduler.tick()
    expect(mailTo(weekly)).toHaveLength(1)
    expect(mailTo(weekly)[0]!.mail.subject).toBe(
      `${round.label} of BBL Tipping: you have matches to tip`,
    )
    for (const u of [soon, pilot, tippedFirst, off]) expect(mailTo(u)).toHaveLength(0)

    // 90 minutes before the first match: those who left it untipped.
    t.clock.set(new Date(matches[0]!.starts_at.getTime() - 90 * 60_000))
    await scheduler.tick()
    await scheduler.tick()
    expect(mailTo(soon)).toHaveLength(1)
    const mail = mailTo(soon)[0]!.mail
    expect(mail.subject).toBe(
      `${round.label} of BBL Tipping: a match you have not tipped starts soon`,
    )
    const listed = (mail.text ?? '').split('\n').filter((l) => l.startsWith('- '))
    const open = matches.filter((m) => m.starts_at > t.clock.now())
    expect(listed).toEqual(
      open
        .filter((m) => m.id !== matches[1]!.id)
        .map((m) => expect.stringContaining(`- ${m.home} v ${m.away}, `) as unknown as string),
    )
    expect(mail.text).not.toContain('autopilot will tip')
    const pilotMail = mailTo(pilot)[0]!.mail
    expect(pilotMail.text).toContain(`- ${matches[0]!.home} v ${matches[0]!.away}, `)
    expect(pilotMail.text).toContain(`(autopilot will tip ${matches[0]!.home})`)
    expect(pilotMail.html).toContain(`(autopilot will tip ${matches[0]!.home})</li>`)
    // Tipped the match that starts soon: nothing yet, whatever is untipped later.
    expect(mailTo(tippedFirst)).toHaveLength(0)
    expect(mailTo(off)).toHaveLength(0)
    expect(mailTo(weekly)).toHaveLength(1)

    // Never twice for the same (user, round, kind), however many passes.
    t.clock.advance(30 * 60_000)
    await scheduler.tick()
    await scheduler.tick()
    expect(mailTo(soon)).toHaveLength(1)
    expect(mailTo(pilot)).toHaveLength(1)
    const log = await t.db
      .selectFrom('reminder_log')
      .select(['user_id', 'kind'])
      .where('round_id', '=', round.id)
      .where('user_id', 'in', [weekly.id, soon.id, pilot.id])
      .orderBy('user_id')
      .execute()
    expect(log).toEqual([
      { user_id: weekly.id, kind: 'round' },
      { user_id: soon.id, kind: 'match' },
      { user_id: pilot.id, kind: 'match' },
    ])
  })
})
