import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export interface LockedMatch {
  id: number
  competition_id: number
  round_id: number
}

/**
 * Locks every match whose start has passed: status `active`, and the away-squad auto-tip for each
 * user registered before the lockout who has no tip (GAME_RULES.md: auto-tip). One statement, so
 * the status and the auto-tips land together; SKIP LOCKED and ON CONFLICT make two schedulers safe.
 */
export async function lockDueMatches(db: Database, now: Date, batch = 50): Promise<LockedMatch[]> {
  const res = await sql<LockedMatch>`
    WITH due AS (
      SELECT id FROM matches
      WHERE status = 'scheduled' AND starts_at <= ${now}::timestamptz
      ORDER BY starts_at
      LIMIT ${batch}
      FOR UPDATE SKIP LOCKED
    ),
    activated AS (
      UPDATE matches m SET status = 'active', updated_at = ${now}::timestamptz
      FROM due WHERE m.id = due.id
      RETURNING m.id, m.competition_id, m.round_id, m.away_squad_id, m.is_margin_game, m.starts_at
    ),
    auto AS (
      INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, created_at, updated_at)
      SELECT cr.user_id, a.id, a.round_id, a.away_squad_id, CASE WHEN a.is_margin_game THEN 0 END, true,
             ${now}::timestamptz, ${now}::timestamptz
      FROM activated a
      JOIN competition_registrations cr ON cr.competition_id = a.competition_id AND cr.registered_at < a.starts_at
      ON CONFLICT (user_id, match_id) DO NOTHING
    )
    SELECT id, competition_id, round_id FROM activated
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
