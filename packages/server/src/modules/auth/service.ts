import { createHash, randomBytes } from 'node:crypto'
import { roleForSport, SPORTS, type Role, type Sport } from '@tipping/contract/constants'
import type {
  LoginBody,
  PasswordChangeBody,
  PasswordResetBody,
  RegisterBody,
  UserSession,
  UserUpdateBody,
} from '@tipping/contract/auth'
import type { Clock } from '../../clock.ts'
import type { Database, UserRow } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { recordAudit } from '../audit/service.ts'
import { queueEmails } from '../mail/service.ts'
import { passwordResetEmail } from '../mail/templates.ts'
import type { MailList } from '../mail/unsubscribe.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import { unboundedHashGate, type HashGate } from './hash-gate.ts'
import { AttemptThrottle } from './throttle.ts'
import { Batcher } from '../../batch.ts'
import * as q from './queries.ts'
import { holdScoring, inPlacementTurn, placeTipper } from '../scoring/service.ts'
import { currentCompetitionsIn } from '../competitions/service.ts'
import { SessionCache } from './session-cache.ts'
import { inTransaction } from '../../db/transaction.ts'

const DAY_MS = 86_400_000
/**
 * last_seen_at is written at most this often, so reads do not turn into writes. Only the idle
 * limit reads it, and that is counted in days: once an hour (a tenth of the limit where an
 * operator sets it under ten hours) is as good as once a minute for it, and sixty times fewer
 * writes. Once a minute, every active tipper's session was an UPDATE a minute (a match night's
 * 100,000 players: 1,700 a second), and a process's first minute after a start was one UPDATE per
 * signed-in request (bench/README.md, 2026-12-07).
 */
const TOUCH_EVERY_MS = 3_600_000

export interface SessionPolicy {
  idleDays: number
  maxDays: number
}

/** Password reset settings: where links point, how long they work, the answer's floor time. */
export interface AccountOptions {
  appOrigin: string
  resetTokenMinutes: number
  /**
   * A reset request answers no sooner than this, whether or not the account exists, so the
   * answer's timing does not tell an unknown email from a known one.
   */
  resetRequestMinMs: number
  /** Bounds the password hashing of this process (hash-gate.ts); unset, no bound. */
  hashGate?: HashGate
  /**
   * Reset emails one account is sent an hour, from however many addresses (unset: no cap). Past
   * it a request sends nothing new and the newest link already sent keeps working, so a flood can
   * neither fill the inbox nor void the owner's link; an account with no live link always gets one.
   */
  resetEmailsPerHour?: number
}

const DEFAULT_ACCOUNT_OPTIONS: AccountOptions = {
  appOrigin: 'http://localhost:3000',
  resetTokenMinutes: 60,
  resetRequestMinMs: 250,
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest()

export interface SessionUser {
  row: UserRow
  sessionHash: Buffer
}

export const hashSessionId = (id: string): Buffer => createHash('sha256').update(id).digest()

/** Maps a user row to the specification's user session; no row field leaves otherwise. */
export function toUserSession(u: UserRow): UserSession {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    team_name: u.team_name,
    team_supported: u.team_supported,
    tipping_id: u.tipping_id,
    disabledNotifications: u.disabled_notifications,
    isWeeklyReminderEnabled: u.reminder_lead !== 'off',
    reminderLead: u.reminder_lead,
    roles: u.roles.filter(
      (r): r is Role => r === 'ROLE_USER_BBL' || r === 'ROLE_USER_WBBL' || r === 'ROLE_ADMIN',
    ),
    recovered: u.recovered,
    registeredAt: { date: u.registered_at.toISOString() },
  }
}

