import { sql, type Kysely } from 'kysely'

// Frozen. Autopilot and reminders the player controls (issue 32, decision 026).
//
// - tips.is_autopilot: the tip was placed by the autopilot job, not by the player. A player's
//   own save sets it back to false (predictions' upsert), so "a tip I then change is mine".
//   ADD COLUMN with a constant default rewrites nothing on PostgreSQL 11+ (a million-row table
//   takes no longer than an empty one). effective_tips shows it (false on auto-tips).
// - autopilot_settings: one row per (user, sport) that has autopilot on; no row means off (the
//   default), so the job reads only the tippers who asked for it. autopilot_settings_due is the
//   index the job's INSERT ... SELECT walks: a sport's rows with a lead time of at least N.
// - autopilot_passes: which (match, lead) checkpoint has run, claimed in the same transaction as
//   the fill, so each checkpoint's INSERT ... SELECT runs once whatever the number of schedulers.
// - users.reminder_lead: 'round' (the weekly reminder, before the round), 'match' (2 h before the
//   first untipped match) or 'off'; existing users keep what is_weekly_reminder_enabled said
//   (off stays off, on becomes 'round', as before). is_weekly_reminder_enabled stays, kept equal
//   to reminder_lead <> 'off' by the profile update, for old clients.
// - reminder_log.kind: a user is reminded once per (round, kind).

const effectiveTips = (autopilot: boolean) => sql`
  SELECT cr.user_id, m.id AS match_id, m.round_id,
    coalesce(t.squad_id, m.away_squad_id) AS squad_id,
    CASE WHEN t.user_id IS NOT NULL THEN t.margin WHEN m.is_margin_game THEN 0 END AS margin,
    coalesce(t.is_auto_tip, true) AS is_auto_tip
    ${autopilot ? sql`, coalesce(t.is_autopilot, false) AS is_autopilot` : sql``}
  FROM matches m
  JOIN competition_registrations cr ON cr.competition_id = m.competition_id
  LEFT JOIN tips t ON t.user_id = cr.user_id AND t.match_id = m.id AND t.round_id = m.round_id
  WHERE t.user_id IS NOT NULL
     OR (m.status <> 'scheduled' AND cr.registered_at < m.starts_at)
`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tips ADD COLUMN is_autopilot boolean NOT NULL DEFAULT false`.execute(db)
  // The view of 2026-11-23T0500 with the new column last (OR REPLACE may only add at the end).
  await sql`CREATE OR REPLACE VIEW effective_tips AS ${effectiveTips(true)}`.execute(db)
  await sql`CREATE TABLE autopilot_settings (
    user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sport text NOT NULL REFERENCES sports (code),
    strategy text NOT NULL CHECK (strategy IN ('favourite', 'home', 'team')),
    lead_minutes integer NOT NULL CHECK (lead_minutes IN (15, 60, 180)),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, sport)
  )`.execute(db)
  await sql`CREATE INDEX autopilot_settings_due ON autopilot_settings (sport, lead_minutes, user_id)
    INCLUDE (strategy)`.execute(db)
  await sql`CREATE TABLE autopilot_passes (
    match_id integer NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    lead_minutes integer NOT NULL,
    ran_at timestamptz NOT NULL,
    placed integer NOT NULL,
    PRIMARY KEY (match_id, lead_minutes)
  )`.execute(db)
  await sql`ALTER TABLE users ADD COLUMN reminder_lead text NOT NULL DEFAULT 'round'
    CHECK (reminder_lead IN ('round', 'match', 'off'))`.execute(db)
  await sql`UPDATE users SET reminder_lead = 'off' WHERE NOT is_weekly_reminder_enabled`.execute(db)
  await sql`ALTER TABLE reminder_log ADD COLUMN kind text NOT NULL DEFAULT 'round'`.execute(db)
  await sql`ALTER TABLE reminder_log DROP CONSTRAINT reminder_log_pkey`.execute(db)
  await sql`ALTER TABLE reminder_log ADD PRIMARY KEY (round_id, user_id, kind)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM reminder_log WHERE kind <> 'round'`.execute(db)
  await sql`ALTER TABLE reminder_log DROP CONSTRAINT reminder_log_pkey`.execute(db)
  await sql`ALTER TABLE reminder_log ADD PRIMARY KEY (round_id, user_id)`.execute(db)
  await sql`ALTER TABLE reminder_log DROP COLUMN kind`.execute(db)
  await sql`ALTER TABLE users DROP COLUMN reminder_lead`.execute(db)
  await sql`DROP TABLE autopilot_passes`.execute(db)
  await sql`DROP TABLE autopilot_settings`.execute(db)
  await sql`DROP VIEW effective_tips`.execute(db)
  await sql`CREATE VIEW effective_tips AS ${effectiveTips(false)}`.execute(db)
  await sql`ALTER TABLE tips DROP COLUMN is_autopilot`.execute(db)
}
