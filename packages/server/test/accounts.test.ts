import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { PASSWORD_RESET_REQUESTED } from '@tipping/contract/auth-messages'
import { hashToken } from '../src/modules/auth/service.ts'
import { MailDelivery } from '../src/modules/mail/service.ts'
import {
  createTestApp,
  loadSeasons,
  registerUser,
  sessionCookie,
  type TestApp,
  unsubscribeLinks,
} from './helpers.ts'
import { startSmtpCatcher } from './smtp-catcher.ts'

// In-product accounts (issue 6): password reset, registration variants, recovery, profile,
// password change and deactivation, each with its refusals.
const ORIGIN = 'https://tipping.example'
const PASSWORD = 'correct horse battery'
let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: ORIGIN } })
  await loadSeasons(t.db)
})
beforeEach(async () => {
  await t.db.deleteFrom('email_outbox').execute()
})
afterAll(() => t.close())

const post = (url: string, payload?: unknown, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    ...(cookie ? { headers: { cookie } } : {}),
  })
const me = (cookie: string, sport = 'bbl') =>
  t.app.inject({ url: `/api/${sport}/user`, headers: { cookie } })
const login = (email: string, password: string) => post('/api/auth/login', { email, password })
const requestReset = (email: string) => post('/api/auth/password_reset/request', { email })
const reset = (payload: Record<string, unknown>) => post('/api/auth/password_reset', payload)
const outbox = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute()

/** The token out of the newest reset email to `to`. */
async function mailedToken(to: string): Promise<string> {
  const mails = (await outbox()).filter((m) => m.to_address === to && m.kind === 'password_reset')
  const text = mails.at(-1)?.text_body ?? ''
  const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)
  if (!match) throw new Error(`no reset link mailed to ${to}`)
  return match[1]!
}

const firstError = (res: { json(): unknown }) =>
  (res.json() as { errors: { code: string; param: string | null; message: string }[] }).errors[0]

describe('password reset request', () => {
  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const { email } = await registerUser(t.app, { firstName: 'Rhea' })
    const known = await requestReset(email.toUpperCase())
    const unknown = await requestReset('nobody-here@example.com')
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(200)
    expect(known.json()).toEqual(unknown.json())
    expect(known.json()).toEqual({ success: { message: PASSWORD_RESET_REQUESTED } })

    const mails = await outbox()
    expect(mails.map((m) => m.to_address)).toEqual([email])
    const [mail] = mails
    expect(mail!.subject).toBe('Reset your Big Bash Tipping password')
    expect(mail!.text_body).toContain('Hi Rhea,')
    expect(mail!.text_body).toContain(`${ORIGIN}/reset-password?token=`)
    expect(mail!.html_body).toContain(`href="${ORIGIN}/reset-password?token=`)

    // Only the token's hash is stored, expiring in an hour.
    const token = await mailedToken(email)
    const rows = await t.db.selectFrom('password_reset_tokens').selectAll().execute()
    const row = rows.find((r) => Buffer.from(r.token_hash).equals(hashToken(token)))
    expect(row).toBeDefined()
    expect(rows.some((r) => Buffer.from(r.token_hash).toString() === token)).toBe(false)
    expect(row!.expires_at.getTime() - t.clock.now().getTime()).toBe(3_600_000)
  })

  it('takes as long for an unknown email as for a known one (a floor time)', async () => {
    const { email } = await registerUser(t.app)
    const time = async (e: string) => {
      const started = performance.now()
      await requestReset(e)
      return performance.now() - started
    }
    expect(await time('unknown-timing@example.com')).toBeGreaterThanOrEqual(240)
    expect(await time(email)).toBeGreaterThanOrEqual(240)
  })

  it('refuses a malformed email naming the field', async () => {
    const res = await requestReset('not an email')
    expect(res.statusCode).toBe(400)
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param: 'email' })
  })

  it('sends nothing to a deactivated account', async () => {
    const { email, cookie } = await registerUser(t.app)
    expect((await post('/api/user/deactivate', undefined, cookie)).statusCode).toBe(200)
    const res = await requestReset(email)
    expect(res.json()).toEqual({ success: { message: PASSWORD_RESET_REQUESTED } })
    expect(await outbox()).toEqual([])
  })
})