export class AuthService {
  // A hash to verify against when the email is unknown, so both paths take the same time.
  private dummyHash: Promise<string> | null = null
  // Reset emails sent per account this hour (in memory, like the other limits: a restart forgives).
  private readonly resetEmails: AttemptThrottle | null
  // Cookies of requests arriving together are looked up, and touched, in one query each.
  private readonly lookups = new Batcher<string, q.LiveSession>(async (keys) => {
    const rows = await q.findLiveSessions(
      this.db,
      keys.map((k) => Buffer.from(k, 'base64')),
      this.clock.now(),
    )
    return new Map(rows.map((r) => [Buffer.from(r.id_hash).toString('base64'), r]))
  })
  private readonly touches = new Batcher<string, true>(async (keys) => {
    await q.touchSessions(
      this.db,
      keys.map((k) => Buffer.from(k, 'base64')),
      this.clock.now(),
    )
    return new Map(keys.map((k) => [k, true as const]))
  })

  private readonly touchEveryMs: number

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy,
    private readonly account: AccountOptions = DEFAULT_ACCOUNT_OPTIONS,
    /** Shared with every module that changes users or sessions (they call forgetUser). */
    readonly sessions: SessionCache = new SessionCache(0),
  ) {
    this.touchEveryMs = Math.min(TOUCH_EVERY_MS, (policy.idleDays * DAY_MS) / 10)
    this.resetEmails = account.resetEmailsPerHour
      ? new AttemptThrottle(account.resetEmailsPerHour, 3_600_000)
      : null
  }

  async register(body: RegisterBody): Promise<{ user: UserSession; sessionId: string }> {
    const sports: readonly Sport[] = body.sport ? [body.sport] : SPORTS
    const passwordHash = await this.hash(body.password)
    const now = this.clock.now()
    const row = await inPlacementTurn(this.db, async (trx) => {
      const inserted = await q.insertUser(trx, {
        email: body.email,
        passwordHash,
        firstName: body.firstName,
        lastName: body.lastName,
        teamName: body.team_name ?? null,
        roles: sports.map(roleForSport),
        registeredAt: now,
      })
      if (!inserted) {
        throw new AppError('EMAIL_TAKEN', 'An account with this email already exists', 'email')
      }
      await enterCurrentCompetitions(trx, inserted.id, sports, now)
      return inserted
    })
    const sessionId = await this.startSession(row.id)
    return { user: toUserSession(row), sessionId }
  }

  async login(body: LoginBody): Promise<{ user: UserSession; sessionId: string }> {
    // Admitted by the gate before the account is even looked up: a refused sign-in costs nothing.
    const { row, ok } = await this.hashGate.run(async () => {
      const found = await q.findUserByEmail(this.db, body.email)
      const stored = found?.password_hash ?? (await this.getDummyHash())
      return { row: found, ok: await verifyPassword(stored, body.password) }
    })
    if (!row || !row.password_hash || !ok || row.deactivated_at) {
      throw new AppError('INVALID_CREDENTIALS', 'Email or password is incorrect', 'password')
    }
    const sessionId = await this.startSession(row.id)
    return { user: toUserSession(row), sessionId }
  }

  /** A fresh random id each sign-in (rotation); the old cookie, if any, is revoked by the route. */
  async startSession(userId: number): Promise<string> {
    const id = randomBytes(32).toString('base64url')
    const now = this.clock.now()
    await q.insertSession(this.db, {
      idHash: hashSessionId(id),
      userId,
      now,
      expiresAt: new Date(now.getTime() + this.policy.maxDays * DAY_MS),
    })
    return id
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (!sessionId) return
    const idHash = hashSessionId(sessionId)
    await q.revokeSession(this.db, idHash, this.clock.now())
    this.sessions.forgetSession(idHash)
  }

  /** The signed-in user for a cookie value, or null when absent, expired, idle or revoked. */
  async resolve(sessionId: string | undefined): Promise<SessionUser | null> {
    if (!sessionId || sessionId.length > 100) return null
    const idHash = hashSessionId(sessionId)
    const now = this.clock.now()
    const cached = this.sessions.get(idHash, Date.now())
    if (cached) {
      // The clock may have moved on since it was cached: judge expiry and idleness again.
      if (cached.expiresAtMs > now.getTime() && this.idleOk(cached.lastSeenAtMs, now))
        return { row: cached.row, sessionHash: idHash }
      this.sessions.forgetSession(idHash)
    }
    const key = idHash.toString('base64')
    const generation = this.sessions.generation
    const found = await this.lookups.get(key)
    if (!found) return null
    if (!this.idleOk(found.last_seen_at.getTime(), now)) return null
    let lastSeenAt = found.last_seen_at
    if (now.getTime() - lastSeenAt.getTime() > this.touchEveryMs) {
      // Only the idle limit (days) reads it, so the request does not wait for the write: the
      // first request of each visit would otherwise make two round trips before its own read.
      // A touch that fails is made again at the next lookup, the stored time being still old.
      this.touches.get(key).catch(() => {})
      lastSeenAt = now
    }
    const { last_seen_at: _seen, expires_at: expiresAt, id_hash: _hash, ...row } = found
    this.sessions.set(
      idHash,
      { row, lastSeenAtMs: lastSeenAt.getTime(), expiresAtMs: expiresAt.getTime() },
      Date.now(),
      generation,
    )
    return { row, sessionHash: idHash }
  }

  private idleOk(lastSeenAtMs: number, now: Date): boolean {
    return now.getTime() - lastSeenAtMs <= this.policy.idleDays * DAY_MS
  }

  /** After anything that changes a user row or ends sessions, outside this service too. */
  forgetUser(userId: number): void {
    this.sessions.forgetUser(userId)
  }

  /**
   * `POST {sport}/auth/register_for_game`: a signed-in user joins the sport's game (its role and
   * its current competition). Idempotent.
   */
  async registerForGame(userId: number, sport: Sport): Promise<UserSession> {
    const now = this.clock.now()
    const row = await inPlacementTurn(this.db, async (trx) => {
      const updated = await q.grantRole(trx, userId, roleForSport(sport), now)
      await enterCurrentCompetitions(trx, userId, [sport], now)
      return updated
    })
    this.sessions.forgetUser(userId)
    return toUserSession(row)
  }

  /**
   * `POST {sport}/{sport}/user/recover` (docs/decisions/008-in-product-accounts.md): a tipper of an earlier
   * season brings the account back into this season's game: the role, the current competition,
   * and the `recovered` flag, which sends them to their leagues after sign-in (spec 2).
   */
  async recover(userId: number, sport: Sport): Promise<UserSession> {
    const now = this.clock.now()
    const row = await inPlacementTurn(this.db, async (trx) => {
      if (!(await q.hasEarlierSeason(trx, userId, sport))) {
        throw new AppError(
          'NOT_FOUND',
          `There is no earlier ${sport.toUpperCase()} tipping season to recover for this account`,
        )
      }
      await q.grantRole(trx, userId, roleForSport(sport), now)
      await enterCurrentCompetitions(trx, userId, [sport], now)
      return q.markRecovered(trx, userId, now)
    })
    this.sessions.forgetUser(userId)
    return toUserSession(row)
  }

  /**
   * `POST auth/password_reset/request`: for an active account, a single-use token (only its hash
   * is stored; any older one is dropped) and an email with the link. The caller learns nothing:
   * the same answer, no sooner than the floor time, whatever the email.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const started = Date.now()
    const token = randomBytes(32).toString('base64url')
    const tokenHash = hashToken(token)
    const row = await q.findUserByEmail(this.db, email)
    if (row && !row.deactivated_at) {
      const now = this.clock.now()
      await inTransaction(this.db, async (trx) => {
        // Past the hour's emails, an account whose newest link still works is sent nothing new
        // and keeps that link; one with no live link always gets one (a flood cannot leave the
        // owner without a way back).
        if (
          this.resetEmails &&
          !this.resetEmails.allow(String(row.id), now.getTime()) &&
          (await q.hasLiveResetToken(trx, row.id, now))
        )
          return
        await q.deleteResetTokens(trx, row.id)
        await q.insertResetToken(trx, {
          tokenHash,
          userId: row.id,
          expiresAt: new Date(now.getTime() + this.account.resetTokenMinutes * 60_000),
        })
        await queueEmails(
          trx,
          [
            {
              to: row.email,
              ...passwordResetEmail({
                appOrigin: this.account.appOrigin,
                token,
                firstName: row.first_name,
                validMinutes: this.account.resetTokenMinutes,
              }),
            },
          ],
          now,
        )
      })
    }
    const left = this.account.resetRequestMinMs - (Date.now() - started)
    if (left > 0) await sleep(left)
  }

  /**
   * `POST auth/password_reset`: sets the password, uses the token up and signs the user out
   * everywhere. A used, expired or unknown token is refused naming the `token` field.
   */
  async resetPassword(body: PasswordResetBody): Promise<void> {
    const tokenHash = hashToken(body.token)
    const passwordHash = await this.hash(body.password)
    const now = this.clock.now()
    const userId = await inTransaction(this.db, async (trx) => {
      const found = await q.findResetTokenForUpdate(trx, tokenHash)
      if (!found || found.deactivated_at) {
        throw new AppError(
          'VALIDATION',
          'This reset link is not valid. Request a new one from Forgot password.',
          'token',
        )
      }
      if (found.used_at) {
        throw new AppError(
          'VALIDATION',
          'This reset link has already been used. Request a new one from Forgot password.',
          'token',
        )
      }
      if (found.expires_at.getTime() <= now.getTime()) {
        throw new AppError(
          'VALIDATION',
          'This reset link has expired. Request a new one from Forgot password.',
          'token',
        )
      }
      await q.setPasswordHash(trx, found.user_id, passwordHash, now)
      await q.markResetTokenUsed(trx, tokenHash, now)
      await q.revokeUserSessions(trx, found.user_id, now)
      await recordAudit(trx, {
        actorUserId: found.user_id,
        action: 'user.password_reset',
        entity: 'user',
        entityId: found.user_id,
      })
      return found.user_id
    })
    this.sessions.forgetUser(userId)
  }

  /**
   * A signed-in user changes the password, proving the current one; every other session of the
   * user is signed out (this one stays).
   */
  async changePassword(user: SessionUser, body: PasswordChangeBody): Promise<void> {
    const current = user.row.password_hash
    if (!current || !(await this.verify(current, body.currentPassword))) {
      // 400, not 401: a wrong current password is not an expired session.
      throw new AppError(
        'VALIDATION',
        current
          ? 'Your current password is not correct'
          : 'This account signs in with Big Bash Account; use Forgot password to set one',
        'currentPassword',
      )
    }
    const passwordHash = await this.hash(body.password)
    const now = this.clock.now()
    await inTransaction(this.db, async (trx) => {
      // Only over the hash just checked: of changes sent at once with the same current password,
      // the first to commit wins and the others are told their current password is no longer it
      // (each had checked it before the first committed, and all answered 200).
      if (!(await q.setPasswordHash(trx, user.row.id, passwordHash, now, current)))
        throw new AppError('VALIDATION', 'Your current password is not correct', 'currentPassword')
      await q.revokeUserSessions(trx, user.row.id, now, user.sessionHash)
      await q.deleteResetTokens(trx, user.row.id)
      await recordAudit(trx, {
        actorUserId: user.row.id,
        action: 'user.password_change',
        entity: 'user',
        entityId: user.row.id,
      })
    })
    this.sessions.forgetUser(user.row.id)
  }

  /** `POST {sport}/user`: the fields sent change; team_supported must be a squad of the sport. */
  async updateProfile(userId: number, sport: Sport, body: UserUpdateBody): Promise<UserSession> {
    const change: q.ProfileChange = {}
    if (body.first_name !== undefined) change.first_name = body.first_name
    if (body.last_name !== undefined) change.last_name = body.last_name
    if (body.team_name !== undefined) change.team_name = body.team_name
    if (body.team_supported !== undefined) change.team_supported = body.team_supported
    if (body.disabledNotifications !== undefined)
      change.disabled_notifications = body.disabledNotifications
    // reminderLead (decision 026) wins; an old client's switch turns reminders off, or on again
    // at the round's lead unless a lead is already set (q.updateProfile keeps the two in step).
    if (body.reminderLead !== undefined) change.reminder_lead = body.reminderLead
    else if (body.isWeeklyReminderEnabled !== undefined)
      change.reminder_lead = body.isWeeklyReminderEnabled ? 'on' : 'off'
    const now = this.clock.now()
    const row = await inTransaction(this.db, async (trx) => {
      if (change.team_supported && !(await q.squadOfSport(trx, change.team_supported, sport))) {
        throw new AppError(
          'VALIDATION',
          `Choose one of the ${sport.toUpperCase()} teams`,
          'team_supported',
        )
      }
      return q.updateProfile(trx, userId, change, now)
    })
    this.sessions.forgetUser(userId)
    return toUserSession(row)
  }

  /**
   * One-click unsubscribe from a list email's link (decision 043): the same switch as the
   * account's email settings (reminders off, or league emails off), audited as the user's own
   * change. The link proves the account; no session is needed. False: no such account.
   */
  async unsubscribe(userId: number, list: MailList): Promise<boolean> {
    const change: q.ProfileChange =
      list === 'reminders' ? { reminder_lead: 'off' } : { disabled_notifications: true }
    const now = this.clock.now()
    const done = await inTransaction(this.db, async (trx) => {
      if (!(await q.findUserById(trx, userId))) return false
      await q.updateProfile(trx, userId, change, now)
      await recordAudit(trx, {
        actorUserId: userId,
        action: 'user.unsubscribe',
        entity: 'user',
        entityId: userId,
        data: { list },
      })
      return true
    })
    if (done) this.sessions.forgetUser(userId)
    return done
  }

  /** `POST user/deactivate`: the account can no longer sign in; every session ends now. */
  async deactivate(userId: number): Promise<void> {
    const now = this.clock.now()
    await inTransaction(this.db, async (trx) => {
      await q.deactivateUser(trx, userId, now)
      await q.revokeUserSessions(trx, userId, now)
      await q.deleteResetTokens(trx, userId)
      // Who deactivated which account and when, for support (the user, on their own account).
      await recordAudit(trx, {
        actorUserId: userId,
        action: 'user.deactivate',
        entity: 'user',
        entityId: userId,
      })
    })
    this.sessions.forgetUser(userId)
  }

  /** Every hash and check of a request goes through the gate: bounded, or refused at once. */
  private get hashGate(): HashGate {
    return this.account.hashGate ?? unboundedHashGate
  }

  private hash(password: string): Promise<string> {
    return this.hashGate.run(() => hashPassword(password))
  }

  private verify(stored: string, password: string): Promise<boolean> {
    return this.hashGate.run(() => verifyPassword(stored, password))
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
    return this.dummyHash
  }
}

