import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

export interface DueRound {
  round_id: number
  label: string
  competition_id: number
  sport: string
  first_match_at: Date
}

/** Rounds of the current competitions whose first match starts within (now, until]. */
export async function roundsStartingWithin(
  db: Database,
  o: { now: Date; until: Date },
): Promise<DueRound[]> {
  const res = await sql<DueRound>`
    SELECT r.id AS round_id, r.label, c.id AS competition_id, c.sport,
           min(m.starts_at) AS first_match_at
    FROM rounds r
    JOIN competitions c ON c.id = r.competition_id AND c.is_current
    JOIN matches m ON m.round_id = r.id
    GROUP BY r.id, r.label, c.id, c.sport
    HAVING min(m.starts_at) > ${o.now}::timestamptz AND min(m.starts_at) <= ${o.until}::timestamptz
    ORDER BY min(m.starts_at), r.id
  `.execute(db)
  return res.rows.map((r) => ({ ...r, first_match_at: new Date(r.first_match_at) }))
}

export interface OpenMatch {
  id: number
  starts_at: Date
  home: string
  away: string
  home_squad_id: number
  away_squad_id: number
}

/** The round's matches that can still be tipped, in start order. */
export const openMatches = (db: Database, roundId: number, now: Date): Promise<OpenMatch[]> =>
  db
    .selectFrom('matches as m')
    .innerJoin('squads as h', 'h.id', 'm.home_squad_id')
    .innerJoin('squads as a', 'a.id', 'm.away_squad_id')
    .select([
      'm.id',
      'm.starts_at',
      'h.name as home',
      'a.name as away',
      'm.home_squad_id',
      'm.away_squad_id',
    ])
    .where('m.round_id', '=', roundId)
    .where('m.status', '=', 'scheduled')
    .where('m.starts_at', '>', now)
    .orderBy('m.starts_at')
    .orderBy('m.id')
    .execute()

/** Rounds of the current competitions with an open match starting within (now, until]. */
export async function roundsWithOpenMatchWithin(
  db: Database,
  o: { now: Date; until: Date },
): Promise<DueRound[]> {
  const res = await sql<DueRound>`
    SELECT r.id AS round_id, r.label, c.id AS competition_id, c.sport,
           min(m.starts_at) AS first_match_at
    FROM matches m
    JOIN rounds r ON r.id = m.round_id
    JOIN competitions c ON c.id = r.competition_id AND c.is_current
    WHERE m.status = 'scheduled'
      AND m.starts_at > ${o.now}::timestamptz AND m.starts_at <= ${o.until}::timestamptz
    GROUP BY r.id, r.label, c.id, c.sport
    ORDER BY min(m.starts_at), r.id
  `.execute(db)
  return res.rows.map((r) => ({ ...r, first_match_at: new Date(r.first_match_at) }))
}

export interface ReminderBatch {
  roundId: number
  competitionId: number
  sport: string
  now: Date
  /** Which reminder: users whose reminder_lead is this get it, once per round (reminder_log.kind). */
  lead: 'round' | 'match'
  /** The round's open matches and each one's line of the email, in order. */
  matchIds: number[]
  textLines: string[]
  htmlLines: string[]
  /**
   * Per match: its squads, the players' favourite, and its line with what autopilot will tip
   * (home or away) for users who have autopilot on (decision 026).
   */
  homeSquads: number[]
  awaySquads: number[]
  favourites: number[]
  textHome: string[]
  textAway: string[]
  htmlHome: string[]
  htmlAway: string[]
  /** The matches whose being untipped calls for the reminder (all of them for 'round'). */
  dueMatchIds: number[]
  kind: string
  subject: string
  textTemplate: string
  htmlTemplate: string
  /** Placeholder in the templates that each user's own list replaces. */
  slot: string
  limit: number
}

/**
 * One set-based step of a reminder: picks up to `limit` users (lowest ids first) who are
 * registered for the competition, take this kind of reminder (users.reminder_lead: the one
 * setting for reminders; league emails turned off is another list, decision 043), are not
 * deactivated, have not had it for this round, and have at least one of the due matches
 * untipped; claims each in reminder_log and
 * queues their email listing just their untipped matches, in one statement. The claim is
 * `ON CONFLICT DO NOTHING` on reminder_log's (round_id, user_id, kind) key, and only claimed rows get an
 * email, so two schedulers running this at once never send one twice: the second waits on the
 * first's uncommitted key and then skips it. Each listed match says what the user's autopilot
 * will tip there, as rules/autopilot.ts picks it. Returns how many emails were queued.
 */
