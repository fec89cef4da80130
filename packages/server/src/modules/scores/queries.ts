import { sql } from 'kysely'
import {
  CLEAN_SWEEP_BONUS,
  GOLDEN_WEEK_MULTIPLIER,
  POINTS_PER_TIP,
} from '@tipping/contract/constants'
import type { Database } from '../../db/schema.ts'

export const competitionBySport = (db: Database, sport: string) =>
  db
    .selectFrom('competitions')
    .select(['id', 'name', 'sport', 'golden_week_round'])
    .where('sport', '=', sport)
    .where('is_current', '=', true)
    .executeTakeFirst()

/**
 * GAME_RULES.md: the most points that could have been won in each round's completed matches,
 * bonus included once the round is over.
 */
export async function maxPointsByRound(db: Database, competitionId: number) {
  const res = await sql<{ number: number; max_points: number }>`
    SELECT r.number,
      (count(m.id) FILTER (WHERE m.status = 'complete' AND m.winner_squad_id IS NOT NULL) * ${POINTS_PER_TIP}
        * CASE WHEN r.number = c.golden_week_round THEN ${GOLDEN_WEEK_MULTIPLIER} ELSE 1 END
      + CASE WHEN count(m.id) > 0 AND bool_and(m.status = 'complete')
              AND count(m.id) FILTER (WHERE m.winner_squad_id IS NOT NULL) > 0
             THEN ${CLEAN_SWEEP_BONUS} ELSE 0 END)::int AS max_points
    FROM rounds r
    JOIN competitions c ON c.id = r.competition_id
    LEFT JOIN matches m ON m.round_id = r.id
    WHERE r.competition_id = ${competitionId}
    GROUP BY r.number, c.golden_week_round
    ORDER BY r.number
  `.execute(db)
  return res.rows
}

export const roundIdByNumber = async (db: Database, competitionId: number, number: number) =>
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
): Promise<number | null> => {
  const open = await db
    .selectFrom('rounds')
    .select('number')
    .where('competition_id', '=', competitionId)
    .where('status', '<>', 'complete')
    .orderBy('number')
    .limit(1)
    .executeTakeFirst()
  if (open) return open.number
  const last = await db
    .selectFrom('rounds')
    .select('number')
    .where('competition_id', '=', competitionId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst()
  return last?.number ?? null
}

export const roundScore = (db: Database, roundId: number, userId: number) =>
  db
    .selectFrom('round_scores')
    .select(['points', 'margin', 'rank'])
    .where('round_id', '=', roundId)
    .where('user_id', '=', userId)
    .executeTakeFirst()

export const standing = (db: Database, competitionId: number, userId: number) =>
  db
    .selectFrom('standings')
    .select(['total_points', 'total_margin', 'rank'])
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .executeTakeFirst()

export const registeredCount = async (db: Database, competitionId: number): Promise<number> => {
  const row = await db
    .selectFrom('competition_registrations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('competition_id', '=', competitionId)
    .executeTakeFirstOrThrow()
  return row.n
}

export const hasCompletedMatch = async (db: Database, competitionId: number) =>
  (await db
    .selectFrom('matches')
    .select('id')
    .where('competition_id', '=', competitionId)
    .where('status', '=', 'complete')
    .limit(1)
    .executeTakeFirst()) !== undefined

export interface RankingQuery {
  competitionId: number
  roundId: number | null
  search: string | null
  offset: number
  limit: number
  onlyUserId?: number
}

/**
 * One page of the rankings: overall from `standings`, or one round from `round_scores` with the
 * totals beside it. Fetches limit + 1 rows so the caller knows whether a next page exists.
 */
export async function rankingPage(db: Database, q: RankingQuery) {
  const pattern = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
  const base =
    q.roundId === null
      ? db
          .selectFrom('standings as s')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .select([
            's.rank',
            's.total_points as points',
            's.total_margin as margin',
            's.total_points',
            's.total_margin',
          ])
          .where('s.competition_id', '=', q.competitionId)
          .orderBy('s.rank')
          .orderBy('s.user_id')
      : db
          .selectFrom('round_scores as s')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .innerJoin('standings as st', (j) =>
            j
              .onRef('st.user_id', '=', 's.user_id')
              .onRef('st.competition_id', '=', 's.competition_id'),
          )
          .select(['s.rank', 's.points', 's.margin', 'st.total_points', 'st.total_margin'])
          .where('s.round_id', '=', q.roundId)
          .orderBy('s.points', 'desc')
          .orderBy('s.margin')
          .orderBy('s.user_id')
  let query = base
    .select(['u.id', 'u.team_name', 'u.first_name', 'u.last_name'])
    .where('u.deactivated_at', 'is', null)
  if (q.onlyUserId !== undefined) query = query.where('u.id', '=', q.onlyUserId)
  if (pattern) {
    query = query.where((eb) =>
      eb.or([
        eb('u.team_name', 'ilike', pattern),
        eb('u.first_name', 'ilike', pattern),
        eb('u.last_name', 'ilike', pattern),
      ]),
    )
  }
  return query
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute()
}
