import { sql, type RawBuilder } from 'kysely'
import { type RoundNumber, asRoundNumber } from '@tipping/contract/ids'
import type { Lifecycle } from '@tipping/contract/predictions'
import type { Database } from '../../db/schema.ts'

/**
 * Every round of the competition with what its matches' results are (for the most points each
 * round could have given) and whether it is the Golden Week.
 */
export const roundResults = async (db: Database, competitionId: number) =>
  (
    await sql<{
      number: number
      golden: boolean
      matches: {
        id: number
        status: Lifecycle
        winnerSquadId: number | null
        isMarginGame: boolean
        sixes: number | null
      }[]
    }>`
    SELECT r.number, (r.number = c.golden_week_round) IS TRUE AS golden,
      coalesce(json_agg(json_build_object('id', m.id, 'status', m.status,
        'winnerSquadId', m.winner_squad_id, 'isMarginGame', m.is_margin_game, 'sixes', m.sixes)
        ORDER BY m.id) FILTER (WHERE m.id IS NOT NULL), '[]') AS matches
    FROM rounds r
    JOIN competitions c ON c.id = r.competition_id
    LEFT JOIN matches m ON m.round_id = r.id
    WHERE r.competition_id = ${competitionId}
    GROUP BY r.number, c.golden_week_round
    ORDER BY r.number
  `.execute(db)
  ).rows

export const roundIdByNumber = async (db: Database, competitionId: number, number: RoundNumber) =>
  (
    await db
      .selectFrom('rounds')
      .select('id')
      .where('competition_id', '=', competitionId)
      .where('number', '=', number)
      .executeTakeFirst()
  )?.id