export async function queueReminderBatch(db: Database, b: ReminderBatch): Promise<number> {
  const res = await sql<{ queued: number }>`
    WITH lines AS (
      SELECT * FROM unnest(
          ${b.matchIds}::int[], ${b.textLines}::text[], ${b.htmlLines}::text[],
          ${b.homeSquads}::int[], ${b.awaySquads}::int[], ${b.favourites}::int[],
          ${b.textHome}::text[], ${b.textAway}::text[], ${b.htmlHome}::text[], ${b.htmlAway}::text[])
        WITH ORDINALITY AS l(match_id, text_line, html_line, home, away, fav,
          text_home, text_away, html_home, html_away, ord)
    ),
    candidates AS (
      SELECT u.id AS user_id, u.email, u.team_supported, s.strategy
      FROM competition_registrations cr
      JOIN users u ON u.id = cr.user_id
      LEFT JOIN autopilot_settings s ON s.user_id = u.id AND s.sport = ${b.sport}
      WHERE cr.competition_id = ${b.competitionId}
        AND u.reminder_lead = ${b.lead}
        AND u.deactivated_at IS NULL
        AND NOT EXISTS (
          SELECT 1 FROM reminder_log rl
          WHERE rl.round_id = ${b.roundId} AND rl.user_id = u.id AND rl.kind = ${b.lead}
        )
        AND EXISTS (
          SELECT 1 FROM unnest(${b.dueMatchIds}::int[]) AS d(match_id)
          WHERE NOT EXISTS (SELECT 1 FROM tips t WHERE t.user_id = u.id AND t.match_id = d.match_id)
        )
      ORDER BY u.id
      LIMIT ${b.limit}
    ),
    picks AS (
      SELECT c.user_id, c.email, l.ord, l.text_line, l.html_line, l.home, l.text_home,
        l.text_away, l.html_home, l.html_away,
        CASE WHEN c.strategy IS NULL THEN NULL
             WHEN c.strategy = 'home' THEN l.home
             WHEN c.strategy = 'team' AND c.team_supported IN (l.home, l.away) THEN c.team_supported
             ELSE l.fav END AS pick
      FROM candidates c
      CROSS JOIN lines l
      WHERE NOT EXISTS (SELECT 1 FROM tips t WHERE t.user_id = c.user_id AND t.match_id = l.match_id)
    ),
    targets AS (
      SELECT user_id, email,
             string_agg(CASE WHEN pick IS NULL THEN text_line WHEN pick = home THEN text_home
                             ELSE text_away END, E'\n' ORDER BY ord) AS text_list,
             string_agg(CASE WHEN pick IS NULL THEN html_line WHEN pick = home THEN html_home
                             ELSE html_away END, '' ORDER BY ord) AS html_list
      FROM picks
      GROUP BY user_id, email
    ),
    claimed AS (
      INSERT INTO reminder_log (round_id, user_id, kind, sent_at)
      SELECT ${b.roundId}, user_id, ${b.lead}, ${b.now}::timestamptz FROM targets
      ON CONFLICT DO NOTHING
      RETURNING user_id
    ),
    queued AS (
      INSERT INTO email_outbox
        (kind, to_address, user_id, subject, text_body, html_body, created_at, next_attempt_at)
      SELECT ${b.kind}::text, t.email, t.user_id, ${b.subject}::text,
             replace(${b.textTemplate}::text, ${b.slot}::text, t.text_list),
             replace(${b.htmlTemplate}::text, ${b.slot}::text, t.html_list),
             ${b.now}::timestamptz, ${b.now}::timestamptz
      FROM claimed c JOIN targets t ON t.user_id = c.user_id
      RETURNING 1
    )
    SELECT count(*)::int AS queued FROM queued
  `.execute(db)
  return res.rows[0]?.queued ?? 0
}
