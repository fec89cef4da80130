import { sql } from 'kysely'
import { PREPARED } from '../../db/database.ts'
import type { Database } from '../../db/schema.ts'

/** One tipper's part of seasonReads. */
export interface SeasonRead {
  user_id: number
  scores_version: number
  covered: number | null
  history_version: string | null
  stale_from: number | null
  active: boolean | null
  registered_us: number | null
  /** [round number, points, margin, bonus, not counted], by round. */
  scores: [number, number, number, number, number][] | null
  /** [match id, squad, margin, stored auto-tip]. */
  tips: [number, number, number | null, boolean][] | null
}

/**
 * Everything of each tipper that My season reads, in one statement for the tippers whose requests
 * arrived together (decision 034: one statement a request; decision 037: one for all the requests
 * of a turn of the event loop, service.ts batches them): the competition's scores version and
 * rank-history state (which say what of the shared, kept data is current), whether the tipper is
 * active and when they registered, their stored round scores (round number, points, margin,
 * bonus, correct tips that did not count) and their own tips on the competition's matches. The
 * numbers are then counted in memory (service.ts) against the competition's completed matches
 * kept per scores version (matches.ts); the reference is contract/rules/season.ts
 * `seasonNumbers`, and test/season.property.test.ts holds them equal.
 *
 * Plan (checked as the generic plan a prepared statement settles on): competitions and
 * season_history_state by primary key, then for each tipper of the batch (the unnest, one row
 * each): users and competition_registrations by primary key; for each of the competition's
 * rounds, its own round_scores partition by its key (user_id, round_id) and tips by
 * tips_round_user (round_id, user_id): about 20 probes of each a season and tipper.
 * Bounded by the batch's own rows whatever the number of tippers.
 */
export async function seasonReads(
  db: Database,
  competitionId: number,
  userIds: readonly number[],
): Promise<SeasonRead[]> {
  const res = await sql<SeasonRead>`${PREPARED}
    SELECT me.id AS user_id, c.scores_version, s.covered_through AS covered,
      s.version::text AS history_version,
      (SELECT min(x.from_round) FROM season_history_stale x
        WHERE x.competition_id = c.id) AS stale_from,
      (SELECT u.deactivated_at IS NULL FROM users u WHERE u.id = me.id) AS active,
      (SELECT (extract(epoch FROM cr.registered_at) * 1000000)::float8
        FROM competition_registrations cr
        WHERE cr.competition_id = c.id AND cr.user_id = me.id) AS registered_us,
      (SELECT json_agg(json_build_array(r.number, rs.points, rs.margin, rs.bonus,
          rs.correct - rs.counted) ORDER BY r.number)
        FROM rounds r
        CROSS JOIN LATERAL (
          -- OFFSET 0 keeps the round a parameter of the partitions' scan: each round reads only
          -- its own partition (pruned at run time), not every competition's partitions
          SELECT rs.points, rs.margin, rs.bonus, rs.correct, rs.counted FROM round_scores rs
          WHERE rs.round_id = r.id AND rs.user_id = me.id AND rs.competition_id = c.id
          OFFSET 0
        ) rs
        WHERE r.competition_id = c.id) AS scores,
      (SELECT json_agg(json_build_array(t.match_id, t.squad_id, t.margin, t.is_auto_tip))
        FROM tips t
        WHERE t.user_id = me.id
          AND t.round_id IN (SELECT r.id FROM rounds r WHERE r.competition_id = c.id)) AS tips
    FROM competitions c
    LEFT JOIN season_history_state s ON s.competition_id = c.id
    CROSS JOIN unnest(${userIds}::int[]) AS me(id)
    WHERE c.id = ${competitionId}
  `.execute(db)
  return res.rows
}

/**
 * The competition's completed matches in play order: one scan of matches by competition (a
 * season has well under a hundred), once per competition and scores version (matches.ts keeps it).
 */
