import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export const currentCompetition = (db: Database, sport: string) =>
  db
    .selectFrom('competitions')
    .select(['id', 'identifier', 'golden_week_round'])
    .where('sport', '=', sport)
    .where('is_current', '=', true)
    .executeTakeFirst()

export const roundByNumber = (db: Database, competitionId: number, number: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'label', 'status'])
    .where('competition_id', '=', competitionId)
    .where('number', '=', number)
    .executeTakeFirst()

const matchColumns = [
  'id',
  'number',
  'status',
  'starts_at',
  'venue_id',
  'home_squad_id',
  'away_squad_id',
  'match_class',
  'is_margin_game',
  'home_runs',
  'home_wickets',
  'home_balls',
  'away_runs',
  'away_wickets',
  'away_balls',
  'sixes',
  'outcome',
  'winner_squad_id',
] as const

export const roundMatches = (db: Database, roundId: number) =>
  db
    .selectFrom('matches')
    .select(matchColumns)
    .where('round_id', '=', roundId)
    .orderBy('starts_at')
    .orderBy('number')
    .execute()

export type MatchRecord = Awaited<ReturnType<typeof roundMatches>>[number]

export const userRoundTips = (db: Database, userId: number, roundId: number) =>
  db
    .selectFrom('tips')
    .select(['match_id', 'squad_id', 'margin', 'is_auto_tip'])
    .where('user_id', '=', userId)
    .where('round_id', '=', roundId)
    .execute()

export type TipRecord = Awaited<ReturnType<typeof userRoundTips>>[number]

/** How many tippers picked each squad of each match in the round (the live pick split). */
export const roundPickCounts = (db: Database, roundId: number) =>
  db
    .selectFrom('tips')
    .select(['match_id', 'squad_id', sql<number>`count(*)::int`.as('picks')])
    .where('round_id', '=', roundId)
    .groupBy(['match_id', 'squad_id'])
    .execute()

/**
 * The matches a save touches, locked against a concurrent result or lockout change for the
 * rest of the transaction.
 */
export const matchesForTipping = (db: Database, competitionId: number, matchIds: number[]) =>
  db
    .selectFrom('matches')
    .select([
      'id',
      'round_id',
      'status',
      'starts_at',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
    ])
    .where('competition_id', '=', competitionId)
    .where('id', 'in', matchIds)
    .forShare()
    .execute()

export const isRegistered = async (db: Database, competitionId: number, userId: number) =>
  (await db
    .selectFrom('competition_registrations')
    .select('user_id')
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined

export interface TipWrite {
  userId: number
  matchId: number
  roundId: number
  squadId: number
  margin: number | null
  now: Date
}

export const upsertTips = (db: Database, tips: TipWrite[]) =>
  db
    .insertInto('tips')
    .values(
      tips.map((t) => ({
        user_id: t.userId,
        match_id: t.matchId,
        round_id: t.roundId,
        squad_id: t.squadId,
        margin: t.margin,
        is_auto_tip: false,
        created_at: t.now,
        updated_at: t.now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'match_id']).doUpdateSet((eb) => ({
        squad_id: eb.ref('excluded.squad_id'),
        margin: eb.ref('excluded.margin'),
        is_auto_tip: false,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute()
