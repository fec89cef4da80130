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
  competition_id: number
  sport: string
}

/**
 * The checkpoints due now: for each open match starting within the longest lead, the shortest
 * lead its start is within (at that checkpoint every tipper whose lead is at least as long is
 * due), unless that checkpoint has finished. A claimed but unfinished one (its process crashed,
 * or is still at it) is listed again, and this process carries on from its recorded progress.
 * matches is small (a season's fixtures), so a scan.
 */
export async function dueCheckpoints(db: Database, now: Date): Promise<DueCheckpoint[]> {
  const leads = [...AUTOPILOT_LEADS]
  const res = await sql<DueCheckpoint>`
    SELECT d.match_id, d.lead_minutes, d.competition_id, co.sport FROM (
      SELECT m.id AS match_id, min(l.lead)::int AS lead_minutes, min(m.starts_at) AS starts_at,
        min(m.competition_id) AS competition_id
      FROM matches m CROSS JOIN unnest(${leads}::int[]) AS l(lead)
      WHERE m.status = 'scheduled' AND m.starts_at > ${now}::timestamptz
        AND m.starts_at <= ${now}::timestamptz + l.lead * interval '1 minute'
      GROUP BY m.id
    ) d
    JOIN competitions co ON co.id = d.competition_id
    WHERE NOT EXISTS (
      SELECT 1 FROM autopilot_passes p
      WHERE p.match_id = d.match_id AND p.lead_minutes = d.lead_minutes
        AND p.finished_at IS NOT NULL
    )
    ORDER BY d.starts_at, d.match_id
  `.execute(db)
  return res.rows
}

/** The start of the next match of any competition still to start, if any. */
export async function nextKickOff(db: Database, now: Date): Promise<Date | null> {
  const res = await sql<{ at: Date | null }>`
    SELECT min(starts_at) AS at FROM matches
    WHERE status = 'scheduled' AND starts_at > ${now}::timestamptz
  `.execute(db)
  const at = res.rows[0]?.at
  return at ? new Date(at) : null
}

/**
 * Whether other sessions of this database are at work now (a statement running, or a transaction
 * open between statements): the savers of a deadline rush, another job. The autopilot job then
 * yields between batches (service.ts). pg_stat_activity is shared memory, so this reads no table;
 * it sees the state of sessions of the job's own database role (the API's), which is what it
 * needs: other roles' sessions read as NULL and are not counted.
 */
