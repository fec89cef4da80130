import { sql } from 'kysely'
import type { AutopilotSetting } from '@tipping/contract/autopilot'
import { AUTOPILOT_LEADS } from '@tipping/contract/autopilot'
import type { Database } from '../../db/schema.ts'

export const settingOf = (db: Database, userId: number, sport: string) =>
  db
    .selectFrom('autopilot_settings')
    .select(['strategy', 'lead_minutes'])
    .where('user_id', '=', userId)
    .where('sport', '=', sport)
    .executeTakeFirst()

/** Off is no row: the job then never reads this tipper. */
export async function saveSetting(
  db: Database,
  userId: number,
  sport: string,
  s: AutopilotSetting,
  now: Date,
): Promise<void> {
  const strategy = s.strategy
  if (strategy === 'off') {
    await db
      .deleteFrom('autopilot_settings')
      .where('user_id', '=', userId)
      .where('sport', '=', sport)
      .execute()
    return
  }
  await db
    .insertInto('autopilot_settings')
    .values({
      user_id: userId,
      sport,
      strategy,
      lead_minutes: s.leadMinutes,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'sport']).doUpdateSet({
        strategy,
        lead_minutes: s.leadMinutes,
        updated_at: now,
      }),
    )
    .execute()
}

export interface DueCheckpoint {
  match_id: number
  lead_minutes: number
}

/**
 * The checkpoints due now: for each open match starting within the longest lead, the shortest
 * lead its start is within (at that checkpoint every tipper whose lead is at least as long is
 * due), unless that checkpoint has run. matches is small (a season's fixtures), so a scan.
 */
export async function dueCheckpoints(db: Database, now: Date): Promise<DueCheckpoint[]> {
  const leads = [...AUTOPILOT_LEADS]
  const res = await sql<DueCheckpoint>`
    SELECT d.match_id, d.lead_minutes FROM (
      SELECT m.id AS match_id, min(l.lead)::int AS lead_minutes, min(m.starts_at) AS starts_at
      FROM matches m CROSS JOIN unnest(${leads}::int[]) AS l(lead)
      WHERE m.status = 'scheduled' AND m.starts_at > ${now}::timestamptz
        AND m.starts_at <= ${now}::timestamptz + l.lead * interval '1 minute'
      GROUP BY m.id
    ) d
    WHERE NOT EXISTS (
      SELECT 1 FROM autopilot_passes p
      WHERE p.match_id = d.match_id AND p.lead_minutes = d.lead_minutes
    )
    ORDER BY d.starts_at, d.match_id
  `.execute(db)
  return res.rows
}

/**
 * Claims a checkpoint: ON CONFLICT DO NOTHING on autopilot_passes' key, so of two schedulers the
 * second waits for the first's uncommitted row and then gets nothing (it skips the checkpoint).
 */
export async function claimCheckpoint(db: Database, c: DueCheckpoint, now: Date): Promise<boolean> {
  const res = await sql`
    INSERT INTO autopilot_passes (match_id, lead_minutes, ran_at, placed)
    VALUES (${c.match_id}, ${c.lead_minutes}, ${now}::timestamptz, 0)
    ON CONFLICT DO NOTHING
    RETURNING 1
  `.execute(db)
  return res.rows.length === 1
}

export const recordPlaced = (db: Database, c: DueCheckpoint, placed: number) =>
  db
    .updateTable('autopilot_passes')
    .set({ placed })
    .where('match_id', '=', c.match_id)
    .where('lead_minutes', '=', c.lead_minutes)
    .execute()