export async function completedMatchRows(db: Database, competitionId: number) {
  const res = await sql<{
    id: number
    round: number
    round_id: number
    home_squad_id: number
    away_squad_id: number
    winner_squad_id: number | null
    is_margin_game: boolean
    sixes: number | null
    starts_us: number
  }>`
    SELECT m.id, r.number AS round, m.round_id, m.home_squad_id, m.away_squad_id,
      m.winner_squad_id, m.is_margin_game, m.sixes,
      (extract(epoch FROM m.starts_at) * 1000000)::float8 AS starts_us
    FROM matches m JOIN rounds r ON r.id = m.round_id
    WHERE m.competition_id = ${competitionId} AND m.status = 'complete'
    ORDER BY m.starts_at, m.number, m.id
  `.execute(db)
  return res.rows
}

/**
 * The stored round scores (what scoring wrote, decision 004) of each of `userIds`, each round's
 * number with them: points, the bonus, and correct tips that did not count (only an auto-tip can
 * be one), by user then round. One statement for the tippers whose requests arrived together
 * (league.ts batches them, decision 037). Plan (the generic plan): the competition's rounds, each
 * probing only its own round_scores partition (pruned at run time, as in seasonReads) by its key
 * (user_id, round_id) for the batch's tippers, then users by primary key. At 20 tippers of the
 * 100,000 bench: 291 buffers, against 475 when every partition of both competitions was probed.
 */
export async function usersRoundScores(
  db: Database,
  competitionId: number,
  userIds: readonly number[],
) {
  const res = await sql<{
    user_id: number
    number: number
    points: number
    margin: number
    bonus: number
    not_counted: number
    active: boolean
  }>`${PREPARED}
    SELECT rs.user_id, r.number, rs.points, rs.margin, rs.bonus,
      (rs.correct - rs.counted)::int AS not_counted, u.deactivated_at IS NULL AS active
    FROM rounds r
    CROSS JOIN LATERAL (
      -- OFFSET 0 keeps the round a parameter of the partitions' scan (see seasonReads)
      SELECT rs.user_id, rs.points, rs.margin, rs.bonus, rs.correct, rs.counted
      FROM round_scores rs
      WHERE rs.round_id = r.id AND rs.user_id = ANY(${userIds}::int[])
        AND rs.competition_id = ${competitionId}
      OFFSET 0
    ) rs
    JOIN users u ON u.id = rs.user_id
    WHERE r.competition_id = ${competitionId}
    ORDER BY rs.user_id, r.number
  `.execute(db)
  return res.rows
}

/**
 * Each round with a completed match after round `after`: how many ranked tippers it has, their
 * points together and the most any of them scored. Rounds the season history covers are read
 * from it (history.ts); this counts only a round re-scored since, in the seconds before the
 * scheduler rebuilds it. Ranked is registered and active (GAME_RULES "Who is ranked"): the few
 * deactivated registrations are left out by a hashed subplan rather than a join of a million
 * standings rows.
 *
 * Each round is counted from its own round_scores partition (the lateral's round id prunes the
 * rest at run time), one after another on one core. A join of rounds to round_scores scanned
 * every partition of both competitions, on parallel workers, to keep one round's rows: at a
 * million tippers 0.9-1.3 s, against 0.2-0.3 s (bench/README.md, 2026-11-27 23:20), on the first
 * My season request after each result, which every reader arriving meanwhile waited for.
 */