export async function othersBusy(db: Database): Promise<boolean> {
  const res = await sql<{ busy: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM pg_stat_activity
      WHERE datname = current_database() AND backend_type = 'client backend'
        AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')
    ) AS busy
  `.execute(db)
  return res.rows[0]?.busy ?? false
}

/**
 * Claims a checkpoint: its row in autopilot_passes, with what every batch will tip, counted now
 * from every stored tip on the match as Autopick counts them (GAME_RULES): the favourite (more
 * tips, the home side on a tie or none) and the median Super Sixes guess, percentile_disc(0.5),
 * 0 when nobody has guessed (rules/autopilot.ts is the reference). The median is kept whatever
 * the match is: each batch reads is_margin_game from the match it locks, so an admin's change of
 * the Super Sixes match mid-checkpoint is honoured as the one-statement job honoured it. Counted once, so the batches
 * do not drift as autopilot's own tips and the savers' arrive, and a process resuming after a
 * crash tips exactly as the first would have. The count is one index-only pass over the match's
 * entries in tips_match_user (it includes squad_id and margin), skipped when the row exists;
 * ON CONFLICT DO NOTHING settles two processes claiming at once. Committed on its own: the claim
 * is the shared record of the checkpoint's progress, not a lock held through the job.
 */
export async function claimCheckpoint(db: Database, c: DueCheckpoint, now: Date): Promise<void> {
  await sql`
    INSERT INTO autopilot_passes (match_id, lead_minutes, ran_at, placed, favourite_squad_id,
      margin)
    SELECT m.id, ${c.lead_minutes}, ${now}::timestamptz, 0,
      CASE WHEN crowd.away > crowd.home THEN m.away_squad_id ELSE m.home_squad_id END,
      coalesce(crowd.median, 0)
    FROM matches m
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE t.squad_id = m.home_squad_id) AS home,
        count(*) FILTER (WHERE t.squad_id = m.away_squad_id) AS away,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY t.margin) AS median
      FROM tips t WHERE t.match_id = m.id
    ) crowd
    WHERE m.id = ${c.match_id}
      AND NOT EXISTS (
        SELECT 1 FROM autopilot_passes p
        WHERE p.match_id = ${c.match_id} AND p.lead_minutes = ${c.lead_minutes}
      )
    ON CONFLICT DO NOTHING
  `.execute(db)
}

export interface PassState {
  favourite_squad_id: number
  /** The median guess, placed only if the match is a margin game when the batch runs. */
  margin: number
  through_user_id: number
  finished: boolean
}

/**
 * A batch's first lock: its checkpoint's row FOR UPDATE. Only autopilot takes it, so two
 * processes on one checkpoint take turns batch by batch, each reading where the last committed
 * batch stopped: no batch runs twice and none is skipped, whoever crashes.
 */
export const lockPass = async (db: Database, c: DueCheckpoint) =>
  (
    await sql<PassState>`
      SELECT favourite_squad_id, margin, through_user_id, finished_at IS NOT NULL AS finished
      FROM autopilot_passes
      WHERE match_id = ${c.match_id} AND lead_minutes = ${c.lead_minutes}
      FOR UPDATE
    `.execute(db)
  ).rows[0]

/**
 * The next batch's tippers: the `size` lowest user ids after `after` with autopilot on for the
 * sport at a lead at least the checkpoint's (keyset, not OFFSET). One bounded range scan of
 * autopilot_settings_due (sport, lead_minutes, user_id) per lead, merged: at most 3 x size index
 * entries read per batch, however far into the million the batch is.
 *
 * Each lead is its own branch with the lead as a value, not a join to a list of leads: with the
 * lead a lateral parameter the planner costed every lead as the most common one, and scanned the
 * primary key in user order filtering by lead, which for a lead few or none chose reads every
 * setting after `after` (at a million tippers, a job of 150 batches took 14-19 s instead of 9;
 * bench/README.md, 2026-11-27 23:50). Given each lead, it sees from the statistics that a rare
 * lead's range is small and takes the index. Not PREPARED for the same reason: a generic plan
 * would not see the lead.
 */
export async function nextBatch(
  db: Database,
  c: DueCheckpoint,
  after: number,
  size: number,
): Promise<number[]> {
  const leads = AUTOPILOT_LEADS.filter((l) => l >= c.lead_minutes)
  if (leads.length === 0) return []
  const branch = (lead: number) => sql`(
    SELECT s.user_id FROM autopilot_settings s
    WHERE s.sport = ${c.sport} AND s.lead_minutes = ${lead}::int AND s.user_id > ${after}
    ORDER BY s.user_id
    LIMIT ${size}
  )`
  const res = await sql<{ user_id: number }>`
    SELECT b.user_id FROM (${sql.join(leads.map(branch), sql` UNION ALL `)}) b
    ORDER BY b.user_id
    LIMIT ${size}
  `.execute(db)
  return res.rows.map((r) => r.user_id)
}

export interface OpenMatch {
  id: number
  round_id: number
  home_squad_id: number
  away_squad_id: number
  is_margin_game: boolean
}

/**
 * The match, FOR SHARE, if it is still open by the job's clock: each batch re-checks under the
 * lock the lockout's FOR UPDATE SKIP LOCKED conflicts with, so the lockout skips the match until
 * the batch commits, and a batch after the lockout finds it locked and tips nothing.
 */
export const lockOpenMatch = async (db: Database, matchId: number, now: Date) =>
  (
    await sql<OpenMatch>`
      SELECT id, round_id, home_squad_id, away_squad_id, is_margin_game FROM matches
      WHERE id = ${matchId} AND status = 'scheduled' AND starts_at > ${now}::timestamptz
      FOR SHARE
    `.execute(db)
  ).rows[0]

/**
 * One batch's autopilot tips (rules/autopilot.ts is the reference): for each locked registration
 * whose autopilot is still on at a lead at least the checkpoint's (re-read by its key: a player
 * may have turned it off since the batch was listed), whose account is active and who has no tip
 * on the match, the strategy's squad with the claim's favourite and margin. The anti-join leaves
 * any tip in place, the player's or autopilot's; ON CONFLICT DO NOTHING makes a repeated batch
 * harmless. Rows go in user order, as the group commit writes tips. A player's save after this
 * overwrites the tip and its flag. Per tipper of the batch: one probe each of autopilot_settings'
 * key (user_id, sport), users' key and tips' key (user_id, match_id), whatever the table sizes.
 */
export async function placeBatch(
  db: Database,
  c: DueCheckpoint,
  m: OpenMatch,
  pass: PassState,
  userIds: number[],
  now: Date,
): Promise<number> {
  const res = await sql<{ placed: number }>`
    WITH placed AS (
      INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, is_autopilot,
        created_at, updated_at)
      SELECT s.user_id, ${m.id}::int, ${m.round_id}::int,
        CASE
          WHEN s.strategy = 'home' THEN ${m.home_squad_id}::int
          WHEN s.strategy = 'team' AND u.team_supported IN (${m.home_squad_id}::int, ${m.away_squad_id}::int)
            THEN u.team_supported
          ELSE ${pass.favourite_squad_id}::int
        END,
        ${m.is_margin_game ? pass.margin : null}::int, false, true, ${now}::timestamptz, ${now}::timestamptz
      FROM autopilot_settings s
      JOIN users u ON u.id = s.user_id AND u.deactivated_at IS NULL
      WHERE s.user_id = ANY(${userIds}::int[]) AND s.sport = ${c.sport}
        AND s.lead_minutes >= ${c.lead_minutes}
        AND NOT EXISTS (SELECT 1 FROM tips t WHERE t.user_id = s.user_id AND t.match_id = ${m.id})
      ORDER BY s.user_id
      ON CONFLICT (user_id, match_id) DO NOTHING
      RETURNING 1
    )
    SELECT count(*)::int AS placed FROM placed
  `.execute(db)
  return res.rows[0]?.placed ?? 0
}

/** Records a committed batch: where the next starts, and whether the checkpoint is done. */
export const advancePass = (
  db: Database,
  c: DueCheckpoint,
  through: number,
  placed: number,
  finishedAt: Date | null,
) =>
  sql`
    UPDATE autopilot_passes
    SET through_user_id = ${through}, placed = placed + ${placed},
      finished_at = ${finishedAt}::timestamptz
    WHERE match_id = ${c.match_id} AND lead_minutes = ${c.lead_minutes}
  `.execute(db)

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
