import { sql, type Kysely } from 'kysely'

// Frozen. A statement that changes a user's names or whether they are deactivated waits for the
// scores tables (ROW EXCLUSIVE, as the triggers that copy the change into them take) before it
// touches the row. Those triggers ran after the row was changed, so the change held the user's
// row while it waited for a scoring job; a scoring job entered by that user wrote its audit row,
// whose foreign key check waited for the same row, and PostgreSQL aborted one of the two (a 500
// on PostgreSQL, found by racing an admin's rename against their own results). Taken first, the
// wait holds nothing a scoring job needs. A save that names the columns without changing them
// waits too, for as long as a running scoring job takes; a rename already did.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE FUNCTION users_wait_for_scoring() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      LOCK TABLE round_scores, standings, rank_gaps IN ROW EXCLUSIVE MODE;
      RETURN NULL;
    END
  $$`.execute(db)
  await sql`CREATE TRIGGER users_wait_for_scoring
    BEFORE UPDATE OF team_name, first_name, last_name, deactivated_at ON users
    FOR EACH STATEMENT
    EXECUTE FUNCTION users_wait_for_scoring()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER users_wait_for_scoring ON users`.execute(db)
  await sql`DROP FUNCTION users_wait_for_scoring()`.execute(db)
}