export async function roundStats(db: Database, competitionId: number, after: number) {
  const res = await sql<{
    number: number
    tippers: number
    total: number
    best: number
  }>`
    WITH played AS MATERIALIZED (
      SELECT r.id, r.number FROM rounds r
      WHERE r.competition_id = ${competitionId} AND r.number > ${after}
        AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
    )
    SELECT p.number, s.tippers, s.total, s.best
    FROM played p
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS tippers, coalesce(sum(rs.points), 0)::int AS total,
        coalesce(max(rs.points), 0)::int AS best
      FROM round_scores rs
      WHERE rs.round_id = p.id
        AND rs.user_id NOT IN (
          SELECT u.id FROM users u
          JOIN competition_registrations cr ON cr.user_id = u.id AND cr.competition_id = ${competitionId}
          WHERE u.deactivated_at IS NOT NULL)
    ) s
    -- a round with no ranked tipper has no row, as in a GROUP BY
    WHERE s.tippers > 0
    ORDER BY p.number
  `.execute(db)
  return res.rows
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

// My season's rank history (issue 31; docs/decisions/021-season-rank-history.md): per round, the
// ranked tippers (registered and active) at each cumulative (points, margin) through the round,
// and at each number of points in the round (migration 2026-11-27T0200). Scoring appends the
// first round it re-scored to season_history_stale in its own transaction; this job, run by the
// scheduler, rebuilds the history from there, set-based, off the result's path. Registrations and
// (re)activations change it themselves through season_history_delta().

/** Only the sort of a correction's rebuild (users x rounds re-scored) needs more than the default. */
const HISTORY_WORK_MEM = '256MB'

/** Competitions whose history is stale or was never built. */
export async function historyDue(db: Database): Promise<number[]> {
  const due = await sql<{ id: number }>`
    SELECT c.id FROM competitions c
    WHERE NOT EXISTS (SELECT 1 FROM season_history_state s WHERE s.competition_id = c.id)
       OR EXISTS (SELECT 1 FROM season_history_stale x WHERE x.competition_id = c.id)
    ORDER BY c.id
  `.execute(db)
  return due.rows.map((r) => r.id)
}

/**
 * Rebuilds one competition's history in the caller's transaction (READ COMMITTED); false when
 * another process holds it or nothing is stale:
 * 1. its state row, FOR UPDATE: registrations and (re)activations wait here for the few hundred
 *    milliseconds this takes, so each one either committed before (and is in what is counted) or
 *    applies its change to what this writes;
 * 2. the stale marks it is answering (marks appended meanwhile stay for the next pass);
 * 3. the scores tables in ACCESS SHARE, in the order a scoring swap takes them exclusively, so the
 *    two can wait for each other but never deadlock; a swap waits for this transaction;
 * 4. rounds from the first stale one to the last played one counted again, one statement each.
 */
export async function rebuildHistoryOf(trx: Database, competitionId: number): Promise<boolean> {
  const created = await sql<{ ok: number }>`
    INSERT INTO season_history_state (competition_id, covered_through) VALUES (${competitionId}, 0)
    ON CONFLICT (competition_id) DO NOTHING RETURNING 1 AS ok
  `.execute(trx)
  const state = await sql<{ covered_through: number }>`
    SELECT covered_through FROM season_history_state WHERE competition_id = ${competitionId}
    FOR UPDATE SKIP LOCKED
  `.execute(trx)
  if (state.rows.length === 0) return false
  const marks = await sql<{ id: string; from_round: number }>`
    SELECT id, from_round FROM season_history_stale WHERE competition_id = ${competitionId}
  `.execute(trx)
  if (created.rows.length === 0 && marks.rows.length === 0) return false
  const from = created.rows.length > 0 ? 1 : Math.min(...marks.rows.map((m) => m.from_round))

  await sql`LOCK TABLE round_scores, standings IN ACCESS SHARE MODE`.execute(trx)
  await sql`SELECT set_config('work_mem', ${HISTORY_WORK_MEM}, true)`.execute(trx)
  const last = (
    await sql<{ last: number }>`
      SELECT coalesce(max(r.number), 0)::int AS last FROM rounds r
      WHERE r.competition_id = ${competitionId}
        AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
    `.execute(trx)
  ).rows[0]!.last

  await sql`DELETE FROM season_history
    WHERE competition_id = ${competitionId} AND round_number >= ${from}`.execute(trx)
  await sql`DELETE FROM season_round_points
    WHERE competition_id = ${competitionId} AND round_number >= ${from}`.execute(trx)
  if (from <= last) {
    await countCumulative(trx, competitionId, from, last)
    await countRoundPoints(trx, competitionId, from, last)
  }
  await sql`UPDATE season_history_state SET covered_through = ${last}, version = version + 1
    WHERE competition_id = ${competitionId}`.execute(trx)
  await sql`DELETE FROM season_history_stale
    WHERE id = ANY(${marks.rows.map((m) => m.id)}::bigint[])`.execute(trx)
  return true
}

/**
 * Each round `from`..`last`: ranked tippers at each cumulative (points, margin) through it. The
 * standings hold the totals through `last` (rounds after it have no completed match, so nothing
 * in them); each earlier round's is the total less the rounds after it, a running sum per tipper
 * from `last` backwards. After a result in the last round that is one GROUP BY of the
 * competition's standings partition (a sequential scan, about a million rows); a correction of
 * round r also reads the partitions of rounds r+1..last, each joined on its primary key
 * (user_id, round_id). A round a tipper has no row in adds nothing for them.
 */
async function countCumulative(trx: Database, competitionId: number, from: number, last: number) {
  if (from === last) {
    await sql`INSERT INTO season_history (competition_id, round_number, points, margin, n)
      SELECT ${competitionId}, ${last}, total_points, total_margin, count(*)::int
      FROM standings WHERE competition_id = ${competitionId} AND active
      GROUP BY total_points, total_margin`.execute(trx)
    return
  }
  await sql`
    INSERT INTO season_history (competition_id, round_number, points, margin, n)
    WITH st AS (
      SELECT user_id, total_points, total_margin FROM standings
      WHERE competition_id = ${competitionId} AND active
    ),
    later AS (
      SELECT id, number FROM rounds
      WHERE competition_id = ${competitionId} AND number > ${from} AND number <= ${last}
    ),
    steps AS (
      SELECT user_id, ${last}::int AS number, total_points AS p, total_margin AS m FROM st
      UNION ALL
      SELECT st.user_id, later.number - 1, -coalesce(rs.points, 0), -coalesce(rs.margin, 0)
      FROM st CROSS JOIN later
      LEFT JOIN round_scores rs ON rs.round_id = later.id AND rs.user_id = st.user_id
        AND rs.competition_id = ${competitionId}
    ),
    cum AS (
      SELECT number, sum(p) OVER w AS points, sum(m) OVER w AS margin FROM steps
      WINDOW w AS (PARTITION BY user_id ORDER BY number DESC)
    )
    SELECT ${competitionId}, number, points::int, margin::int, count(*)::int FROM cum
    GROUP BY number, points, margin
  `.execute(trx)
}

/**
 * Each round `from`..`last`: ranked tippers at each number of points in it, from the round's
 * partition joined on its primary key to the ranked tippers of the standings (a merge join in
 * user order at a million).
 */
async function countRoundPoints(trx: Database, competitionId: number, from: number, last: number) {
  await sql`
    INSERT INTO season_round_points (competition_id, round_number, points, n)
    SELECT ${competitionId}, r.number, coalesce(rs.points, 0), count(*)::int
    FROM standings st
    CROSS JOIN rounds r
    LEFT JOIN round_scores rs ON rs.round_id = r.id AND rs.user_id = st.user_id
      AND rs.competition_id = ${competitionId}
    WHERE st.competition_id = ${competitionId} AND st.active
      AND r.competition_id = ${competitionId} AND r.number BETWEEN ${from} AND ${last}
    GROUP BY r.number, coalesce(rs.points, 0)
  `.execute(trx)
}

/** Every stored group of the competition's history: cumulative ('h') and round points ('p'). */
export async function historyGroupRows(db: Database, competitionId: number) {
  const res = await sql<{
    kind: 'h' | 'p'
    round: number
    points: number
    margin: number
    n: number
  }>`
    SELECT 'h' AS kind, round_number AS round, points, margin, n FROM season_history
    WHERE competition_id = ${competitionId}
    UNION ALL
    SELECT 'p', round_number, points, 0, n FROM season_round_points
    WHERE competition_id = ${competitionId}
    ORDER BY 1, 2, 3 DESC, 4
  `.execute(db)
  return res.rows
}

/** The rounds from `startRound` with a completed match (the league chart's rounds). */
export async function leaguePlayedRounds(db: Database, competitionId: number, startRound: number) {
  const res = await sql<{ number: number }>`
    SELECT r.number FROM rounds r
    WHERE r.competition_id = ${competitionId} AND r.number >= ${startRound}
      AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
    ORDER BY r.number
  `.execute(db)
  return res.rows.map((r) => r.number)
}
