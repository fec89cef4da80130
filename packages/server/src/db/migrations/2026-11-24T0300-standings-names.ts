import { sql, type Kysely } from 'kysely'

// Frozen. A rankings page is 20 consecutive positions of standings, and it used to look each of
// its tippers up in users by id for their names and whether they are deactivated: 21 index probes
// at random places in a million-row table, most of PostgreSQL's work on a page (0.21 ms of
// 0.25 ms per page at a million tippers; with the names beside the positions, 0.09 ms).
// docs/decisions/009-performance-at-scale.md, "Names beside the standings".
//
// standings now carries a copy of each tipper's team_name, first_name, last_name and whether
// they are active. The scoring job writes it from users when it builds the table, and the
// trigger below keeps it when a user changes afterwards. The scoring job locks standings against
// the trigger's update for its whole transaction (scoring/queries.ts lockCompetitionScoring), so
// a change made while a table is being built waits and lands in the new table, not the old one.

export async function up(db: Kysely<any>): Promise<void> {
  // Defaults only to fill the rows already there; dropped below, so a build that forgot a column
  // fails instead of writing blanks.
  await sql`ALTER TABLE standings
    ADD COLUMN team_name text,
    ADD COLUMN first_name text NOT NULL DEFAULT '',
    ADD COLUMN last_name text NOT NULL DEFAULT '',
    ADD COLUMN active boolean NOT NULL DEFAULT true`.execute(db)
  await sql`UPDATE standings s SET team_name = u.team_name, first_name = u.first_name,
      last_name = u.last_name, active = u.deactivated_at IS NULL
    FROM users u WHERE u.id = s.user_id`.execute(db)
  await sql`ALTER TABLE standings ALTER COLUMN first_name DROP DEFAULT,
    ALTER COLUMN last_name DROP DEFAULT, ALTER COLUMN active DROP DEFAULT`.execute(db)

  await sql`CREATE FUNCTION standings_follow_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE standings SET team_name = NEW.team_name, first_name = NEW.first_name,
        last_name = NEW.last_name, active = NEW.deactivated_at IS NULL
      WHERE user_id = NEW.id;
      RETURN NULL;
    END
  $$`.execute(db)
  await sql`CREATE TRIGGER users_to_standings
    AFTER UPDATE OF team_name, first_name, last_name, deactivated_at ON users
    FOR EACH ROW
    WHEN (OLD.team_name IS DISTINCT FROM NEW.team_name OR OLD.first_name <> NEW.first_name
      OR OLD.last_name <> NEW.last_name
      OR (OLD.deactivated_at IS NULL) <> (NEW.deactivated_at IS NULL))
    EXECUTE FUNCTION standings_follow_user()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER users_to_standings ON users`.execute(db)
  await sql`DROP FUNCTION standings_follow_user()`.execute(db)
  await sql`ALTER TABLE standings DROP COLUMN team_name, DROP COLUMN first_name,
    DROP COLUMN last_name, DROP COLUMN active`.execute(db)
}
