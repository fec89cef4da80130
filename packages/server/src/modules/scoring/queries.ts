import { sql } from 'kysely'
import {
  AUTOTIP_COUNT_LIMIT,
  CLEAN_SWEEP_BONUS,
  GOLDEN_WEEK_MULTIPLIER,
  POINTS_PER_TIP,
} from '@tipping/contract/constants'
import type { Database } from '../../db/schema.ts'

// GAME_RULES.md "Scoring a round" and "Ranking" as set-based SQL: one statement per step for
// every registered user at once; the contract's reference scorer is the specification it must equal.

/**
 * Scores one round for every user registered for its competition, with its round ranks (SQL RANK()
 * over points down, margin up) and positions (the same order, ties by user id: what pages are read
 * by), in one upsert: every row is written once, and not at all when nothing about it changed.
 * Registrations are never removed, so the registered users are exactly the round's rows.
 * Returns the rows inserted (a first scoring) and written.
 */
export async function scoreRound(
  db: Database,
  roundId: number,
): Promise<{ inserted: number; written: number }> {
  const res = await sql<{ inserted: number; written: number }>`
    WITH rnd AS (
      SELECT r.id, r.competition_id, (r.number = c.golden_week_round) AS golden
      FROM rounds r JOIN competitions c ON c.id = r.competition_id
      WHERE r.id = ${roundId}
    ),
    m AS (SELECT * FROM matches WHERE round_id = ${roundId}),
    facts AS (
      SELECT count(*) > 0 AND bool_and(status = 'complete') AS finished,
             count(*) FILTER (WHERE winner_squad_id IS NOT NULL) AS with_winner
      FROM m
    ),
    margin_game AS (
      SELECT id, sixes FROM m WHERE is_margin_game AND status = 'complete' AND sixes IS NOT NULL
    ),
    per_user AS (
      SELECT cr.user_id,
        count(*) FILTER (WHERE m.status = 'complete' AND t.squad_id = m.winner_squad_id) AS correct,
        count(*) FILTER (WHERE m.status = 'complete' AND t.squad_id = m.winner_squad_id AND NOT t.is_auto_tip) AS correct_own,
        count(*) FILTER (WHERE m.status = 'complete' AND t.squad_id = m.winner_squad_id AND t.is_auto_tip) AS correct_auto,
        coalesce(bool_or(t.is_auto_tip), false) AS any_auto,
        max(t.margin) FILTER (WHERE t.match_id = (SELECT id FROM margin_game)) AS predicted
      FROM rnd
      JOIN competition_registrations cr ON cr.competition_id = rnd.competition_id
      -- auto-tips included (the effective_tips view); the round id as a value, not rnd.id: the
      -- planner then reads the round through tips_round_user instead of hashing every tip
      LEFT JOIN effective_tips t ON t.user_id = cr.user_id AND t.round_id = ${roundId}
      LEFT JOIN m ON m.id = t.match_id
      GROUP BY cr.user_id
    ),
    counted AS (
      SELECT p.user_id, p.correct,
        p.correct_own + CASE WHEN p.correct_own < ${AUTOTIP_COUNT_LIMIT} THEN p.correct_auto ELSE 0 END AS counted,
        CASE WHEN f.finished AND f.with_winner > 0 AND p.correct = f.with_winner AND NOT p.any_auto
             THEN ${CLEAN_SWEEP_BONUS} ELSE 0 END AS bonus,
        CASE WHEN EXISTS (SELECT 1 FROM margin_game)
             THEN abs(coalesce(p.predicted, 0) - (SELECT sixes FROM margin_game)) ELSE 0 END AS margin
      FROM per_user p CROSS JOIN facts f
    ),
    scored AS (
      SELECT c.*,
        c.counted * ${POINTS_PER_TIP} * CASE WHEN rnd.golden THEN ${GOLDEN_WEEK_MULTIPLIER} ELSE 1 END AS tip_points
      FROM counted c CROSS JOIN rnd
    ),
    ranked AS (
      SELECT s.*, s.tip_points + s.bonus AS points,
        RANK() OVER (ORDER BY s.tip_points + s.bonus DESC, s.margin ASC) AS rank,
        ROW_NUMBER() OVER (ORDER BY s.tip_points + s.bonus DESC, s.margin ASC, s.user_id) AS position
      FROM scored s
    ),
    written AS (
      INSERT INTO round_scores (round_id, user_id, competition_id, correct, counted, tip_points, bonus, points, margin, rank, position)
      SELECT rnd.id, r.user_id, rnd.competition_id, r.correct, r.counted, r.tip_points, r.bonus,
        r.points, r.margin, r.rank, r.position
      FROM ranked r CROSS JOIN rnd
      ON CONFLICT (round_id, user_id) DO UPDATE SET
        correct = excluded.correct, counted = excluded.counted, tip_points = excluded.tip_points,
        bonus = excluded.bonus, points = excluded.points, margin = excluded.margin,
        rank = excluded.rank, position = excluded.position
      WHERE (round_scores.correct, round_scores.counted, round_scores.bonus, round_scores.points,
             round_scores.margin, round_scores.rank, round_scores.position)
        IS DISTINCT FROM (excluded.correct, excluded.counted, excluded.bonus, excluded.points,
             excluded.margin, excluded.rank, excluded.position)
      -- xmax is 0 on a row this statement inserted (not on one it updated)
      RETURNING (xmax = 0) AS inserted
    )
    SELECT (count(*) FILTER (WHERE inserted))::int AS inserted, count(*)::int AS written FROM written
  `.execute(db)
  return res.rows[0] ?? { inserted: 0, written: 0 }
}

