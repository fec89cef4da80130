import type { Database } from '../../db/schema.ts'

export const matchForResult = (db: Database, matchId: number) =>
  db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select([
      'matches.id',
      'matches.competition_id',
      'matches.round_id',
      'matches.home_squad_id',
      'matches.away_squad_id',
      'matches.status',
      'matches.winner_squad_id',
      'matches.starts_at',
      'competitions.sport',
    ])
    .where('matches.id', '=', matchId)
    .forUpdate()
    .executeTakeFirst()

export const audit = (
  db: Database,
  a: {
    actorUserId: number | null
    action: string
    entity: string
    entityId: string
    data: unknown
    at: Date
  },
) =>
  db
    .insertInto('audit_log')
    .values({
      actor_user_id: a.actorUserId,
      action: a.action,
      entity: a.entity,
      entity_id: a.entityId,
      data: JSON.stringify(a.data),
      created_at: a.at,
    })
    .execute()
