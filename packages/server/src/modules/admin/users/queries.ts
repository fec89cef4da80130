import { sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { like } from '../paging.ts'

/** What the console shows of an account, read alike for the list and for a change. */
const ADMIN_USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'team_name',
  'roles',
  'registered_at',
  'deactivated_at',
  'external_id',
] as const

export const users = (db: Database, search: string | undefined, offset: number, limit: number) => {
  let query = db
    .selectFrom('users')
    .select(ADMIN_USER_COLUMNS)
    .orderBy('id')
    .offset(offset)
    .limit(limit)
  if (search) {
    const pattern = like(search)
    query = query.where((eb) =>
      eb.or([
        eb('email', 'ilike', pattern),
        eb(sql<string>`first_name || ' ' || last_name`, 'ilike', pattern),
        eb('team_name', 'ilike', pattern),
      ]),
    )
  }
  return query.execute()
}
export type AdminUserRow = Awaited<ReturnType<typeof users>>[number]

export const lockUser = (db: Database, id: number) =>
  db
    .selectFrom('users')
    .select(ADMIN_USER_COLUMNS)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst()

export const setRoles = (db: Database, id: number, roles: string[]) =>
  db
    .updateTable('users')
    .set({ roles, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()

export const setDeactivated = (db: Database, id: number, at: Date | null) =>
  db
    .updateTable('users')
    .set({ deactivated_at: at, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()

export const revokeSessions = async (db: Database, userId: number, at: Date) =>
  (
    await db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
  ).numUpdatedRows

export const userByEmail = (db: Database, email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'roles'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst()
