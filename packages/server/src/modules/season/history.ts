import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

// My season's rank history (issue 31; docs/decisions/021-season-rank-history.md): per round, the
// ranked tippers (registered and active) at each cumulative (points, margin) through the round,
// and at each number of points in the round (migration 2026-11-27T0200). Scoring appends the
// first round it re-scored to season_history_stale in its own transaction; this job, run by the
// scheduler, rebuilds the history from there, set-based, off the result's path. Registrations and
// (re)activations change it themselves through season_history_delta().

/** Only the sort of a correction's rebuild (users x rounds re-scored) needs more than the default. */
const HISTORY_WORK_MEM = '256MB'

/**
 * Rebuilds the stale part of every competition's history (a competition never built: all of it).
 * Safe with several processes: a competition's state row is taken FOR UPDATE SKIP LOCKED, so one
 * process builds it while the others pass it by. Returns how many competitions it rebuilt.
 */
export async function rebuildSeasonHistories(db: Database): Promise<number> {
  const due = await sql<{ id: number }>`
    SELECT c.id FROM competitions c
    WHERE NOT EXISTS (SELECT 1 FROM season_history_state s WHERE s.competition_id = c.id)
       OR EXISTS (SELECT 1 FROM season_history_stale x WHERE x.competition_id = c.id)
    ORDER BY c.id
  `.execute(db)
  let rebuilt = 0
  for (const { id } of due.rows)
    if (await db.transaction().execute((trx) => rebuildOne(trx, id))) rebuilt++
  return rebuilt
}

/**
 * One competition, in one transaction (READ COMMITTED):
 * 1. its state row, FOR UPDATE: registrations and (re)activations wait here for the few hundred
 *    milliseconds this takes, so each one either committed before (and is in what is counted) or
 *    applies its change to what this writes;
 * 2. the stale marks it is answering (marks appended meanwhile stay for the next pass);
 * 3. the scores tables in ACCESS SHARE, in the order a scoring swap takes them exclusively, so the
 *    two can wait for each other but never deadlock; a swap waits for this transaction;
 * 4. rounds from the first stale one to the last played one counted again, one statement each.
 */
async function rebuildOne(trx: Database, competitionId: number): Promise<boolean> {
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
  const from =
    created.rows.length > 0 ? 1 : Math.min(...marks.rows.map((m) => m.from_round))

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

/** The history's state as a read sees it: the rounds it covers and not stale, and its version. */
export async function historyState(db: Database, competitionId: number) {
  const res = await sql<{ covered: number; version: string; stale_from: number | null }>`
    SELECT s.covered_through AS covered, s.version::text AS version,
      (SELECT min(from_round) FROM season_history_stale x
        WHERE x.competition_id = ${competitionId}) AS stale_from
    FROM season_history_state s WHERE s.competition_id = ${competitionId}
  `.execute(db)
  const row = res.rows[0]
  if (!row) return { shownThrough: 0, version: '0' }
  return {
    shownThrough: row.stale_from === null ? row.covered : Math.min(row.covered, row.stale_from - 1),
    version: row.version,
  }
}

/** One round's groups, best first, each with the tippers in the groups before it. */
export interface RoundGroups {
  points: number[]
  margin: number[]
  before: number[]
  /** Ranked tippers in the cumulative groups (the rank history's). */
  ranked: number
  /** Ranked tippers in the round's points (equal to ranked once both are built). */
  tippers: number
  /** The round's own points: tippers together and the most any scored. */
  total: number
  best: number
}

/**
 * Every covered round's groups, from the two small tables in one statement (so one snapshot).
 * The caller keeps them per competition and version.
 */
export async function historyGroups(
  db: Database,
  competitionId: number,
): Promise<Map<number, RoundGroups>> {
  const res = await sql<{ kind: 'h' | 'p'; round: number; points: number; margin: number; n: number }>`
    SELECT 'h' AS kind, round_number AS round, points, margin, n FROM season_history
    WHERE competition_id = ${competitionId}
    UNION ALL
    SELECT 'p', round_number, points, 0, n FROM season_round_points
    WHERE competition_id = ${competitionId}
    ORDER BY 1, 2, 3 DESC, 4
  `.execute(db)
  const rounds = new Map<number, RoundGroups>()
  const of = (round: number) => {
    let g = rounds.get(round)
    if (!g) {
      g = { points: [], margin: [], before: [], ranked: 0, tippers: 0, total: 0, best: 0 }
      rounds.set(round, g)
    }
    return g
  }
  for (const r of res.rows) {
    const g = of(r.round)
    if (r.kind === 'h') {
      g.before.push(g.ranked)
      g.points.push(r.points)
      g.margin.push(r.margin)
      g.ranked += r.n
    } else {
      g.tippers += r.n
      g.total += r.points * r.n
      if (r.n > 0) g.best = Math.max(g.best, r.points)
    }
  }
  return rounds
}

/**
 * GAME_RULES "Ranking" from a round's groups: 1 + the ranked tippers strictly ahead of (points,
 * margin), more points or as many with a smaller margin (RANK()). A binary search over the groups,
 * which are in that order.
 */
export function rankIn(g: RoundGroups, points: number, margin: number): number {
  let lo = 0
  let hi = g.points.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const ahead = g.points[mid]! > points || (g.points[mid] === points && g.margin[mid]! < margin)
    if (ahead) lo = mid + 1
    else hi = mid
  }
  return 1 + (lo < g.points.length ? g.before[lo]! : g.ranked)
}
