import { sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'
import { like } from '../paging.ts'

export const leagues = (
  db: Database,
  f: { search?: string | undefined; sport?: string | undefined },
  offset: number,
  limit: number,
) => {
  let query = db
    .selectFrom('leagues as l')
    .innerJoin('competitions as c', 'c.id', 'l.competition_id')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select([
      'l.id',
      'c.sport',
      'c.name as competition',
      'l.name',
      'l.code',
      'l.privacy',
      'l.start_round',
      'l.num_users',
      'l.created_at',
      'u.id as owner_id',
      'u.email as owner_email',
      sql<string>`u.first_name || ' ' || u.last_name`.as('owner_name'),
    ])
    .orderBy('l.id')
    .offset(offset)
    .limit(limit)
  if (f.sport) query = query.where('c.sport', '=', f.sport)
  if (f.search) {
    const pattern = like(f.search)
    query = query.where((eb) =>
      eb.or([
        eb('l.name', 'ilike', pattern),
        eb('l.code', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
      ]),
    )
  }
  return query.execute()
}

export const lockLeague = (db: Database, id: number) =>
  db
    .selectFrom('leagues')
    .select(['id', 'name', 'code', 'user_id', 'num_users', 'competition_id'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst()
