import { sql, type Kysely } from 'kysely'

// Frozen. My season's overall rank after each round, and each round's tippers, total and best
// points (issue 31; docs/decisions/021-season-rank-history.md), kept off a result's path.
//
// - season_history: per competition and round, how many ranked tippers (registered and active)
//   have each cumulative (points, margin) through that round. A tipper's rank after the round is
//   1 + the tippers in groups strictly ahead (GAME_RULES "Ranking"), so a rank is a count over a
//   few thousand groups instead of a sort of a million rows.
// - season_round_points: per round, how many ranked tippers scored each number of points (the
//   round's tippers, total and best, without a GROUP BY over a million round scores per read).
// - season_history_state: the last round the two cover, and a version bumped by every change.
// - season_history_stale: scoring appends the first round it re-scored (an insert, which never
//   waits on a lock); the scheduler's season_history job rebuilds from there and deletes them.
// - season_history_delta(): a registration (placeTipper) or a (re)activation adds or removes one
//   tipper from every covered round, in its own transaction; the trigger below calls it.
// Each row belongs to its competition (a foreign key, so a test's TRUNCATE ... CASCADE empties
// them too; its KEY SHARE lock never conflicts with scoring's update of scores_version).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE season_history (
    competition_id integer NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    round_number integer NOT NULL,
    points integer NOT NULL,
    margin integer NOT NULL,
    n integer NOT NULL,
    PRIMARY KEY (competition_id, round_number, points, margin)
  )`.execute(db)
  await sql`CREATE TABLE season_round_points (
    competition_id integer NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    round_number integer NOT NULL,
    points integer NOT NULL,
    n integer NOT NULL,
    PRIMARY KEY (competition_id, round_number, points)
  )`.execute(db)
  await sql`CREATE TABLE season_history_state (
    competition_id integer PRIMARY KEY REFERENCES competitions (id) ON DELETE CASCADE,
    covered_through integer NOT NULL,
    version bigint NOT NULL DEFAULT 0
  )`.execute(db)
  await sql`CREATE TABLE season_history_stale (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    competition_id integer NOT NULL REFERENCES competitions (id) ON DELETE CASCADE,
    from_round integer NOT NULL
  )`.execute(db)
  await sql`CREATE INDEX season_history_stale_competition
    ON season_history_stale (competition_id, from_round)`.execute(db)

  // d = +1 or -1 for user u in competition c: their cumulative (points, margin) through each
  // covered round, from their own round scores (a round they have no row in adds nothing). The
  // state row's lock comes first: the rebuild job holds it while it counts, so a change either
  // lands in what it counts or is applied to what it wrote.
  await sql`CREATE FUNCTION season_history_delta(c integer, u integer, d integer)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      upto integer;
    BEGIN
      SELECT covered_through INTO upto FROM season_history_state
        WHERE competition_id = c FOR UPDATE;
      IF NOT FOUND OR upto < 1 THEN
        RETURN;
      END IF;
      -- the user's rows, one per covered round (a round without one adds 0): a dozen probes
      INSERT INTO season_history AS h (competition_id, round_number, points, margin, n)
        SELECT c, number, (sum(points) OVER w)::int, (sum(margin) OVER w)::int, d
        FROM (
          SELECT r.number, coalesce(rs.points, 0) AS points, coalesce(rs.margin, 0) AS margin
          FROM rounds r
          LEFT JOIN round_scores rs
            ON rs.round_id = r.id AND rs.user_id = u AND rs.competition_id = c
          WHERE r.competition_id = c AND r.number <= upto
        ) x
        WINDOW w AS (ORDER BY number)
        ON CONFLICT (competition_id, round_number, points, margin) DO UPDATE SET n = h.n + excluded.n;
      INSERT INTO season_round_points AS p (competition_id, round_number, points, n)
        SELECT c, r.number, coalesce(rs.points, 0), d
        FROM rounds r
        LEFT JOIN round_scores rs
          ON rs.round_id = r.id AND rs.user_id = u AND rs.competition_id = c
        WHERE r.competition_id = c AND r.number <= upto
        ON CONFLICT (competition_id, round_number, points) DO UPDATE SET n = p.n + excluded.n;
      DELETE FROM season_history WHERE competition_id = c AND n = 0;
      DELETE FROM season_round_points WHERE competition_id = c AND n = 0;
      UPDATE season_history_state SET version = version + 1 WHERE competition_id = c;
    END
  $$`.execute(db)

  await sql`CREATE FUNCTION season_history_follow_user() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      c integer;
    BEGIN
      FOR c IN SELECT competition_id FROM competition_registrations
        WHERE user_id = NEW.id ORDER BY competition_id
      LOOP
        PERFORM season_history_delta(c, NEW.id,
          CASE WHEN NEW.deactivated_at IS NULL THEN 1 ELSE -1 END);
      END LOOP;
      RETURN NULL;
    END
  $$`.execute(db)
  // Named to fire after users_to_rank_gaps (triggers fire in name order), which waits for a
  // scoring job holding the scores tables before this reads them.
  await sql`CREATE TRIGGER users_to_season_history
    AFTER UPDATE OF deactivated_at ON users
    FOR EACH ROW
    WHEN ((OLD.deactivated_at IS NULL) <> (NEW.deactivated_at IS NULL))
    EXECUTE FUNCTION season_history_follow_user()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER users_to_season_history ON users`.execute(db)
  await sql`DROP FUNCTION season_history_follow_user()`.execute(db)
  await sql`DROP FUNCTION season_history_delta(integer, integer, integer)`.execute(db)
  await sql`DROP TABLE season_history_stale`.execute(db)
  await sql`DROP TABLE season_history_state`.execute(db)
  await sql`DROP TABLE season_round_points`.execute(db)
  await sql`DROP TABLE season_history`.execute(db)
}
