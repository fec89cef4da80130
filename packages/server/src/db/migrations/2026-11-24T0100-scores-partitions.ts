import { sql, type Kysely } from 'kysely'

// Frozen. A result used to rewrite a million round_scores rows and a million standings rows in
// place (an upsert of each: about 26 us a row with its index entries, 60 s at a million tippers).
// The scoring job now builds a round's scores, and a competition's standings, as a new table
// (bulk insert, then its indexes in one sort each) and swaps it in as a partition: round_scores
// is partitioned by round, standings by competition (docs/decisions/009-performance-at-scale.md,
// "Scores are rebuilt, not rewritten").
//
// Partitions are named round_scores_r{round id} and standings_c{competition id}. Their keys put
// user_id first: one user's rows are then an index lookup in each partition, which is what
// ladders and the score header read; a round's pages use (round_id, position) as before.
//
// The scores tables lose their foreign keys: every row is derived from registrations (which keep
// theirs), nothing deletes users, rounds or competitions, and attaching a partition would check
// each key over a million rows.
//
// correct_own, correct_auto and autos (auto-tips on completed matches) are what a single result
// needs to re-score a round from the previous numbers and that match's tips alone. Rows copied
// here have them NULL, which the scoring job takes as "score this round from all its tips".
//
// The tips index on (match_id, squad_id) becomes a covering index on (match_id, user_id): a
// result reads one match's tips, about a million rows at a million tippers, from the index alone
// (0.2 s) rather than from a heap page each (2-9 s).

const roundColumns = `
    round_id integer NOT NULL,
    user_id integer NOT NULL,
    competition_id integer NOT NULL,
    correct integer NOT NULL DEFAULT 0,
    correct_own integer,
    correct_auto integer,
    autos integer,
    counted integer NOT NULL DEFAULT 0,
    tip_points integer NOT NULL DEFAULT 0,
    bonus integer NOT NULL DEFAULT 0,
    points integer NOT NULL DEFAULT 0,
    margin integer NOT NULL DEFAULT 0,
    rank integer,
    position integer`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE round_scores_next (${sql.raw(roundColumns)}) PARTITION BY LIST (round_id)`.execute(
    db,
  )
  await sql`CREATE TABLE standings_next (
    competition_id integer NOT NULL,
    user_id integer NOT NULL,
    total_points integer NOT NULL DEFAULT 0,
    total_margin integer NOT NULL DEFAULT 0,
    rank integer,
    position integer
  ) PARTITION BY LIST (competition_id)`.execute(db)

  const rounds = await sql<{
    id: number
  }>`SELECT DISTINCT round_id AS id FROM round_scores`.execute(db)
  for (const { id } of rounds.rows) {
    await sql`CREATE TABLE ${sql.table(`round_scores_r${id}`)} PARTITION OF round_scores_next
      FOR VALUES IN (${sql.lit(id)})`.execute(db)
  }
  const comps = await sql<{
    id: number
  }>`SELECT DISTINCT competition_id AS id FROM standings`.execute(db)
  for (const { id } of comps.rows) {
    await sql`CREATE TABLE ${sql.table(`standings_c${id}`)} PARTITION OF standings_next
      FOR VALUES IN (${sql.lit(id)})`.execute(db)
  }
  await sql`INSERT INTO round_scores_next (round_id, user_id, competition_id, correct, counted,
      tip_points, bonus, points, margin, rank, position)
    SELECT round_id, user_id, competition_id, correct, counted, tip_points, bonus, points, margin,
      rank, position
    FROM round_scores`.execute(db)
  await sql`INSERT INTO standings_next SELECT competition_id, user_id, total_points, total_margin,
      rank, position FROM standings`.execute(db)
  await sql`DROP TABLE round_scores`.execute(db)
  await sql`DROP TABLE standings`.execute(db)
  await sql`ALTER TABLE round_scores_next RENAME TO round_scores`.execute(db)
  await sql`ALTER TABLE standings_next RENAME TO standings`.execute(db)
  for (const { id } of rounds.rows) await partitionIndexes(db, `round_scores_r${id}`, 'round_id')
  for (const { id } of comps.rows) await partitionIndexes(db, `standings_c${id}`, 'competition_id')

  await sql`CREATE INDEX tips_match_user ON tips (match_id, user_id)
    INCLUDE (squad_id, is_auto_tip, margin)`.execute(db)
  await sql`DROP INDEX tips_match_squad`.execute(db)
}

// Each partition has its own key and position index, as the scoring job builds them; the parents
// have none. Indexes on a partitioned parent would tie each partition's to it, and pg_restore
// --clean (npm run restore) cannot drop such a partition's key before the parent's.
async function partitionIndexes(db: Kysely<any>, part: string, key: string) {
  await sql`ALTER TABLE ${sql.table(part)} ADD CONSTRAINT ${sql.id(`${part}_pkey`)}
    PRIMARY KEY (user_id, ${sql.ref(key)})`.execute(db)
  await sql`CREATE INDEX ${sql.id(`${part}_position`)} ON ${sql.table(part)}
    (${sql.ref(key)}, position)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX tips_match_squad ON tips (match_id, squad_id)`.execute(db)
  await sql`DROP INDEX tips_match_user`.execute(db)
  await sql`ALTER TABLE round_scores RENAME TO round_scores_parts`.execute(db)
  await sql`ALTER TABLE standings RENAME TO standings_parts`.execute(db)
  await sql`CREATE TABLE round_scores (
    round_id integer NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    correct integer NOT NULL DEFAULT 0,
    counted integer NOT NULL DEFAULT 0,
    tip_points integer NOT NULL DEFAULT 0,
    bonus integer NOT NULL DEFAULT 0,
    points integer NOT NULL DEFAULT 0,
    margin integer NOT NULL DEFAULT 0,
    rank integer,
    position integer,
    PRIMARY KEY (round_id, user_id)
  )`.execute(db)
  await sql`CREATE TABLE standings (
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    total_points integer NOT NULL DEFAULT 0,
    total_margin integer NOT NULL DEFAULT 0,
    rank integer,
    position integer,
    PRIMARY KEY (competition_id, user_id)
  )`.execute(db)
  await sql`INSERT INTO round_scores SELECT round_id, user_id, competition_id, correct, counted,
      tip_points, bonus, points, margin, rank, position FROM round_scores_parts`.execute(db)
  await sql`INSERT INTO standings SELECT * FROM standings_parts`.execute(db)
  await sql`DROP TABLE round_scores_parts`.execute(db)
  await sql`DROP TABLE standings_parts`.execute(db)
  await sql`CREATE INDEX round_scores_user ON round_scores (user_id)`.execute(db)
  await sql`CREATE INDEX round_scores_position ON round_scores (round_id, position)`.execute(db)
  await sql`CREATE INDEX standings_position ON standings (competition_id, position)`.execute(db)
}
