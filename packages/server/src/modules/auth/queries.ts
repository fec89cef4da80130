import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export const findUserByEmail = (db: Database, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst()

export const findUserById = (db: Database, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()

export interface NewUser {
  email: string
  passwordHash: string | null
  firstName: string
  lastName: string
  teamName: string | null
  roles: string[]
  registeredAt: Date
}

/** Returns undefined when the email is already taken (the unique index decides, not a pre-check). */
export const insertUser = (db: Database, u: NewUser) =>
  db
    .insertInto('users')
    .values({
      email: u.email,
      password_hash: u.passwordHash,
      first_name: u.firstName,
      last_name: u.lastName,
      team_name: u.teamName,
      roles: u.roles,
      registered_at: u.registeredAt,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll()
    .executeTakeFirst()

/** Registers a user for competitions; returns those they were not registered for already. */
export const registerForCompetitions = async (
  db: Database,
  userId: number,
  competitionIds: number[],
  at: Date,
): Promise<number[]> => {
  if (competitionIds.length === 0) return []
  const added = await db
    .insertInto('competition_registrations')
    .values(
      competitionIds.map((id) => ({ competition_id: id, user_id: userId, registered_at: at })),
    )
    .onConflict((oc) => oc.doNothing())
    .returning('competition_id')
    .execute()
  return added.map((r) => r.competition_id)
}

export const insertSession = (
  db: Database,
  s: { idHash: Buffer; userId: number; now: Date; expiresAt: Date },
) =>
  db
    .insertInto('sessions')
    .values({
      id_hash: s.idHash,
      user_id: s.userId,
      created_at: s.now,
      last_seen_at: s.now,
      expires_at: s.expiresAt,
    })
    .execute()

/** `column IN (hashes)`, the bytea values sent as hex text: both drivers pass a text[] alike. */
const hashIn = (column: string, hashes: Buffer[]) =>
  sql<boolean>`${sql.ref(column)} IN (SELECT decode(h, 'hex') FROM unnest(${hashes.map((h) =>
    h.toString('hex'),
  )}::text[]) AS h)`

/** Live sessions (not revoked or expired, user active) for many cookies at once, with their user. */
export const findLiveSessions = (db: Database, idHashes: Buffer[], now: Date) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id_hash', 's.last_seen_at', 's.expires_at'])
    .selectAll('u')
    .where(hashIn('s.id_hash', idHashes))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.deactivated_at', 'is', null)
    .execute()

export type LiveSession = Awaited<ReturnType<typeof findLiveSessions>>[number]

export const touchSessions = (db: Database, idHashes: Buffer[], now: Date) =>
  db.updateTable('sessions').set({ last_seen_at: now }).where(hashIn('id_hash', idHashes)).execute()

export const revokeSession = (db: Database, idHash: Buffer, now: Date) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id_hash', '=', idHash)
    .where('revoked_at', 'is', null)
    .execute()

/** Revokes every live session of a user (password reset, password change, deactivation). */
export const revokeUserSessions = (
  db: Database,
  userId: number,
  now: Date,
  keep: Buffer | null = null,
) => {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
  if (keep) query = query.where('id_hash', '!=', keep)
  return query.execute()
}

/**
 * Sets the password; with `checked`, only if the stored hash is still that one (the hash the
 * caller verified the current password against). False if it was not set.
 */
export const setPasswordHash = async (
  db: Database,
  userId: number,
  passwordHash: string,
  now: Date,
  checked?: string,
) => {
  let update = db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
  if (checked !== undefined) update = update.where('password_hash', '=', checked)
  return (await update.executeTakeFirst()).numUpdatedRows === 1n
}

/** A new request makes older links useless: only the newest token of a user works. */
export const deleteResetTokens = (db: Database, userId: number) =>
  db.deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute()

/** Whether the user has an unused, unexpired reset link. */
export const hasLiveResetToken = async (db: Database, userId: number, now: Date) =>
  (await db
    .selectFrom('password_reset_tokens')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()) !== undefined

export const insertResetToken = (
  db: Database,
  t: { tokenHash: Buffer; userId: number; expiresAt: Date },
) =>
  db
    .insertInto('password_reset_tokens')
    .values({ token_hash: t.tokenHash, user_id: t.userId, expires_at: t.expiresAt })
    .execute()

/** The token row and whether its user can still use it (locked, so two resets cannot both win). */
export const findResetTokenForUpdate = (db: Database, tokenHash: Buffer) =>
  db
    .selectFrom('password_reset_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.user_id', 't.expires_at', 't.used_at', 'u.deactivated_at'])
    .where('t.token_hash', '=', tokenHash)
    .forUpdate('t')
    .executeTakeFirst()

export const markResetTokenUsed = (db: Database, tokenHash: Buffer, now: Date) =>
  db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .execute()

export interface ProfileChange {
  first_name?: string
  last_name?: string
  team_name?: string | null
  team_supported?: number
  disabled_notifications?: boolean
  /** 'on': keep the lead the user has, or 'round' if they had turned reminders off. */
  reminder_lead?: 'round' | 'match' | 'off' | 'on'
}

export const updateProfile = (
  db: Database,
  userId: number,
  { reminder_lead: lead, ...change }: ProfileChange,
  now: Date,
) =>
  db
    .updateTable('users')
    .set({
      ...change,
      ...(lead === undefined
        ? {}
        : lead === 'on'
          ? {
              reminder_lead: sql<
                'round' | 'match'
              >`CASE WHEN reminder_lead = 'off' THEN 'round' ELSE reminder_lead END`,
              is_weekly_reminder_enabled: true,
            }
          : { reminder_lead: lead, is_weekly_reminder_enabled: lead !== 'off' }),
      updated_at: now,
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow()

export const squadOfSport = (db: Database, squadId: number, sport: string) =>
  db
    .selectFrom('squads')
    .select('id')
    .where('id', '=', squadId)
    .where('sport', '=', sport)
    .executeTakeFirst()

export const deactivateUser = (db: Database, userId: number, now: Date) =>
  db
    .updateTable('users')
    .set({ deactivated_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('deactivated_at', 'is', null)
    .execute()

/** Adds a role (idempotent) and returns the updated row. */
export const grantRole = (db: Database, userId: number, role: string, now: Date) =>
  db
    .updateTable('users')
    .set({
      roles: sql<
        string[]
      >`CASE WHEN ${role}::text = ANY(roles) THEN roles ELSE array_append(roles, ${role}::text) END`,
      updated_at: now,
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow()

export const markRecovered = (db: Database, userId: number, now: Date) =>
  db
    .updateTable('users')
    .set({ recovered: true, updated_at: now })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow()

/** Whether the user tipped in an earlier season of the sport (what recovery brings back). */
export const hasEarlierSeason = async (db: Database, userId: number, sport: string) =>
  (await db
    .selectFrom('competition_registrations as r')
    .innerJoin('competitions as c', 'c.id', 'r.competition_id')
    .select('c.id')
    .where('r.user_id', '=', userId)
    .where('c.sport', '=', sport)
    .where('c.is_current', '=', false)
    .executeTakeFirst()) !== undefined
