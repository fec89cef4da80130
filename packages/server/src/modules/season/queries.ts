import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * One user's season numbers from their tips (effective_tips: auto-tips derived as scoring derives
 * them) on the competition's completed matches, in one statement; the reference is
 * contract/rules/season.ts `seasonNumbers`, and test/season.property.test.ts holds them equal.
 *
 * `judged`: tips on matches complete with a winner. Streaks (gaps and islands): in play order
 * (start, match number, id) each wrong tip starts a new run, so a run's correct tips are a streak
 * and the last run's is the current one. Matches without a winner and matches without a tip are
 * not in `judged`, so they neither extend nor break a streak. The Super Sixes misses are
 * marginResult written out: on a completed margin game with its sixes known, |prediction - sixes|,
 * no number counting as 0; only games the user had a tip on.
 */
export async function userTipNumbers(db: Database, competitionId: number, userId: number) {
  const res = await sql<{
    correct: number
    judged: number
    longest: number
    current: number
    autos_wrong: number
    teams: { squad: number; correct: number; tipped: number }[]
    margin_games: number
    miss_total: number
    best_miss: number | null
  }>`
    WITH mine AS (
      SELECT m.id, m.starts_at, m.number, m.winner_squad_id AS winner, m.is_margin_game, m.sixes,
        t.squad_id, t.margin, t.is_auto_tip
      FROM effective_tips t
      JOIN matches m ON m.id = t.match_id
      WHERE t.user_id = ${userId} AND m.competition_id = ${competitionId} AND m.status = 'complete'
    ),
    judged AS (
      SELECT squad_id, is_auto_tip, squad_id = winner AS correct,
        count(*) FILTER (WHERE squad_id <> winner)
          OVER (ORDER BY starts_at, number, id ROWS UNBOUNDED PRECEDING) AS run
      FROM mine WHERE winner IS NOT NULL
    ),
    runs AS (SELECT run, count(*) FILTER (WHERE correct) AS streak FROM judged GROUP BY run),
    teams AS (
      SELECT squad_id, count(*) FILTER (WHERE correct)::int AS correct, count(*)::int AS tipped
      FROM judged GROUP BY squad_id
    ),
    misses AS (
      SELECT abs(coalesce(margin, 0) - sixes) AS miss
      FROM mine WHERE is_margin_game AND sixes IS NOT NULL
    )
    SELECT
      (SELECT count(*) FILTER (WHERE correct) FROM judged)::int AS correct,
      (SELECT count(*) FROM judged)::int AS judged,
      coalesce((SELECT max(streak) FROM runs), 0)::int AS longest,
      coalesce((SELECT streak FROM runs ORDER BY run DESC LIMIT 1), 0)::int AS current,
      (SELECT count(*) FILTER (WHERE is_auto_tip AND NOT correct) FROM judged)::int AS autos_wrong,
      (SELECT coalesce(json_agg(json_build_object(
          'squad', squad_id, 'correct', correct, 'tipped', tipped) ORDER BY squad_id), '[]')
        FROM teams) AS teams,
      (SELECT count(*) FROM misses)::int AS margin_games,
      (SELECT coalesce(sum(miss), 0) FROM misses)::int AS miss_total,
      (SELECT min(miss) FROM misses)::int AS best_miss
  `.execute(db)
  return res.rows[0]!
}

/**
 * The user's stored round scores (what scoring wrote, decision 004), each round's number with
 * them: points, the bonus, and correct tips that did not count (only an auto-tip can be one).
 */
export async function userRoundScores(db: Database, competitionId: number, userId: number) {
  const res = await sql<{
    number: number
    points: number
    margin: number
    bonus: number
    not_counted: number
    active: boolean
  }>`
    SELECT r.number, rs.points, rs.margin, rs.bonus, (rs.correct - rs.counted)::int AS not_counted,
      u.deactivated_at IS NULL AS active
    FROM round_scores rs
    JOIN rounds r ON r.id = rs.round_id
    JOIN users u ON u.id = rs.user_id
    WHERE rs.competition_id = ${competitionId} AND rs.user_id = ${userId}
    ORDER BY r.number
  `.execute(db)
  return res.rows
}

/**
 * Each round with a completed match after round `after`: how many ranked tippers it has, their
 * points together and the most any of them scored, in one GROUP BY over round_scores. Rounds the
 * season history covers are read from it (history.ts); this counts only a round re-scored since,
 * in the seconds before the scheduler rebuilds it. Ranked is registered and active
 * (GAME_RULES "Who is ranked"): the few deactivated registrations are left out by a hashed
 * subplan rather than a join of a million standings rows.
 */
export async function roundStats(db: Database, competitionId: number, after: number) {
  const res = await sql<{
    number: number
    tippers: number
    total: number
    best: number
  }>`
    SELECT r.number, count(*)::int AS tippers, coalesce(sum(rs.points), 0)::int AS total,
      coalesce(max(rs.points), 0)::int AS best
    FROM rounds r
    JOIN round_scores rs ON rs.round_id = r.id
    WHERE r.competition_id = ${competitionId} AND r.number > ${after}
      AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
      AND rs.user_id NOT IN (
        SELECT u.id FROM users u
        JOIN competition_registrations cr ON cr.user_id = u.id AND cr.competition_id = ${competitionId}
        WHERE u.deactivated_at IS NOT NULL)
    GROUP BY r.number
    ORDER BY r.number
  `.execute(db)
  return res.rows
}

/** The numbers of the rounds with a completed match (the chart's rounds, tippers or not). */
export async function playedRounds(db: Database, competitionId: number) {
  const res = await sql<{ number: number }>`
    SELECT r.number FROM rounds r
    WHERE r.competition_id = ${competitionId}
      AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
    ORDER BY r.number
  `.execute(db)
  return res.rows.map((r) => r.number)
}

/** A round by its number, with its matches in play order. */
export async function roundWithMatches(db: Database, competitionId: number, number: number) {
  const round = await db
    .selectFrom('rounds')
    .select(['id', 'number'])
    .where('competition_id', '=', competitionId)
    .where('number', '=', number)
    .executeTakeFirst()
  if (!round) return undefined
  const matches = await db
    .selectFrom('matches')
    .select([
      'id',
      'number',
      'starts_at',
      'status',
      'home_squad_id',
      'away_squad_id',
      'winner_squad_id',
      'is_margin_game',
      'sixes',
    ])
    .where('round_id', '=', round.id)
    .orderBy('starts_at')
    .orderBy('number')
    .orderBy('id')
    .execute()
  return { round, matches }
}

/** The user's tips in the round, auto-tips on locked matches included (effective_tips). */
export const userRoundTips = (db: Database, userId: number, roundId: number) =>
  db
    .selectFrom('effective_tips')
    .select(['match_id', 'squad_id', 'margin', 'is_auto_tip'])
    .where('user_id', '=', userId)
    .where('round_id', '=', roundId)
    .execute()
