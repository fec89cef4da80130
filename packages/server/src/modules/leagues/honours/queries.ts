import { sql } from 'kysely'
import type { Lifecycle } from '@tipping/contract/predictions'
import type { Database } from '../../../db/schema.ts'

// Issue 31 "Leagues with a memory": a league's round honours, the members ranked first on each
// completed round's week ladder from the league's start round. The rule is the week ladder's
// (leagues/queries.ts ladderPage: members whose account is active, ranked by RANK() over points
// descending then margin ascending), counting the ranked tippers only: members with a score row
// for the round (registered for the competition). Reference: contract rules/honours.ts
// roundHonours; test/league-honours.property.test.ts holds both statements below equal to it and
// to the week ladder's first places.

/** One winner of one round, in user order within the round. */
export interface HonourRow {
  round: number
  user_id: number
  points: number
  margin: number
  winner_count: number
  team_name: string | null
  first_name: string
  last_name: string
}

export interface HonoursQuery {
  leagueId: number
  competitionId: number
  startRound: number
  /** Winners listed per round (all of them are counted). */
  namesMax: number
}

/**
 * Members above which the winners are found by walking each round's ranking instead of scoring
 * every member: a member join costs one probe per member and round (a 100,000-member league:
 * 1.5 million probes a season), the walk a few per round.
 */
export const HONOURS_WALK_FROM = 2000

/** How far down a round's ranking the walk looks for a member before it joins them all. */
export const HONOURS_WALK_DEPTH = 5000

/**
 * For a league of up to HONOURS_WALK_FROM members: every member's score in every completed round,
 * ranked within the round. Plan: league_members' primary key (league_id, user_id) gives the
 * members, each probes the partitions' primary key (user_id, round_id) of round_scores.
 */
export async function honoursByMembers(db: Database, q: HonoursQuery): Promise<HonourRow[]> {
  const res = await sql<HonourRow>`
    WITH played AS (
      SELECT id, number FROM rounds
      WHERE competition_id = ${q.competitionId} AND status = 'complete' AND number >= ${q.startRound}
    ),
    scored AS (
      SELECT p.number AS round, rs.user_id, rs.points, rs.margin,
        RANK() OVER (PARTITION BY p.number ORDER BY rs.points DESC, rs.margin ASC) AS league_rank
      FROM league_members m
      JOIN users active ON active.id = m.user_id AND active.deactivated_at IS NULL
      JOIN round_scores rs ON rs.user_id = m.user_id AND rs.competition_id = ${q.competitionId}
      JOIN played p ON p.id = rs.round_id
      WHERE m.league_id = ${q.leagueId}
    ),
    firsts AS (
      SELECT s.*, count(*) OVER (PARTITION BY s.round)::int AS winner_count,
        row_number() OVER (PARTITION BY s.round ORDER BY s.user_id) AS nth
      FROM scored s WHERE s.league_rank = 1
    )
    SELECT f.round, f.user_id, f.points, f.margin, f.winner_count,
      u.team_name, u.first_name, u.last_name
    FROM firsts f JOIN users u ON u.id = f.user_id
    WHERE f.nth <= ${q.namesMax}
    ORDER BY f.round, f.user_id
  `.execute(db)
  return res.rows
}

/**
 * For a big league: each round's ranking (round_scores.position orders everyone registered by
 * points, margin and registration; rank is shared by equal points and margin, decision 010) is
 * walked from the top through the partition's (round_id, position) index, probing league_members'
 * primary key, until the first active member: that member's rank is the league's best. When no
 * member is in the round's first HONOURS_WALK_DEPTH places (a league whose members all rank low)
 * the members are joined as above, for that round only. The winners are then the members within
 * the best rank's group of positions, found through the same index: bounded by the size of that
 * group in the whole competition, not by the league's. So a round costs at most
 * HONOURS_WALK_DEPTH + the group's size probes, or one per member when it falls back.
 */
export async function honoursByWalk(
  db: Database,
  q: HonoursQuery & { depth: number },
): Promise<HonourRow[]> {
  const res = await sql<HonourRow>`
    WITH played AS (
      SELECT id, number FROM rounds
      WHERE competition_id = ${q.competitionId} AND status = 'complete' AND number >= ${q.startRound}
    ),
    best AS (
      SELECT p.id, p.number,
        COALESCE(
          (SELECT rs.position FROM round_scores rs
             JOIN league_members m ON m.league_id = ${q.leagueId} AND m.user_id = rs.user_id
             JOIN users active ON active.id = rs.user_id AND active.deactivated_at IS NULL
           WHERE rs.round_id = p.id AND rs.position <= ${q.depth}
           ORDER BY rs.position LIMIT 1),
          (SELECT min(rs.position) FROM league_members m
             JOIN users active ON active.id = m.user_id AND active.deactivated_at IS NULL
             JOIN round_scores rs ON rs.user_id = m.user_id AND rs.round_id = p.id
           WHERE m.league_id = ${q.leagueId})
        ) AS position
      FROM played p
    ),
    groups AS (
      SELECT b.id, b.number, b.position, top.rank, top.points, top.margin,
        (SELECT nxt.position FROM round_scores nxt
          WHERE nxt.round_id = b.id AND nxt.position > b.position AND nxt.rank > top.rank
          ORDER BY nxt.position LIMIT 1) AS next_position
      FROM best b
      JOIN round_scores top ON top.round_id = b.id AND top.position = b.position
    ),
    firsts AS (
      SELECT g.number AS round, rs.user_id, rs.points, rs.margin,
        count(*) OVER (PARTITION BY g.number)::int AS winner_count,
        row_number() OVER (PARTITION BY g.number ORDER BY rs.user_id) AS nth
      FROM groups g
      JOIN round_scores rs ON rs.round_id = g.id AND rs.position >= g.position
        AND (g.next_position IS NULL OR rs.position < g.next_position) AND rs.rank = g.rank
      JOIN league_members m ON m.league_id = ${q.leagueId} AND m.user_id = rs.user_id
      JOIN users active ON active.id = rs.user_id AND active.deactivated_at IS NULL
    )
    SELECT f.round, f.user_id, f.points, f.margin, f.winner_count,
      u.team_name, u.first_name, u.last_name
    FROM firsts f JOIN users u ON u.id = f.user_id
    WHERE f.nth <= ${q.namesMax}
    ORDER BY f.round, f.user_id
  `.execute(db)
  return res.rows
}

/** The competition's rounds and the state of their matches: what remainingChances reads. */
export async function seasonLeft(db: Database, competitionId: number) {
  const [rounds, matches] = await Promise.all([
    sql<{ number: number; is_golden_week: boolean }>`
      SELECT r.number, (r.number = c.golden_week_round) IS TRUE AS is_golden_week
      FROM rounds r JOIN competitions c ON c.id = r.competition_id
      WHERE r.competition_id = ${competitionId}`.execute(db),
    sql<{ round_number: number; status: Lifecycle; is_margin_game: boolean }>`
      SELECT r.number AS round_number, m.status, m.is_margin_game
      FROM matches m JOIN rounds r ON r.id = m.round_id
      WHERE m.competition_id = ${competitionId}`.execute(db),
  ])
  return {
    rounds: rounds.rows.map((r) => ({ number: r.number, isGoldenWeek: r.is_golden_week })),
    matches: matches.rows.map((m) => ({
      roundNumber: m.round_number,
      status: m.status,
      isMarginGame: m.is_margin_game,
    })),
  }
}
