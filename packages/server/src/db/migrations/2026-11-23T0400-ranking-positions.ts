import { sql, type Kysely } from 'kysely'

// Frozen. Rankings are paged by a stored position (1, 2, 3 ... in ranking order, ties broken by
// user id) written when ranks are, so a page is an index range instead of an OFFSET walk over
// every row before it (bench/README.md). The position indexes take over from the rank indexes,
// which served only that ordering. competitions.scores_version counts scoring runs, so a cache
// of something built from scores (a big league's ladder) knows when it is out of date.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE competitions ADD COLUMN scores_version integer NOT NULL DEFAULT 0`.execute(
    db,
  )
  await sql`ALTER TABLE standings ADD COLUMN position integer`.execute(db)
  await sql`ALTER TABLE round_scores ADD COLUMN position integer`.execute(db)
  await sql`UPDATE standings s SET position = p.position
    FROM (SELECT competition_id, user_id, ROW_NUMBER() OVER (
            PARTITION BY competition_id ORDER BY total_points DESC, total_margin ASC, user_id) AS position
          FROM standings) p
    WHERE s.competition_id = p.competition_id AND s.user_id = p.user_id`.execute(db)
  await sql`UPDATE round_scores s SET position = p.position
    FROM (SELECT round_id, user_id, ROW_NUMBER() OVER (
            PARTITION BY round_id ORDER BY points DESC, margin ASC, user_id) AS position
          FROM round_scores) p
    WHERE s.round_id = p.round_id AND s.user_id = p.user_id`.execute(db)
  await sql`DROP INDEX standings_rank`.execute(db)
  await sql`DROP INDEX round_scores_rank`.execute(db)
  await sql`CREATE INDEX standings_position ON standings (competition_id, position)`.execute(db)
  await sql`CREATE INDEX round_scores_position ON round_scores (round_id, position)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX standings_position`.execute(db)
  await sql`DROP INDEX round_scores_position`.execute(db)
  await sql`CREATE INDEX standings_rank ON standings (competition_id, rank, user_id)`.execute(db)
  await sql`CREATE INDEX round_scores_rank ON round_scores (round_id, points DESC, margin ASC, user_id)`.execute(
    db,
  )
  await sql`ALTER TABLE standings DROP COLUMN position`.execute(db)
  await sql`ALTER TABLE round_scores DROP COLUMN position`.execute(db)
  await sql`ALTER TABLE competitions DROP COLUMN scores_version`.execute(db)
}
