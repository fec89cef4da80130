import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { pickCounts } from '../predictions/service.ts'

export const competitionRounds = (db: Database, competitionId: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'label'])
    .where('competition_id', '=', competitionId)
    .orderBy('number')
    .execute()

export const competitionFixture = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches')
    .select([
      'id',
      'round_id',
      'number',
      'status',
      'starts_at',
      'venue_id',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'match_class',
      'winner_squad_id',
      'outcome',
      'sixes',
    ])
    .where('competition_id', '=', competitionId)
    .orderBy('starts_at')
    .orderBy('number')
    .execute()

export const sportSquads = (db: Database, sport: string) =>
  db
    .selectFrom('squads')
    .select(['id', 'code', 'name', 'nickname', 'short_name', 'colour', 'second_colour'])
    .where('sport', '=', sport)
    .orderBy('name')
    .execute()

export const competitionVenues = (db: Database, competitionId: number) =>
  db
    .selectFrom('venues')
    .select(['id', 'name', 'city', 'state', 'timezone'])
    .where('id', 'in', (eb) =>
      eb.selectFrom('matches').select('venue_id').where('competition_id', '=', competitionId),
    )
    .orderBy('name')
    .execute()

/**
 * Per squad tallies from completed regular-season matches. An all-out innings counts as its full
 * allotted overs (120 balls unless reduced); no-result matches are left out of the run rate.
 */
export async function ladderTallies(db: Database, competitionId: number, sport: string) {
  const res = await sql<{
    squad_id: number
    name: string
    played: number
    won: number
    lost: number
    tied: number
    no_result: number
    runs_for: number
    balls_faced: number
    runs_against: number
    balls_bowled: number
  }>`
    WITH m AS (
      SELECT * FROM matches WHERE competition_id = ${competitionId} AND status = 'complete' AND stage = 'regular'
    ),
    sides AS (
      SELECT home_squad_id AS squad, outcome, winner_squad_id,
        coalesce(home_nrr_runs, home_runs) AS rf,
        coalesce(home_nrr_balls, CASE WHEN home_wickets = 10 THEN coalesce(home_balls_allotted, 120) ELSE home_balls END) AS bf,
        coalesce(away_nrr_runs, away_runs) AS ra,
        coalesce(away_nrr_balls, CASE WHEN away_wickets = 10 THEN coalesce(away_balls_allotted, 120) ELSE away_balls END) AS bb
      FROM m
      UNION ALL
      SELECT away_squad_id, outcome, winner_squad_id,
        coalesce(away_nrr_runs, away_runs),
        coalesce(away_nrr_balls, CASE WHEN away_wickets = 10 THEN coalesce(away_balls_allotted, 120) ELSE away_balls END),
        coalesce(home_nrr_runs, home_runs),
        coalesce(home_nrr_balls, CASE WHEN home_wickets = 10 THEN coalesce(home_balls_allotted, 120) ELSE home_balls END)
      FROM m
    ),
    rated AS (
      SELECT *, (outcome <> 'no_result' AND rf IS NOT NULL AND ra IS NOT NULL AND bf > 0 AND bb > 0) AS counts
      FROM sides
    )
    SELECT s.id AS squad_id, s.name,
      count(r.squad)::int AS played,
      count(*) FILTER (WHERE r.winner_squad_id = s.id)::int AS won,
      count(*) FILTER (WHERE r.outcome = 'win' AND r.winner_squad_id <> s.id)::int AS lost,
      count(*) FILTER (WHERE r.outcome = 'tie')::int AS tied,
      count(*) FILTER (WHERE r.outcome = 'no_result')::int AS no_result,
      coalesce(sum(r.rf) FILTER (WHERE r.counts), 0)::int AS runs_for,
      coalesce(sum(r.bf) FILTER (WHERE r.counts), 0)::int AS balls_faced,
      coalesce(sum(r.ra) FILTER (WHERE r.counts), 0)::int AS runs_against,
      coalesce(sum(r.bb) FILTER (WHERE r.counts), 0)::int AS balls_bowled
    FROM squads s LEFT JOIN rated r ON r.squad = s.id
    WHERE s.sport = ${sport}
    GROUP BY s.id, s.name
  `.execute(db)
  return res.rows
}

export const competitionLadderPoints = async (db: Database, competitionId: number) =>
  (
    await db
      .selectFrom('competitions')
      .select('ladder_points')
      .where('id', '=', competitionId)
      .executeTakeFirstOrThrow()
  ).ladder_points

/** Pick counts per squad of the given matches (the round stats files), auto-tips in. */
export async function matchPickCounts(db: Database, matchIds: number[]) {
  if (matchIds.length === 0) return []
  // The one count the round read and the push channel's split use too (decision 032).
  return pickCounts(db, { matchIds })
}

/**
 * Holds publishing for the rest of the caller's transaction: every process (API, worker, CLI)
 * publishing into the same folder takes it, so one writes its files and checksums.json whole
 * before the next reads the database and writes its own. The same statement on PGlite, where it
 * is granted at once (one connection, which the transaction already holds alone).
 */
export const lockPublishing = async (db: Database): Promise<void> => {
  await sql`SELECT pg_advisory_xact_lock(7314, 0)`.execute(db)
}
