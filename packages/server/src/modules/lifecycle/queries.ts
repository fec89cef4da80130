import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export interface LockedMatch {
  id: number
  competition_id: number
  round_id: number
}

/**
 * Locks every match whose start has passed (status `active`). That is all a lockout writes: the
 * away-squad auto-tips of users with no tip follow from the status (the effective_tips view,
 * GAME_RULES.md: auto-tip), so locking a match is as quick for a million tippers as for ten.
 * SKIP LOCKED keeps two schedulers from locking the same match. locked_at keeps the instant, to
 * the millisecond, by the server's clock (shown on the match: decision 027).
 */
export async function lockDueMatches(db: Database, now: Date, batch = 50): Promise<LockedMatch[]> {
  const res = await sql<LockedMatch>`
    WITH due AS (
      SELECT id FROM matches
      WHERE status = 'scheduled' AND starts_at <= ${now}::timestamptz
      ORDER BY starts_at
      LIMIT ${batch}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE matches m SET status = 'active', updated_at = ${now}::timestamptz,
      locked_at = ${now}::timestamptz
    FROM due WHERE m.id = due.id
    RETURNING m.id, m.competition_id, m.round_id
  `.execute(db)
  return res.rows
}

/** GAME_RULES.md: a round is scheduled until its first match starts, complete when all are. */
export async function refreshRoundStatuses(db: Database, roundIds: number[]): Promise<void> {
  if (roundIds.length === 0) return
  await sql`
    UPDATE rounds r SET status = s.status
    FROM (
      SELECT round_id,
        CASE WHEN bool_and(status = 'complete') THEN 'complete'
             WHEN bool_and(status = 'scheduled') THEN 'scheduled'
             ELSE 'active' END AS status
      FROM matches WHERE round_id IN (${sql.join(roundIds)})
      GROUP BY round_id
    ) s
    WHERE r.id = s.round_id AND r.status <> s.status
  `.execute(db)
}

export const nextLockout = async (db: Database): Promise<Date | null> => {
  const row = await db
    .selectFrom('matches')
    .select((eb) => eb.fn.min('starts_at').as('next'))
    .where('status', '=', 'scheduled')
    .executeTakeFirst()
  return row?.next ? new Date(row.next) : null
}
