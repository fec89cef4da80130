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

export const currentCompetitions = (db: Database, sports: readonly string[]) =>
  db
    .selectFrom('competitions')
    .select(['id', 'sport'])
    .where('is_current', '=', true)
    .where('sport', 'in', sports)
    .execute()

export const registerForCompetitions = async (
  db: Database,
  userId: number,
  competitionIds: number[],
  at: Date,
) => {
  if (competitionIds.length === 0) return
  await db
    .insertInto('competition_registrations')
    .values(
      competitionIds.map((id) => ({ competition_id: id, user_id: userId, registered_at: at })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute()
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

export const findLiveSession = (db: Database, idHash: Buffer, now: Date) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.last_seen_at', 's.expires_at'])
    .selectAll('u')
    .where('s.id_hash', '=', idHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.deactivated_at', 'is', null)
    .executeTakeFirst()

export const touchSession = (db: Database, idHash: Buffer, now: Date) =>
  db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute()

export const revokeSession = (db: Database, idHash: Buffer, now: Date) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id_hash', '=', idHash)
    .where('revoked_at', 'is', null)
    .execute()
