import { sql } from 'kysely'
import { PREPARED } from '../../../db/database.ts'
import type { Database } from '../../../db/schema.ts'

// The head-to-head's SQL (issue 31; reference contract/rules/head-to-head.ts). Every statement
// reads a bounded set: three users' memberships, two users' round_scores (one row per round each)
// and two users' effective tips on one round's matches, whatever the number of tippers.

/**
 * The caller and the two tippers as members of the league: one lookup per user in league_members'
 * key (league_id, user_id) and users' key. A user missing from the answer is not a member.
 */
export const membersOf = (db: Database, leagueId: number, userIds: number[]) =>
  db
    .selectFrom('league_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.team_name', 'u.first_name', 'u.last_name', 'u.deactivated_at'])
    .where('m.league_id', '=', leagueId)
    .where('m.user_id', 'in', userIds)
    .execute()

export interface RecordRow {
  round: number
  complete: boolean
  a_points: number
  a_margin: number
  b_points: number
  b_margin: number
  winner: 'a' | 'b' | 'draw' | null
  a_won: number
  b_won: number
  drawn: number
  a_total_points: number
  a_total_margin: number
  b_total_points: number
  b_total_margin: number
}

/**
 * The rounds from the league's start round that have begun and both users have a score in, each with the
 * winner once the round is complete (GAME_RULES "Ranking": points, then the smaller margin), and
 * the record's totals repeated on every row (window aggregates over the at most ~20 rounds).
 * Plan: round_scores is partitioned by round with each partition keyed (user_id, round_id), so
 * `user_id IN (a, b)` is two index probes a partition; rounds by its (competition_id, number) key.
 */
export async function record(
  db: Database,
  p: { competitionId: number; startRound: number; a: number; b: number },
): Promise<RecordRow[]> {
  const res = await sql<RecordRow>`${PREPARED}
    WITH pair AS (
      SELECT r.number AS round, r.status = 'complete' AS complete,
        max(rs.points) FILTER (WHERE rs.user_id = ${p.a}) AS a_points,
        max(rs.margin) FILTER (WHERE rs.user_id = ${p.a}) AS a_margin,
        max(rs.points) FILTER (WHERE rs.user_id = ${p.b}) AS b_points,
        max(rs.margin) FILTER (WHERE rs.user_id = ${p.b}) AS b_margin
      FROM round_scores rs
      JOIN rounds r ON r.id = rs.round_id
      WHERE rs.user_id IN (${p.a}, ${p.b})
        AND rs.competition_id = ${p.competitionId}
        AND r.competition_id = ${p.competitionId}
        AND r.number >= ${p.startRound}
        -- a round not yet begun is all zeros for everyone
        AND r.status <> 'scheduled'
      GROUP BY r.number, r.status
      -- both were counted in the round
      HAVING count(DISTINCT rs.user_id) = 2
    ),
    judged AS (
      SELECT pair.*,
        CASE WHEN NOT complete THEN NULL
             WHEN a_points > b_points THEN 'a'
             WHEN a_points < b_points THEN 'b'
             WHEN a_margin < b_margin THEN 'a'
             WHEN a_margin > b_margin THEN 'b'
             ELSE 'draw' END AS winner
      FROM pair
    )
    SELECT round, complete, a_points, a_margin, b_points, b_margin, winner,
      (count(*) FILTER (WHERE winner = 'a') OVER ())::int AS a_won,
      (count(*) FILTER (WHERE winner = 'b') OVER ())::int AS b_won,
      (count(*) FILTER (WHERE winner = 'draw') OVER ())::int AS drawn,
      (sum(a_points) OVER ())::int AS a_total_points,
      (sum(a_margin) OVER ())::int AS a_total_margin,
      (sum(b_points) OVER ())::int AS b_total_points,
      (sum(b_margin) OVER ())::int AS b_total_margin
    FROM judged
    ORDER BY round
  `.execute(db)
  return res.rows
}

export interface TipsRow {
  round_exists: boolean
  match_id: number | null
  home_squad_id: number
  away_squad_id: number
  winner_squad_id: number | null
  is_margin_game: boolean
  sixes: number | null
  a_squad: number | null
  a_margin: number | null
  a_auto: boolean | null
  b_squad: number | null
  b_margin: number | null
  b_auto: boolean | null
  /** Tipped alike: same squad, and on the margin game the same sixes. */
  agreed: boolean
}

/**
 * The two users' effective tips (their own, or the derived auto-tip) on the round's COMPLETED
 * matches only: a tip on a match not yet complete is never read here, so it cannot be shown.
 * A round that exists but has no completed match gives one row with match_id NULL; an unknown
 * round gives none. Plan: rounds by (competition_id, number), its matches by round, then per
 * match and user the tips key (user_id, match_id) and competition_registrations' key, as the
 * effective_tips view joins them (two users, a handful of matches).
 */
export async function roundTips(
  db: Database,
  p: { competitionId: number; round: number; a: number; b: number },
): Promise<TipsRow[]> {
  const res = await sql<TipsRow>`${PREPARED}
    SELECT true AS round_exists, m.id AS match_id, m.home_squad_id, m.away_squad_id,
      m.winner_squad_id, m.is_margin_game, m.sixes,
      ta.squad_id AS a_squad, ta.margin AS a_margin, ta.is_auto_tip AS a_auto,
      tb.squad_id AS b_squad, tb.margin AS b_margin, tb.is_auto_tip AS b_auto,
      coalesce(ta.squad_id = tb.squad_id
        AND (NOT m.is_margin_game OR ta.margin IS NOT DISTINCT FROM tb.margin), false) AS agreed
    FROM rounds r
    LEFT JOIN matches m ON m.round_id = r.id AND m.status = 'complete'
    LEFT JOIN effective_tips ta
      ON ta.match_id = m.id AND ta.round_id = m.round_id AND ta.user_id = ${p.a}
    LEFT JOIN effective_tips tb
      ON tb.match_id = m.id AND tb.round_id = m.round_id AND tb.user_id = ${p.b}
    WHERE r.competition_id = ${p.competitionId} AND r.number = ${p.round}
    ORDER BY m.starts_at, m.number, m.id
  `.execute(db)
  return res.rows
}