/**
 * One statement per checkpoint places every due autopilot tip on the match (rules/autopilot.ts is
 * the reference it must equal):
 *
 * - `m` re-checks the lock in the same statement: the match must still be scheduled and not
 *   started by the job's clock, and is held FOR SHARE until commit, so the lockout (FOR UPDATE
 *   SKIP LOCKED) cannot lock it meanwhile and an autopilot tip is never written after the lockout.
 * - `crowd` is every stored tip on the match so far, as Autopick counts them (GAME_RULES): home
 *   and away counts and the median Super Sixes margin (0 when nobody has guessed). One index-only
 *   pass over the match's entries in tips_match_user (it includes squad_id and margin).
 * - the tippers: autopilot_settings_due (sport, lead_minutes >= the checkpoint, in user order), the
 *   registration by its key, the user by id, and an anti-join on tips' key: a tip already there,
 *   the player's or autopilot's, is left alone, and ON CONFLICT DO NOTHING covers a player's
 *   save committed in between. A player's save after this overwrites the tip (and its flag).
 * - rows go in user order, as the group commit writes tips, so the two never deadlock.
 *
 * At 1,000,000 tippers with 30 % on autopilot this is one range scan of ~300,000 index entries
 * and three key probes each (bench scenario `autopilot`).
 */
export async function fillCheckpoint(db: Database, c: DueCheckpoint, now: Date): Promise<number> {
  const res = await sql<{ placed: number }>`
    WITH m AS (
      SELECT mt.id, mt.round_id, mt.competition_id, mt.home_squad_id, mt.away_squad_id,
        mt.is_margin_game, co.sport
      FROM matches mt JOIN competitions co ON co.id = mt.competition_id
      WHERE mt.id = ${c.match_id} AND mt.status = 'scheduled' AND mt.starts_at > ${now}::timestamptz
      FOR SHARE OF mt
    ),
    crowd AS (
      SELECT count(*) FILTER (WHERE t.squad_id = m.home_squad_id) AS home,
        count(*) FILTER (WHERE t.squad_id = m.away_squad_id) AS away,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY t.margin) AS median
      FROM m JOIN tips t ON t.match_id = m.id
    ),
    placed AS (
      INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, is_autopilot,
        created_at, updated_at)
      SELECT s.user_id, m.id, m.round_id,
        CASE
          WHEN s.strategy = 'home' THEN m.home_squad_id
          WHEN s.strategy = 'team' AND u.team_supported IN (m.home_squad_id, m.away_squad_id)
            THEN u.team_supported
          WHEN crowd.away > crowd.home THEN m.away_squad_id
          ELSE m.home_squad_id
        END,
        CASE WHEN m.is_margin_game THEN coalesce(crowd.median, 0) END,
        false, true, ${now}::timestamptz, ${now}::timestamptz
      FROM m
      CROSS JOIN crowd
      JOIN autopilot_settings s ON s.sport = m.sport AND s.lead_minutes >= ${c.lead_minutes}
      JOIN competition_registrations cr
        ON cr.competition_id = m.competition_id AND cr.user_id = s.user_id
      JOIN users u ON u.id = s.user_id AND u.deactivated_at IS NULL
      WHERE NOT EXISTS (SELECT 1 FROM tips t WHERE t.user_id = s.user_id AND t.match_id = m.id)
      ORDER BY s.user_id
      ON CONFLICT (user_id, match_id) DO NOTHING
      RETURNING 1
    )
    SELECT count(*)::int AS placed FROM placed
  `.execute(db)
  return res.rows[0]?.placed ?? 0
}

/** Per open match: the tippers' favourite (home on a tie), for the reminder's preview. */
export async function favourites(db: Database, matchIds: number[]): Promise<Map<number, number>> {
  if (matchIds.length === 0) return new Map()
  const res = await sql<{ match_id: number; squad_id: number }>`
    SELECT m.id AS match_id,
      CASE WHEN count(*) FILTER (WHERE t.squad_id = m.away_squad_id)
              > count(*) FILTER (WHERE t.squad_id = m.home_squad_id)
           THEN m.away_squad_id ELSE m.home_squad_id END AS squad_id
    FROM matches m LEFT JOIN tips t ON t.match_id = m.id
    WHERE m.id = ANY(${matchIds}::int[])
    GROUP BY m.id
  `.execute(db)
  return new Map(res.rows.map((r) => [r.match_id, r.squad_id]))
}
