import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export const findUserByExternalId = (db: Database, externalId: string) =>
  db.selectFrom('users').selectAll().where('external_id', '=', externalId).executeTakeFirst()

export interface NewSsoUser {
  email: string
  externalId: string
  firstName: string
  lastName: string
  teamSupported: number
  roles: string[]
  registeredAt: Date
}

/** No password: this account signs in through the provider. Undefined when the email is taken. */
export const insertSsoUser = (db: Database, u: NewSsoUser) =>
  db
    .insertInto('users')
    .values({
      email: u.email,
      password_hash: null,
      external_id: u.externalId,
      first_name: u.firstName,
      last_name: u.lastName,
      team_supported: u.teamSupported,
      roles: u.roles,
      registered_at: u.registeredAt,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll()
    .executeTakeFirst()

/**
 * Links the provider's subject to the account and fills what the account lacks (names, team
 * supported), never overwriting what the user set in the product. Undefined if the row was
 * linked to another subject meanwhile.
 */
export const linkSsoUser = (
  db: Database,
  id: number,
  p: { externalId: string; firstName: string; lastName: string; teamSupported: number; at: Date },
) =>
  db
    .updateTable('users')
    .set({
      external_id: p.externalId,
      first_name: sql<string>`CASE WHEN first_name = '' THEN ${p.firstName} ELSE first_name END`,
      last_name: sql<string>`CASE WHEN last_name = '' THEN ${p.lastName} ELSE last_name END`,
      team_supported: sql<number>`CASE WHEN team_supported = 0 THEN ${p.teamSupported}::int ELSE team_supported END`,
      updated_at: p.at,
    })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('external_id', 'is', null), eb('external_id', '=', p.externalId)]))
    .returningAll()
    .executeTakeFirst()

/** A squad of the sport named by id or by code (`HEA`), or undefined. */
export const findSquad = (db: Database, sport: string, key: { id?: number; code?: string }) =>
  db
    .selectFrom('squads')
    .select('id')
    .where('sport', '=', sport)
    .$if(key.id !== undefined, (qb) => qb.where('id', '=', key.id!))
    .$if(key.code !== undefined, (qb) =>
      qb.where(sql<string>`upper(code)`, '=', key.code!.toUpperCase()),
    )
    .executeTakeFirst()
