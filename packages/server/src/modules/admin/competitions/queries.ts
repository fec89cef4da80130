import { sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'

export const competitions = (db: Database, id?: number) => {
  let query = db
    .selectFrom('competitions as c')
    .select([
      'c.id',
      'c.sport',
      'c.identifier',
      'c.season',
      'c.name',
      'c.year',
      'c.is_current',
      'c.golden_week_round',
      'c.ladder_points',
      sql<number>`(SELECT count(*) FROM rounds r WHERE r.competition_id = c.id)::int`.as('rounds'),
      sql<number>`(SELECT count(*) FROM matches m WHERE m.competition_id = c.id)::int`.as(
        'matches',
      ),
      sql<number>`(SELECT count(*) FROM matches m WHERE m.competition_id = c.id AND m.status = 'complete')::int`.as(
        'completed_matches',
      ),
    ])
    .orderBy('c.sport')
    .orderBy('c.season', 'desc')
  if (id !== undefined) query = query.where('c.id', '=', id)
  return query.execute()
}
export type CompetitionRow = Awaited<ReturnType<typeof competitions>>[number]

/**
 * The competition's row for a change from the console. NO KEY UPDATE, not UPDATE: it still queues
 * two changes of the competition, and lets through the foreign key checks of the rows that point
 * at it (My season's history job wrote those while a re-score held the row: decision 044).
 */
export const lockCompetition = (db: Database, id: number) =>
  db
    .selectFrom('competitions')
    .select(['id', 'sport', 'golden_week_round', 'ladder_points', 'is_current'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst()

export const insertCompetition = (
  db: Database,
  c: {
    sport: string
    identifier: string
    season: number
    name: string
    year: string
    goldenWeekRound: number | null
    ladderPoints: object
  },
) =>
  db
    .insertInto('competitions')
    .values({
      sport: c.sport,
      identifier: c.identifier,
      season: c.season,
      name: c.name,
      year: c.year,
      golden_week_round: c.goldenWeekRound,
      ladder_points: JSON.stringify(c.ladderPoints),
      assumptions: '[]',
      sources: '[]',
    })
    .onConflict((oc) => oc.column('identifier').doNothing())
    .returning('id')
    .executeTakeFirst()

export const competitionIdBySportSeason = (db: Database, sport: string, season: number) =>
  db
    .selectFrom('competitions')
    .select('id')
    .where('sport', '=', sport)
    .where('season', '=', season)
    .executeTakeFirst()

export const updateCompetition = (
  db: Database,
  id: number,
  set: { golden_week_round?: number | null; ladder_points?: string },
) => db.updateTable('competitions').set(set).where('id', '=', id).execute()

export const roundByNumber = (db: Database, competitionId: number, number: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'status'])
    .where('competition_id', '=', competitionId)
    .where('number', '=', number)
    .executeTakeFirst()

/** Fixture matches keyed by number with what an import may change, to count the changes. */
export const fixtureSnapshot = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches')
    .select([
      'number',
      'starts_at',
      'venue_id',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'status',
    ])
    .where('competition_id', '=', competitionId)
    .execute()

export const tipperCount = async (db: Database, competitionId: number): Promise<number> =>
  (
    await db
      .selectFrom('round_scores')
      .select(sql<number>`count(DISTINCT user_id)::int`.as('n'))
      .where('competition_id', '=', competitionId)
      .executeTakeFirstOrThrow()
  ).n