describe('password reset email', () => {
  it('arrives through a real SMTP server, and its link resets the password', async () => {
    const smtp = await startSmtpCatcher()
    const delivery = new MailDelivery(t.db, t.clock, {
      unsubscribe: unsubscribeLinks(ORIGIN),
      smtpUrl: smtp.url,
      from: 'Tipping Test <tips@tipping.example>',
      log: {
        info: vi.fn(),
        warn: vi.fn(),
        error: vi.fn(),
      },
      timeoutMs: 3000,
    })
    try {
      const { email } = await registerUser(t.app, { firstName: 'Mia <b>' })
      await requestReset(email)
      expect(await delivery.deliver()).toEqual({ sent: 1, retrying: 0, failed: 0 })
      expect(smtp.messages).toHaveLength(1)
      const { to, mail } = smtp.messages[0]!
      expect(to).toEqual([email])
      expect(mail.subject).toBe('Reset your Big Bash Tipping password')
      expect(mail.text).toContain('Hi Mia <b>,')
      // What the user typed is escaped in the HTML.
      expect(mail.html).toContain('Hi Mia &lt;b&gt;,')
      const link = /(https:\/\/tipping\.example\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(
        mail.text ?? '',
      )?.[1]
      expect(link).toBeDefined()
      expect(mail.html).toContain(`href="${link}"`)

      const token = new URL(link!).searchParams.get('token')!
      const res = await reset({ token, password: 'from the mail', confirmation: 'from the mail' })
      expect(res.statusCode).toBe(200)
      expect((await login(email, 'from the mail')).statusCode).toBe(200)
    } finally {
      delivery.close()
      await smtp.close()
    }
  })
})

describe('password reset', () => {
  it('sets the password, uses the token up and signs the account out everywhere', async () => {
    const { email, cookie } = await registerUser(t.app)
    await requestReset(email)
    const token = await mailedToken(email)
    const res = await reset({ token, password: 'a brand new one', confirmation: 'a brand new one' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: { ok: true } })

    expect((await me(cookie)).statusCode).toBe(401)
    expect((await login(email, PASSWORD)).statusCode).toBe(401)
    expect((await login(email, 'a brand new one')).statusCode).toBe(200)

    const again = await reset({ token, password: 'third password', confirmation: 'third password' })
    expect(again.statusCode).toBe(400)
    expect(firstError(again)).toMatchObject({ code: 'VALIDATION', param: 'token' })
    expect(firstError(again)!.message).toContain('already been used')
    expect((await login(email, 'third password')).statusCode).toBe(401)
  })

  it('refuses an expired token', async () => {
    const { email } = await registerUser(t.app)
    await requestReset(email)
    const token = await mailedToken(email)
    t.clock.advance(3_600_001)
    try {
      const res = await reset({ token, password: 'new password 1', confirmation: 'new password 1' })
      expect(res.statusCode).toBe(400)
      expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param: 'token' })
      expect(firstError(res)!.message).toContain('expired')
    } finally {
      t.clock.advance(-3_600_001)
    }
    expect((await login(email, PASSWORD)).statusCode).toBe(200)
  })

  it('refuses an unknown token', async () => {
    const res = await reset({
      token: 'made-up-token',
      password: 'new password 1',
      confirmation: 'new password 1',
    })
    expect(res.statusCode).toBe(400)
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param: 'token' })
    expect(firstError(res)!.message).toContain('not valid')
  })

  it('makes an older link useless once a newer one is requested', async () => {
    const { email } = await registerUser(t.app)
    await requestReset(email)
    const older = await mailedToken(email)
    await requestReset(email)
    const newer = await mailedToken(email)
    expect(newer).not.toBe(older)
    const res = await reset({
      token: older,
      password: 'new password 1',
      confirmation: 'new password 1',
    })
    expect(firstError(res)).toMatchObject({ param: 'token' })
    const ok = await reset({
      token: newer,
      password: 'new password 1',
      confirmation: 'new password 1',
    })
    expect(ok.statusCode).toBe(200)
  })

  it.each([
    [{ password: 'new password 1', confirmation: 'new password 1' }, 'token'],
    [{ token: 'x', password: 'short', confirmation: 'short' }, 'password'],
    [{ token: 'x', password: 'new password 1', confirmation: 'new password 2' }, 'confirmation'],
  ])('refuses %j naming %s', async (payload, param) => {
    const res = await reset(payload)
    expect(res.statusCode).toBe(400)
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param })
  })
})

