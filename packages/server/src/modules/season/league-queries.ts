import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * One league's groups for My season's league charts (issue 31), in one statement: per round from
 * the league's start round with a completed match, how many of its ranked members (active, with a
 * score row for the round: the week ladder's count, leagues/queries.ts ladderPage) scored each
 * number of points ('p'), and how many stand at each (points, margin) summed from the start round
 * through it ('h'), ordered as history.ts groupsOf reads them. Reference: contract rules/season.ts
 * leagueSeason; test/season-league.property.test.ts holds the route equal to it.
 *
 * Plan and bound: league_members' primary key (league_id, user_id) gives the members, each probes
 * round_scores' primary key (user_id, round_id) per partition: members x rounds rows (a
 * 100,000-member public league: about 1.5 million a season), summed by a window per member and
 * grouped twice. The answer is a few thousand groups at most (distinct totals), kept by the caller
 * per league, scores version and member count, so the scan runs once per result or join, not per
 * request; a member's rank is then a binary search (history.ts rankIn).
 */
export async function leagueGroupRows(
  db: Database,
  q: { competitionId: number; leagueId: number; startRound: number },
) {
  const res = await sql<{
    kind: 'h' | 'p'
    round: number
    points: number
    margin: number
    n: number
  }>`
    WITH played AS (
      SELECT r.id, r.number FROM rounds r
      WHERE r.competition_id = ${q.competitionId} AND r.number >= ${q.startRound}
        AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status = 'complete')
    ),
    scored AS (
      SELECT p.number, rs.points,
        sum(rs.points) OVER w AS cum_points, sum(rs.margin) OVER w AS cum_margin
      FROM league_members m
      JOIN users active ON active.id = m.user_id AND active.deactivated_at IS NULL
      JOIN round_scores rs ON rs.user_id = m.user_id AND rs.competition_id = ${q.competitionId}
      JOIN played p ON p.id = rs.round_id
      WHERE m.league_id = ${q.leagueId}
      WINDOW w AS (PARTITION BY rs.user_id ORDER BY p.number)
    )
    SELECT 'h' AS kind, number AS round, cum_points::int AS points, cum_margin::int AS margin,
      count(*)::int AS n
    FROM scored GROUP BY number, cum_points, cum_margin
    UNION ALL
    SELECT 'p', number, points, 0, count(*)::int FROM scored GROUP BY number, points
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
