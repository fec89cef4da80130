import { createHash, randomBytes } from 'node:crypto'
import { roleForSport, SPORTS, type Role, type Sport } from '@tipping/contract/constants'
import type { LoginBody, RegisterBody, UserSession } from '@tipping/contract/auth'
import type { Clock } from '../../clock.ts'
import type { Database, UserRow } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import * as q from './queries.ts'

const DAY_MS = 86_400_000
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000

export interface SessionPolicy {
  idleDays: number
  maxDays: number
}

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
    isWeeklyReminderEnabled: u.is_weekly_reminder_enabled,
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

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy,
  ) {}

  async register(body: RegisterBody): Promise<{ user: UserSession; sessionId: string }> {
    const sports: readonly Sport[] = body.sport ? [body.sport] : SPORTS
    const passwordHash = await hashPassword(body.password)
    const now = this.clock.now()
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await q.insertUser(trx, {
        email: body.email,
        passwordHash,
        firstName: body.firstName,
        lastName: body.lastName,
        teamName: body.teamName ?? null,
        roles: sports.map(roleForSport),
        registeredAt: now,
      })
      if (!inserted) {
        throw new AppError('EMAIL_TAKEN', 'An account with this email already exists', 'email')
      }
      const competitions = await q.currentCompetitions(trx, sports)
      await q.registerForCompetitions(
        trx,
        inserted.id,
        competitions.map((c) => c.id),
        now,
      )
      return inserted
    })
    const sessionId = await this.startSession(row.id)
    return { user: toUserSession(row), sessionId }
  }

  async login(body: LoginBody): Promise<{ user: UserSession; sessionId: string }> {
    const row = await q.findUserByEmail(this.db, body.email)
    const stored = row?.password_hash ?? (await this.getDummyHash())
    const ok = await verifyPassword(stored, body.password)
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
    await q.revokeSession(this.db, hashSessionId(sessionId), this.clock.now())
  }

  /** The signed-in user for a cookie value, or null when absent, expired, idle or revoked. */
  async resolve(sessionId: string | undefined): Promise<SessionUser | null> {
    if (!sessionId || sessionId.length > 100) return null
    const idHash = hashSessionId(sessionId)
    const now = this.clock.now()
    const found = await q.findLiveSession(this.db, idHash, now)
    if (!found) return null
    const idleFor = now.getTime() - found.last_seen_at.getTime()
    if (idleFor > this.policy.idleDays * DAY_MS) return null
    if (idleFor > TOUCH_EVERY_MS) await q.touchSession(this.db, idHash, now)
    const { last_seen_at: _seen, expires_at: _expires, ...row } = found
    return { row, sessionHash: idHash }
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
    return this.dummyHash
  }
}

export const sessionMaxAgeSeconds = (policy: SessionPolicy): number =>
  Math.floor((policy.maxDays * DAY_MS) / 1000)