describe('registration variants', () => {
  it('POST {sport}/auth/register grants that sport only', async () => {
    const res = await post('/api/wbbl/auth/register', {
      email: 'women-only@example.com',
      password: PASSWORD,
      firstName: 'Wen',
      lastName: 'Dee',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().success.user.roles).toEqual(['ROLE_USER_WBBL'])
    const cookie = sessionCookie(res)
    expect((await me(cookie, 'wbbl')).statusCode).toBe(200)
    expect((await me(cookie, 'bbl')).statusCode).toBe(513)
  })

  it('POST {sport}/auth/register refuses an unknown sport and a taken email', async () => {
    const body = { email: 'twice@example.com', password: PASSWORD, firstName: 'T', lastName: 'W' }
    expect((await post('/api/ipl/auth/register', body)).statusCode).toBe(400)
    expect((await post('/api/bbl/auth/register', body)).statusCode).toBe(200)
    const again = await post('/api/bbl/auth/register', body)
    expect(again.statusCode).toBe(409)
    expect(firstError(again)).toMatchObject({ code: 'EMAIL_TAKEN', param: 'email' })
  })

  it('register_for_game: a signed-in user joins the other game, which then answers', async () => {
    const { cookie, id } = await registerUser(t.app, { sport: 'bbl' })
    const before = await me(cookie, 'wbbl')
    expect(before.statusCode).toBe(513)
    expect(firstError(before)).toMatchObject({ code: 'NOT_REGISTERED' })

    const res = await post('/api/wbbl/auth/register_for_game', undefined, cookie)
    expect(res.statusCode).toBe(200)
    expect(res.json().success.user.roles).toEqual(['ROLE_USER_BBL', 'ROLE_USER_WBBL'])
    expect((await me(cookie, 'wbbl')).statusCode).toBe(200)
    const regs = await t.db
      .selectFrom('competition_registrations as r')
      .innerJoin('competitions as c', 'c.id', 'r.competition_id')
      .select('c.sport')
      .where('r.user_id', '=', id)
      .execute()
    expect(regs.map((r) => r.sport).sort()).toEqual(['bbl', 'wbbl'])

    // Idempotent: a second call changes nothing.
    const twice = await post('/api/wbbl/auth/register_for_game', undefined, cookie)
    expect(twice.json().success.user.roles).toEqual(['ROLE_USER_BBL', 'ROLE_USER_WBBL'])
  })

  it('register_for_game needs a session', async () => {
    const res = await post('/api/wbbl/auth/register_for_game')
    expect(res.statusCode).toBe(401)
    expect(firstError(res)).toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

describe('account recovery', () => {
  let earlierBbl: number
  beforeAll(async () => {
    const row = await t.db
      .insertInto('competitions')
      .values({
        sport: 'bbl',
        identifier: 'xyz-bbl-14',
        season: 14,
        name: 'BBL 2024-25',
        year: '2024-25',
        is_current: false,
        ladder_points: JSON.stringify({ win: 2, noResult: 1, tie: 1, loss: 0 }),
        assumptions: JSON.stringify([]),
        sources: JSON.stringify([]),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    earlierBbl = row.id
  })

  it("brings last season's tipper into this season and flags the account recovered", async () => {
    const { cookie, id } = await registerUser(t.app, { sport: 'wbbl' })
    await t.db
      .insertInto('competition_registrations')
      .values({ competition_id: earlierBbl, user_id: id, registered_at: new Date() })
      .execute()
    const res = await post('/api/bbl/bbl/user/recover', undefined, cookie)
    expect(res.statusCode).toBe(200)
    expect(res.json().success.user).toMatchObject({
      recovered: true,
      roles: ['ROLE_USER_WBBL', 'ROLE_USER_BBL'],
    })
    expect((await me(cookie, 'bbl')).json().success.user.recovered).toBe(true)
  })

  it('refuses an account with no earlier season of the sport', async () => {
    const { cookie } = await registerUser(t.app, { sport: 'wbbl' })
    const res = await post('/api/bbl/bbl/user/recover', undefined, cookie)
    expect(res.statusCode).toBe(404)
    expect(firstError(res)).toMatchObject({ code: 'NOT_FOUND' })
    const after = await me(cookie, 'wbbl')
    expect(after.json().success.user).toMatchObject({ recovered: false, roles: ['ROLE_USER_WBBL'] })
  })

  it('needs a session, and the sport twice as the spec writes it', async () => {
    expect((await post('/api/bbl/bbl/user/recover')).statusCode).toBe(401)
    const { cookie } = await registerUser(t.app)
    expect((await post('/api/bbl/wbbl/user/recover', undefined, cookie)).statusCode).toBe(404)
  })
})

describe('profile update', () => {
  it('changes the fields sent, keeps the rest, and echoes the success message', async () => {
    const squad = await t.db
      .selectFrom('squads')
      .select('id')
      .where('sport', '=', 'bbl')
      .executeTakeFirstOrThrow()
    const { cookie } = await registerUser(t.app, { team_name: 'Old Name' })
    const res = await post(
      '/api/bbl/user',
      {
        team_name: '  Sixes & Sevens ',
        team_supported: squad.id,
        isWeeklyReminderEnabled: false,
        disabledNotifications: true,
        successMsg: 'Profile updated',
      },
      cookie,
    )
    expect(res.statusCode).toBe(200)
    const { user, successMsg } = res.json().success
    expect(successMsg).toBe('Profile updated')
    expect(user).toMatchObject({
      team_name: 'Sixes & Sevens',
      team_supported: squad.id,
      isWeeklyReminderEnabled: false,
      disabledNotifications: true,
      first_name: 'Test',
    })
    expect((await me(cookie)).json().success.user).toEqual(user)

    const cleared = await post('/api/bbl/user', { team_name: '', team_supported: 0 }, cookie)
    expect(cleared.json().success.user).toMatchObject({
      team_name: null,
      team_supported: 0,
      isWeeklyReminderEnabled: false,
    })
  })

  it('spells the team name as the user session does, and refuses any other spelling', async () => {
    // Issue 27: `teamName` sent to the update answered 200 and changed nothing.
    const { cookie, id } = await registerUser(t.app, { team_name: 'Registered Name' })
    expect((await me(cookie)).json().success.user.team_name).toBe('Registered Name')
    const res = await post('/api/bbl/user', { teamName: 'Camel Case' }, cookie)
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual([
      { code: 'VALIDATION', message: 'Unknown field "teamName"', param: 'teamName' },
    ])
    const row = await t.db
      .selectFrom('users')
      .select('team_name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.team_name).toBe('Registered Name')

    const registration = await post('/api/auth/register', {
      email: 'camel-case@example.com',
      password: PASSWORD,
      firstName: 'Cam',
      lastName: 'El',
      teamName: 'Camel Case',
    })
    expect(registration.statusCode).toBe(400)
    expect(firstError(registration)).toMatchObject({ code: 'VALIDATION', param: 'teamName' })
    const created = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'camel-case@example.com')
      .executeTakeFirst()
    expect(created).toBeUndefined()
  })

  it("refuses another sport's squad and an unknown one, naming team_supported", async () => {
    const women = await t.db
      .selectFrom('squads')
      .select('id')
      .where('sport', '=', 'wbbl')
      .executeTakeFirstOrThrow()
    const { cookie } = await registerUser(t.app)
    for (const id of [women.id, 999_999]) {
      const res = await post('/api/bbl/user', { team_supported: id }, cookie)
      expect(res.statusCode).toBe(400)
      expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param: 'team_supported' })
    }
  })

  it.each([
    [{ team_name: 'x'.repeat(41) }, 'team_name'],
    [{ team_supported: -1 }, 'team_supported'],
    [{ team_supported: 'one' }, 'team_supported'],
    [{ isWeeklyReminderEnabled: 'yes' }, 'isWeeklyReminderEnabled'],
    [{ first_name: '   ' }, 'first_name'],
  ])('refuses %j naming %s', async (payload, param) => {
    const { cookie } = await registerUser(t.app)
    const res = await post('/api/bbl/user', payload, cookie)
    expect(res.statusCode).toBe(400)
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param })
  })

  it('needs a session (401) and a registration for the sport (513)', async () => {
    expect((await post('/api/bbl/user', { team_name: 'X' })).statusCode).toBe(401)
    const { cookie } = await registerUser(t.app, { sport: 'bbl' })
    const res = await post('/api/wbbl/user', { team_name: 'X' }, cookie)
    expect(res.statusCode).toBe(513)
  })
})

describe('password change', () => {
  it('needs the current password, then signs out every other session but this one', async () => {
    const { email, cookie } = await registerUser(t.app)
    const other = sessionCookie(await login(email, PASSWORD))
    expect((await me(other)).statusCode).toBe(200)
    const wrong = await post(
      '/api/user/password',
      {
        currentPassword: 'not it at all',
        password: 'next password',
        confirmation: 'next password',
      },
      cookie,
    )
    expect(wrong.statusCode).toBe(400)
    expect(firstError(wrong)).toMatchObject({ code: 'VALIDATION', param: 'currentPassword' })

    const ok = await post(
      '/api/user/password',
      { currentPassword: PASSWORD, password: 'next password', confirmation: 'next password' },
      cookie,
    )
    expect(ok.statusCode).toBe(200)
    expect((await me(cookie)).statusCode).toBe(200)
    expect((await me(other)).statusCode).toBe(401)
    expect((await login(email, PASSWORD)).statusCode).toBe(401)
    expect((await login(email, 'next password')).statusCode).toBe(200)
  })

  it.each([
    [{ currentPassword: PASSWORD, password: 'short', confirmation: 'short' }, 'password'],
    [
      { currentPassword: PASSWORD, password: 'next password', confirmation: 'other' },
      'confirmation',
    ],
    [{ currentPassword: PASSWORD, password: PASSWORD, confirmation: PASSWORD }, 'password'],
    [{ password: 'next password', confirmation: 'next password' }, 'currentPassword'],
  ])('refuses %j naming %s', async (payload, param) => {
    const { cookie } = await registerUser(t.app)
    const res = await post('/api/user/password', payload, cookie)
    expect(res.statusCode).toBe(400)
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION', param })
  })

  it('needs a session', async () => {
    const res = await post('/api/user/password', {
      currentPassword: PASSWORD,
      password: 'next password',
      confirmation: 'next password',
    })
    expect(res.statusCode).toBe(401)
  })
})

describe('deactivation', () => {
  it('ends every session, clears the cookie, and sign-in answers as for a wrong password', async () => {
    const { email, cookie, id } = await registerUser(t.app)
    const other = sessionCookie(await login(email, PASSWORD))
    const res = await post('/api/user/deactivate', undefined, cookie)
    expect(res.statusCode).toBe(200)
    const cleared = res.cookies.find((c) => c.name === 'tip_session')
    expect(cleared?.value).toBe('')
    expect((await me(cookie)).statusCode).toBe(401)
    expect((await me(other)).statusCode).toBe(401)

    const right = await login(email, PASSWORD)
    const wrong = await login(email, 'wrong password')
    expect(right.statusCode).toBe(401)
    expect(right.json()).toEqual(wrong.json())
    expect(right.json().errors[0]).toMatchObject({ code: 'INVALID_CREDENTIALS' })

    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'action', 'entity', 'entity_id'])
      .where('action', '=', 'user.deactivate')
      .where('entity_id', '=', String(id))
      .execute()
    expect(audit).toEqual([
      { actor_user_id: id, action: 'user.deactivate', entity: 'user', entity_id: String(id) },
    ])
  })

  it('needs a session', async () => {
    expect((await post('/api/user/deactivate')).statusCode).toBe(401)
  })
})