/**
 * Rows inserted into a scores table from which its planner statistics are refreshed inside the
 * scoring transaction (ANALYZE sees the transaction's own rows). Without it, the first scoring of
 * a competition plans the standings totals for an empty round_scores: a nested loop over the
 * whole table per tipper (minutes in bench/ at 100,000 tippers). ANALYZE samples at most 30,000
 * rows, so it costs well under a second at any size; updates leave the statistics close enough.
 */
export const ANALYZE_AFTER_ROWS = 1_000

export async function analyzeTable(db: Database, table: 'round_scores' | 'standings') {
  await sql`ANALYZE ${sql.table(table)}`.execute(db)
}

/**
 * Totals over every round with the overall rank and position, for every registered user, in one
 * upsert (rows that did not change are not written). Returns the rows inserted.
 */
export async function rebuildStandings(db: Database, competitionId: number): Promise<number> {
  const res = await sql<{ inserted: number }>`
    WITH totals AS (
      SELECT cr.user_id, coalesce(sum(rs.points), 0)::int AS total_points,
        coalesce(sum(rs.margin), 0)::int AS total_margin
      FROM competition_registrations cr
      LEFT JOIN round_scores rs ON rs.user_id = cr.user_id AND rs.competition_id = cr.competition_id
      WHERE cr.competition_id = ${competitionId}
      GROUP BY cr.user_id
    ),
    ranked AS (
      SELECT t.*, RANK() OVER (ORDER BY total_points DESC, total_margin ASC) AS rank,
        ROW_NUMBER() OVER (ORDER BY total_points DESC, total_margin ASC, user_id) AS position
      FROM totals t
    ),
    written AS (
      INSERT INTO standings (competition_id, user_id, total_points, total_margin, rank, position)
      SELECT ${competitionId}, user_id, total_points, total_margin, rank, position FROM ranked
      ON CONFLICT (competition_id, user_id) DO UPDATE SET
        total_points = excluded.total_points, total_margin = excluded.total_margin,
        rank = excluded.rank, position = excluded.position
      WHERE (standings.total_points, standings.total_margin, standings.rank, standings.position)
        IS DISTINCT FROM (excluded.total_points, excluded.total_margin, excluded.rank, excluded.position)
      RETURNING (xmax = 0) AS inserted
    )
    SELECT (count(*) FILTER (WHERE inserted))::int AS inserted FROM written
  `.execute(db)
  return res.rows[0]?.inserted ?? 0
}

export const competitionRoundIds = async (db: Database, competitionId: number): Promise<number[]> =>
  (
    await db
      .selectFrom('rounds')
      .select('id')
      .where('competition_id', '=', competitionId)
      .orderBy('number')
      .execute()
  ).map((r) => r.id)

/** Tells caches of anything built from scores that they are out of date. */
export async function bumpScoresVersion(db: Database, competitionId: number): Promise<void> {
  await db
    .updateTable('competitions')
    .set((eb) => ({ scores_version: eb('scores_version', '+', 1) }))
    .where('id', '=', competitionId)
    .execute()
}

/** Serialises scoring of one competition across processes for the rest of the transaction. */
export async function lockCompetitionScoring(db: Database, competitionId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(7311, ${competitionId})`.execute(db)
}