/** The first round not yet complete, else the last (spec 4: the default round). */
export const currentRoundNumber = async (
  db: Database,
  competitionId: number,
): Promise<RoundNumber | null> => {
  const open = await db
    .selectFrom('rounds')
    .select('number')
    .where('competition_id', '=', competitionId)
    .where('status', '<>', 'complete')
    .orderBy('number')
    .limit(1)
    .executeTakeFirst()
  if (open) return asRoundNumber(open.number)
  const last = await db
    .selectFrom('rounds')
    .select('number')
    .where('competition_id', '=', competitionId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst()
  return last ? asRoundNumber(last.number) : null
}

/**
 * The rank shown for stored scores: the stored rank counts every registered tipper, and the
 * deactivated ones strictly above (rank_gaps, migration 2026-11-25T0100) are taken off, so a
 * deactivation moves everyone below it at once without rewriting their rows. `roundId` null: the
 * overall rankings.
 */
const shownRank = (
  competitionId: number,
  roundId: number | null,
  rank: RawBuilder<unknown>,
  points: RawBuilder<unknown>,
  margin: RawBuilder<unknown>,
) => sql<number>`(${rank} - coalesce((SELECT sum(g.n) FROM rank_gaps g
    WHERE g.competition_id = ${competitionId} AND g.round_id = ${roundId ?? 0}
      AND (g.points > ${points} OR (g.points = ${points} AND g.margin < ${margin}))), 0))::int`

/**
 * Users' points in one round and their overall standing, for many users in one query (the
 * snapshot of requests arriving together).
 */
export async function snapshotScores(
  db: Database,
  competitionId: number,
  roundId: number,
  userIds: number[],
) {
  const res = await sql<{
    user_id: number
    round_points: number | null
    total_points: number | null
    rank: number | null
  }>`
    SELECT u.user_id, rs.points AS round_points, s.total_points,
      ${shownRank(competitionId, null, sql`s.rank`, sql`s.total_points`, sql`s.total_margin`)} AS rank
    FROM unnest(${userIds}::int[]) AS u(user_id)
    LEFT JOIN round_scores rs ON rs.round_id = ${roundId} AND rs.user_id = u.user_id
    LEFT JOIN standings s ON s.competition_id = ${competitionId} AND s.user_id = u.user_id
  `.execute(db)
  return res.rows
}

/**
 * GAME_RULES "Who is ranked": the tippers ranked, who are those registered and not deactivated
 * (the few deactivated through their partial index, not a join of every registration).
 */
export const registeredCount = async (db: Database, competitionId: number): Promise<number> => {
  const res = await sql<{ n: number }>`
    SELECT ((SELECT count(*) FROM competition_registrations WHERE competition_id = ${competitionId})
      - (SELECT count(*) FROM users u
         JOIN competition_registrations cr ON cr.user_id = u.id AND cr.competition_id = ${competitionId}
         WHERE u.deactivated_at IS NOT NULL))::int AS n
  `.execute(db)
  return res.rows[0]!.n
}

export const hasCompletedMatch = async (db: Database, competitionId: number) =>
  (await db
    .selectFrom('matches')
    .select('id')
    .where('competition_id', '=', competitionId)
    .where('status', '=', 'complete')
    .limit(1)
    .executeTakeFirst()) !== undefined

/**
 * Ranking rows of active tippers: overall from `standings`, or one round from `round_scores` with
 * the totals beside it. Names and whether a tipper is active come from standings' copies of them
 * (migration 2026-11-24T0300), not from users: a page is then one index range, not 21 lookups.
 */
function rankingRows(db: Database, competitionId: number, roundId: number | null) {
  if (roundId === null)
    return db
      .selectFrom('standings as s')
      .select([
        shownRank(competitionId, null, sql`s.rank`, sql`s.total_points`, sql`s.total_margin`).as(
          'rank',
        ),
        's.position',
        's.total_points as points',
        's.total_margin as margin',
        's.total_points',
        's.total_margin',
        's.user_id as id',
        's.team_name',
        's.first_name',
        's.last_name',
      ])
      .where('s.competition_id', '=', competitionId)
      .where('s.active', '=', true)
  return db
    .selectFrom('round_scores as s')
    .innerJoin('standings as st', (j) =>
      j
        .onRef('st.user_id', '=', 's.user_id')
        // a value, not s.competition_id: the planner then reads one standings partition
        .on('st.competition_id', '=', competitionId),
    )
    .select([
      shownRank(competitionId, roundId, sql`s.rank`, sql`s.points`, sql`s.margin`).as('rank'),
      's.position',
      's.points',
      's.margin',
      'st.total_points',
      'st.total_margin',
      's.user_id as id',
      'st.team_name',
      'st.first_name',
      'st.last_name',
    ])
    .where('s.round_id', '=', roundId)
    .where('st.active', '=', true)
}

/** The ranking rows of several users (each caller's own row), one query. */
export const ownRankingRows = (
  db: Database,
  competitionId: number,
  roundId: number | null,
  userIds: number[],
) =>
  rankingRows(db, competitionId, roundId)
    .where('s.user_id', '=', sql<number>`ANY(${userIds}::int[])`)
    .execute()

/**
 * Pages of the rankings, one per offset, in one query (requests arriving together), each as the
 * JSON text of its rows exactly as the browser gets them (RankingRow: same fields, same order).
 * The database writes the JSON: a page is 20 rows of 9 fields, and parsing them into objects,
 * mapping them and serialising them again was most of the API's work on a page it had not
 * cached (bench/README.md). A page is the index range after the stored position `offset` (the
 * scoring job writes positions), so any page costs the same, unlike an OFFSET walk. Deactivated
 * tippers keep their positions but are left out, so such a page is short by them rather than
 * repeating rows of the next. `more`: a later page has rows.
 */
export async function rankingPagesJson(
  db: Database,
  competitionId: number,
  roundId: number | null,
  limit: number,
  offsets: number[],
): Promise<Map<number, { json: string; more: boolean }>> {
  const page = rankingRows(db, competitionId, roundId)
    .where('s.position', '>', sql<number>`o.off`)
    .orderBy('s.position')
    .limit(limit + 1)
  const res = await sql<{ off: number; json: string; more: boolean }>`
    SELECT o.off,
      '[' || coalesce(string_agg(p.row, ',' ORDER BY p.position)
        FILTER (WHERE p.position <= o.off + ${limit}), '') || ']' AS json,
      coalesce(bool_or(p.position > o.off + ${limit}), false) AS more
    FROM unnest(${offsets}::int[]) AS o(off)
    LEFT JOIN LATERAL (
      SELECT p.position, (
        SELECT row_to_json(r)::text FROM (SELECT
          coalesce(p.rank, 0) AS "rank", p.id AS "userId", p.team_name AS "teamName",
          p.first_name AS "firstName", left(p.last_name, 1) AS "lastNameInitial",
          p.points, p.total_points AS "totalPoints", p.margin, p.total_margin AS "totalMargin"
        ) r) AS row
      FROM (${page}) AS p
    ) AS p ON true
    GROUP BY o.off
  `.execute(db)
  return new Map(res.rows.map((r) => [r.off, { json: r.json, more: r.more }]))
}

/**
 * A page of a search through the rankings by team or tipper name (OFFSET: matches are few). Only
 * what a row shows is searched: the team name, or the name as `tipperName` writes it ("Jane S.",
 * which contains the first name). A whole last name is never shown, so matching it would tell a
 * searcher whose surname it is. The position index still orders the scan, stopping at a page.
 */
export async function searchRankings(
  db: Database,
  q: {
    competitionId: number
    roundId: number | null
    search: string
    offset: number
    limit: number
  },
) {
  const pattern = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const rows = await rankingRows(db, q.competitionId, q.roundId)
    .where((eb) =>
      eb.or([
        eb('team_name', 'ilike', pattern),
        eb(sql<string>`first_name || ' ' || left(last_name, 1) || '.'`, 'ilike', pattern),
      ]),
    )
    .orderBy('s.position')
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute()
  return { rows: rows.slice(0, q.limit), more: rows.length > q.limit }
}