export const sessionMaxAgeSeconds = (policy: SessionPolicy): number =>
  Math.floor((policy.maxDays * DAY_MS) / 1000)

/**
 * Registers a user for the current competitions of `sports` (those they are not in already) and
 * ranks them at once (GAME_RULES "Who is ranked"), in the caller's transaction: every path that
 * registers a tipper (sign-up, register_for_game, recovery, single sign-on, admin) comes here.
 * The scoring lock is taken before the registration is written, so registration order (which
 * lists tied tippers) is the order they were placed in.
 */
export async function enterCurrentCompetitions(
  trx: Database,
  userId: number,
  sports: readonly Sport[],
  at: Date,
): Promise<void> {
  const ids = (await currentCompetitionsIn(trx, sports)).map((c) => c.id)
  if (ids.length === 0) return
  await holdScoring(trx, ids)
  for (const id of await q.registerForCompetitions(trx, userId, ids, at))
    await placeTipper(trx, id, userId)
}

/**
 * An account row for another module's use case (the admin command's new admin), inside its
 * transaction; registration itself goes through AuthService. Null when the email is taken.
 */
export const insertAccount = (db: Database, user: q.NewUser) => q.insertUser(db, user)

/** The account with this email (lower-cased by the caller), for single sign-on's linking. */
export const accountByEmail = (db: Database, email: string) => q.findUserByEmail(db, email)
