import { sql } from 'kysely'
import { PREPARED } from '../../../db/database.ts'
import type { Database } from '../../../db/schema.ts'

// The head-to-head's SQL (issue 31; reference contract/rules/head-to-head.ts): one statement per
// request (decision 034) that reads a bounded set whatever the number of tippers: the league and
// three users' memberships, two users' round_scores (one row per round each), their own tips on
// one round and their registrations. The round's completed matches, the same for every pair, are
// kept per scores version (season/matches.ts); the auto-tips are derived from them in memory.

type Member = [number, string | null, string, string, boolean]

export interface PairRead {
  scores_version: number
  /** null: no such league in the competition. */
  privacy: string | null
  start_round: number | null
  is_member: boolean
  /** Each of the two compared if a member of the league: [id, team name, first, last, active]. */
  member_a: Member | null
  member_b: Member | null
  /**
   * Their scores in the rounds from the league's start that have begun: [round, complete,
   * user, points, margin], by round.
   */
  scores: [number, boolean, number, number, number][] | null
  /** The round whose tips are compared (asked for, or the latest both have a score in). */
  round_id: number | null
  round: number | null
  /** Their own tips in that round: [user, match, squad, margin, stored auto-tip]. */
  tips: [number, number, number, number | null, boolean][] | null
  /** Their registrations: [user, registered at in microseconds since the epoch]. */
  registered: [number, number][] | null
}

/** One pair asked for: pairReads answers each with its PairRead. */
export interface PairAsk {
  leagueId: number
  caller: number
  a: number
  b: number
  round: number | null
}

/**
 * Plan (checked as PostgreSQL's generic plan, which a prepared statement settles on): for each
 * ask of the batch (the unnest, one row each; decision 037: the requests of one turn of the event
 * loop share one statement): leagues by its key; league_members' full key (league_id, user_id)
 * for the caller and each of the two; users by key; the competition's begun rounds, each probing
 * only its own round_scores partition by its key (user_id, round_id) for the two; tips by
 * tips_round_user (round_id, user_id); competition_registrations by its key (competition_id,
 * user_id). Answers in the order asked.
 */
export async function pairReads(
  db: Database,
  competitionId: number,
  asks: readonly PairAsk[],
): Promise<(PairRead & { i: number })[]> {
  const res = await sql<PairRead & { i: number }>`${PREPARED}
    SELECT k.i::int AS i, x.*
    FROM unnest(${asks.map((p) => p.leagueId)}::int[], ${asks.map((p) => p.caller)}::int[],
      ${asks.map((p) => p.a)}::int[], ${asks.map((p) => p.b)}::int[],
      ${asks.map((p) => p.round)}::int[]) WITH ORDINALITY AS k(league_id, caller, a, b, round, i)
    CROSS JOIN LATERAL (
    WITH lg AS (
      SELECT l.privacy, l.start_round FROM leagues l
      WHERE l.id = k.league_id AND l.competition_id = ${competitionId}
    ),
    begun AS (
      SELECT r.id, r.number, r.status = 'complete' AS complete FROM rounds r
      WHERE r.competition_id = ${competitionId}
        AND r.number >= (SELECT start_round FROM lg)
        -- a round not yet begun is all zeros for everyone
        AND r.status <> 'scheduled'
    ),
    pair AS (
      SELECT b.number, b.complete, rs.user_id, rs.points, rs.margin
      FROM begun b
      CROSS JOIN LATERAL (
        -- OFFSET 0 keeps the round a parameter of the partitions' scan, so each round reads
        -- only its own partition (pruned at run time), not every partition once per round
        SELECT rs.user_id, rs.points, rs.margin FROM round_scores rs
        WHERE rs.round_id = b.id AND rs.user_id IN (k.a, k.b)
          AND rs.competition_id = ${competitionId}
        OFFSET 0
      ) rs
    ),
    chosen AS (
      SELECT r.id, r.number FROM rounds r
      WHERE r.competition_id = ${competitionId}
        AND r.number = coalesce(k.round,
          -- the latest round both were counted in (one row each per round: the partitions' key)
          (SELECT max(number) FROM (
            SELECT number FROM pair GROUP BY number HAVING count(*) = 2) AS both_counted))
    )
    SELECT c.scores_version, lg.privacy, lg.start_round,
      EXISTS (SELECT 1 FROM league_members lm
        WHERE lm.league_id = k.league_id AND lm.user_id = k.caller) AS is_member,
      -- each of the two by the members' full key: a generic plan of "user_id IN (a, b)" reads
      -- the whole league's index range (100,000 entries in the public league)
      (SELECT json_build_array(u.id, u.team_name, u.first_name, u.last_name,
          u.deactivated_at IS NULL)
        FROM users u WHERE u.id = k.a AND EXISTS (SELECT 1 FROM league_members m
          WHERE m.league_id = k.league_id AND m.user_id = k.a)) AS member_a,
      (SELECT json_build_array(u.id, u.team_name, u.first_name, u.last_name,
          u.deactivated_at IS NULL)
        FROM users u WHERE u.id = k.b AND EXISTS (SELECT 1 FROM league_members m
          WHERE m.league_id = k.league_id AND m.user_id = k.b)) AS member_b,
      (SELECT json_agg(json_build_array(number, complete, user_id, points, margin)
          ORDER BY number, user_id)
        FROM pair) AS scores,
      (SELECT id FROM chosen) AS round_id,
      (SELECT number FROM chosen) AS round,
      (SELECT json_agg(json_build_array(t.user_id, t.match_id, t.squad_id, t.margin, t.is_auto_tip))
        FROM tips t
        WHERE t.round_id = (SELECT id FROM chosen) AND t.user_id IN (k.a, k.b)) AS tips,
      (SELECT json_agg(json_build_array(cr.user_id,
          (extract(epoch FROM cr.registered_at) * 1000000)::float8))
        FROM competition_registrations cr
        WHERE cr.competition_id = ${competitionId} AND cr.user_id IN (k.a, k.b)) AS registered
    FROM competitions c
    LEFT JOIN lg ON true
    WHERE c.id = ${competitionId}
    ) x
    ORDER BY k.i
  `.execute(db)
  return res.rows
}
