import { sql } from 'kysely'
import type { RoundNumber } from '@tipping/contract/ids'
import type { ScoreGroup } from '@tipping/contract/rules/projections'
import type { Database } from '../../db/schema.ts'
import { projectedRounds } from '../scoring/service.ts'

// GAME_RULES "Live projections": everyone's projected totals, counted by (points, margin), for both
// sides of a live match at once. The projected rounds are the scorer's own statement
// (scoring/queries.ts projectedRounds); these only add the other rounds and count.

/** A live match as a rank lookup needs it; the live sixes are both innings' so far. */
export async function liveMatchFacts(db: Database, competitionId: number, matchId: number) {
  const res = await sql<{
    id: number
    round_id: number
    round_number: number
    status: string
    home_squad_id: number
    away_squad_id: number
    is_margin_game: boolean
    live_sixes: number | null
  }>`
    SELECT m.id, m.round_id, r.number AS round_number, m.status, m.home_squad_id,
      m.away_squad_id, m.is_margin_game,
      (SELECT sum((i->>'sixes')::int)::int FROM jsonb_array_elements(ls.innings::jsonb) i) AS live_sixes
    FROM matches m
    JOIN rounds r ON r.id = m.round_id
    LEFT JOIN live_scores ls ON ls.match_id = m.id
    WHERE m.id = ${matchId} AND m.competition_id = ${competitionId}
  `.execute(db)
  return res.rows[0]
}

export const scoresVersionOf = async (db: Database, competitionId: number): Promise<number> =>
  (
    await db
      .selectFrom('competitions')
      .select('scores_version')
      .where('id', '=', competitionId)
      .executeTakeFirstOrThrow()
  ).scores_version

type SideGroups = (ScoreGroup & { side: number })[]

/**
 * Every ranked tipper's projected season totals (GAME_RULES "Who is ranked": registered and
 * active), counted by (points, margin), for each side.
 */
export async function overallDistribution(
  db: Database,
  p: { competitionId: number; roundId: number; matchId: number; sides: number[]; sixes: number },
): Promise<SideGroups> {
  const rows = await projectedRounds(db, p)
  const res = await sql<ScoreGroup & { side: number }>`
    SELECT p.side, (p.others_points + p.points)::int AS points,
      (p.others_margin + p.margin)::int AS margin, count(*)::int AS count
    FROM (${rows}) p
    WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.user_id AND u.deactivated_at IS NOT NULL)
    GROUP BY 1, 2, 3
  `.execute(db)
  return res.rows
}

/**
 * A league's active members' projected totals from its start round, as its ladder sums them
 * (leagues/queries.ts ladderPage), counted by (points, margin), for each side. The live round
 * counts only from the start round on.
 */
export async function leagueDistribution(
  db: Database,
  p: {
    competitionId: number
    roundId: number
    roundNumber: number
    matchId: number
    sides: number[]
    sixes: number
    leagueId: number
    startRound: number
  },
): Promise<SideGroups> {
  const members = sql`
    SELECT m.user_id FROM league_members m
    JOIN users u ON u.id = m.user_id AND u.deactivated_at IS NULL
    WHERE m.league_id = ${p.leagueId}`
  const rows = await projectedRounds(db, { ...p, only: members })
  const counts = p.roundNumber >= p.startRound
  const res = await sql<ScoreGroup & { side: number }>`
    WITH stored AS (
      SELECT m.user_id,
        coalesce(sum(rs.points) FILTER (WHERE r.number >= ${p.startRound} AND r.id <> ${p.roundId}), 0)::int AS points,
        coalesce(sum(rs.margin) FILTER (WHERE r.number >= ${p.startRound} AND r.id <> ${p.roundId}), 0)::int AS margin,
        coalesce(sum(rs.points) FILTER (WHERE r.id = ${p.roundId}), 0)::int AS round_points,
        coalesce(sum(rs.margin) FILTER (WHERE r.id = ${p.roundId}), 0)::int AS round_margin
      FROM (${members}) m
      LEFT JOIN round_scores rs ON rs.user_id = m.user_id AND rs.competition_id = ${p.competitionId}
      LEFT JOIN rounds r ON r.id = rs.round_id
      GROUP BY m.user_id
    )
    SELECT p.side,
      (s.points + CASE WHEN ${counts}::boolean THEN p.points ELSE s.round_points END)::int AS points,
      (s.margin + CASE WHEN ${counts}::boolean THEN p.margin ELSE s.round_margin END)::int AS margin,
      count(*)::int AS count
    FROM stored s JOIN (${rows}) p ON p.user_id = s.user_id
    GROUP BY 1, 2, 3
  `.execute(db)
  return res.rows
}

/**
 * The user's stored numbers a projection starts from: the round's, the season's, and those of
 * each league whose ladder counts the round, summed from its start round as the ladder does.
 */
export async function storedStanding(
  db: Database,
  p: { competitionId: number; roundNumber: RoundNumber; userId: number },
) {
  const mine = await sql<{
    scores_version: number
    round_points: number
    round_margin: number
    total_points: number
    total_margin: number
  }>`
    SELECT c.scores_version,
      coalesce(rs.points, 0)::int AS round_points, coalesce(rs.margin, 0)::int AS round_margin,
      coalesce(s.total_points, 0)::int AS total_points, coalesce(s.total_margin, 0)::int AS total_margin
    FROM competitions c
    LEFT JOIN rounds r ON r.competition_id = c.id AND r.number = ${p.roundNumber}
    LEFT JOIN round_scores rs ON rs.round_id = r.id AND rs.user_id = ${p.userId}
    LEFT JOIN standings s ON s.competition_id = c.id AND s.user_id = ${p.userId}
    WHERE c.id = ${p.competitionId}
  `.execute(db)
  const leagues = await sql<{
    id: number
    name: string
    start_round: number
    points: number
    margin: number
  }>`
    SELECT l.id, l.name, l.start_round,
      coalesce(sum(rs.points) FILTER (WHERE r.number >= l.start_round), 0)::int AS points,
      coalesce(sum(rs.margin) FILTER (WHERE r.number >= l.start_round), 0)::int AS margin
    FROM league_members m
    JOIN leagues l ON l.id = m.league_id AND l.competition_id = ${p.competitionId}
      AND l.start_round <= ${p.roundNumber}
    LEFT JOIN round_scores rs ON rs.user_id = m.user_id AND rs.competition_id = ${p.competitionId}
    LEFT JOIN rounds r ON r.id = rs.round_id
    WHERE m.user_id = ${p.userId}
    GROUP BY l.id, l.name, l.start_round
    ORDER BY l.name, l.id
  `.execute(db)
  return { mine: mine.rows[0]!, leagues: leagues.rows }
}
