import { sql, type Kysely } from 'kysely'

// Frozen. A deactivation or reactivation (the users_to_rank_gaps trigger, which fires first of
// the user triggers that write scores) takes the three scores tables in the order the scoring
// job takes them: round_scores, standings, rank_gaps. It took rank_gaps alone, and the standings
// trigger then took standings; a scoring job holding round_scores and standings and waiting for
// rank_gaps met a deactivation holding rank_gaps and waiting for standings, and PostgreSQL
// aborted one of them (a 500). ROW EXCLUSIVE, as the trigger's own writes take: deactivations
// still run side by side, and each waits for a scoring job before it writes anything of the
// scores or bumps the competition's version (scoring/service.ts holdScoringFirst).

// The function as the 2026-11-25T0100 migration made it, but for the tables its first statement
// locks (a migration is frozen: it repeats the body rather than import it).
const followUser = (locked: string) =>
  sql`CREATE OR REPLACE FUNCTION rank_gaps_follow_user() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      d integer := CASE WHEN NEW.deactivated_at IS NULL THEN -1 ELSE 1 END;
    BEGIN
      LOCK TABLE ${sql.raw(locked)} IN ROW EXCLUSIVE MODE;
      INSERT INTO rank_gaps AS g (competition_id, round_id, points, margin, n)
        SELECT competition_id, round_id, points, margin, d FROM round_scores WHERE user_id = NEW.id
        UNION ALL
        SELECT competition_id, 0, total_points, total_margin, d FROM standings WHERE user_id = NEW.id
      ON CONFLICT (competition_id, round_id, points, margin) DO UPDATE SET n = g.n + excluded.n;
      DELETE FROM rank_gaps WHERE n = 0;
      -- ranks moved: pages and ladders cached at the old version are read again
      UPDATE competitions SET scores_version = scores_version + 1
      WHERE id IN (SELECT competition_id FROM competition_registrations WHERE user_id = NEW.id);
      RETURN NULL;
    END
  $$`

export async function up(db: Kysely<any>): Promise<void> {
  await followUser('round_scores, standings, rank_gaps').execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await followUser('rank_gaps').execute(db)
}
