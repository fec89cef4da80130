import { sql, type Kysely } from 'kysely'

// Frozen. Under the net run rate rules for a rain-revised chase, the side batting first is
// credited with the target less one run from the revised overs, not its own score: these columns
// hold such credited figures (null: use the innings as played).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE matches
    ADD COLUMN home_nrr_runs integer, ADD COLUMN home_nrr_balls integer,
    ADD COLUMN away_nrr_runs integer, ADD COLUMN away_nrr_balls integer`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE matches
    DROP COLUMN home_nrr_runs, DROP COLUMN home_nrr_balls,
    DROP COLUMN away_nrr_runs, DROP COLUMN away_nrr_balls`.execute(db)
}
