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

/** Scores one round for every user registered for its competition (upsert); returns rows written. */
export async function scoreRound(db: Database, roundId: number): Promise<number> {
  const res = await sql`
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
      -- the round id as a value, not rnd.id: the planner then reads the round through
      -- tips_round_user instead of hashing the whole tips table
      LEFT JOIN tips t ON t.user_id = cr.user_id AND t.round_id = ${roundId}
      LEFT JOIN m ON m.id = t.match_id
      GROUP BY cr.user_id
    ),
    scored AS (
      SELECT p.user_id, p.correct,
        p.correct_own + CASE WHEN p.correct_own < ${AUTOTIP_COUNT_LIMIT} THEN p.correct_auto ELSE 0 END AS counted,
        CASE WHEN f.finished AND f.with_winner > 0 AND p.correct = f.with_winner AND NOT p.any_auto
             THEN ${CLEAN_SWEEP_BONUS} ELSE 0 END AS bonus,
        CASE WHEN EXISTS (SELECT 1 FROM margin_game)
             THEN abs(coalesce(p.predicted, 0) - (SELECT sixes FROM margin_game)) ELSE 0 END AS margin
      FROM per_user p CROSS JOIN facts f
    )
    INSERT INTO round_scores (round_id, user_id, competition_id, correct, counted, tip_points, bonus, points, margin)
    SELECT rnd.id, s.user_id, rnd.competition_id, s.correct, s.counted,
      s.counted * ${POINTS_PER_TIP} * CASE WHEN rnd.golden THEN ${GOLDEN_WEEK_MULTIPLIER} ELSE 1 END,
      s.bonus,
      s.counted * ${POINTS_PER_TIP} * CASE WHEN rnd.golden THEN ${GOLDEN_WEEK_MULTIPLIER} ELSE 1 END + s.bonus,
      s.margin
    FROM scored s CROSS JOIN rnd
    ON CONFLICT (round_id, user_id) DO UPDATE SET
      correct = excluded.correct, counted = excluded.counted, tip_points = excluded.tip_points,
      bonus = excluded.bonus, points = excluded.points, margin = excluded.margin
    WHERE (round_scores.correct, round_scores.counted, round_scores.points, round_scores.margin)
      IS DISTINCT FROM (excluded.correct, excluded.counted, excluded.points, excluded.margin)
  `.execute(db)
  return Number(res.numAffectedRows ?? 0)
}

/**
 * Rows written from which the planner statistics of a scores table are refreshed inside the
 * scoring transaction (ANALYZE sees the transaction's own rows). Without it, the first scoring of
 * a round ranks its tippers with a plan made for an empty round: a nested loop over the whole
 * round per row (minutes in bench/ at 100,000 tippers, and 85 s at exactly 10,000, when the
 * threshold was a strict 10,000). ANALYZE samples at most 30,000 rows, so it costs well under a
 * second at any size.
 */
export const ANALYZE_AFTER_ROWS = 1_000

export async function analyzeTable(db: Database, table: 'round_scores' | 'standings') {
  await sql`ANALYZE ${sql.table(table)}`.execute(db)
}

/**
 * Round ranks (SQL RANK() over points down, margin up) and positions (the same order, ties by
 * user id: what pages are read by). Rows whose rank and position are unchanged are not written.
 */
export async function rankRound(db: Database, roundId: number): Promise<void> {
  await sql`
    UPDATE round_scores rs SET rank = ranked.rank, position = ranked.position
    FROM (
      SELECT user_id, RANK() OVER (ORDER BY points DESC, margin ASC) AS rank,
        ROW_NUMBER() OVER (ORDER BY points DESC, margin ASC, user_id) AS position
      FROM round_scores WHERE round_id = ${roundId}
    ) ranked
    WHERE rs.round_id = ${roundId} AND rs.user_id = ranked.user_id
      AND (rs.rank, rs.position) IS DISTINCT FROM (ranked.rank, ranked.position)
  `.execute(db)
}

/** Totals over every round and the overall rank, for every registered user. */
export async function rebuildStandings(db: Database, competitionId: number): Promise<void> {
  const totals = await sql`
    INSERT INTO standings (competition_id, user_id, total_points, total_margin)
    SELECT cr.competition_id, cr.user_id, coalesce(sum(rs.points), 0), coalesce(sum(rs.margin), 0)
    FROM competition_registrations cr
    LEFT JOIN round_scores rs ON rs.user_id = cr.user_id AND rs.competition_id = cr.competition_id
    WHERE cr.competition_id = ${competitionId}
    GROUP BY cr.competition_id, cr.user_id
    ON CONFLICT (competition_id, user_id) DO UPDATE SET
      total_points = excluded.total_points, total_margin = excluded.total_margin
    WHERE (standings.total_points, standings.total_margin) IS DISTINCT FROM (excluded.total_points, excluded.total_margin)
  `.execute(db)
  if (Number(totals.numAffectedRows ?? 0) >= ANALYZE_AFTER_ROWS) await analyzeTable(db, 'standings')
  await sql`
    UPDATE standings s SET rank = ranked.rank, position = ranked.position
    FROM (
      SELECT user_id, RANK() OVER (ORDER BY total_points DESC, total_margin ASC) AS rank,
        ROW_NUMBER() OVER (ORDER BY total_points DESC, total_margin ASC, user_id) AS position
      FROM standings WHERE competition_id = ${competitionId}
    ) ranked
    WHERE s.competition_id = ${competitionId} AND s.user_id = ranked.user_id
      AND (s.rank, s.position) IS DISTINCT FROM (ranked.rank, ranked.position)
  `.execute(db)
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
