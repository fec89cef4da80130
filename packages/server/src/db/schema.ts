import type { ColumnType, Generated, Kysely, Selectable } from 'kysely'

// Kysely's view of the tables. Rows never leave the server: services map them to contract DTOs.

type Timestamp = ColumnType<Date, Date | string, Date | string>
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string | undefined, string>
export type LifecycleColumn = 'scheduled' | 'active' | 'complete'

export interface SportsTable {
  code: string
  name: string
}

export interface CompetitionsTable {
  id: Generated<number>
  sport: string
  identifier: string
  season: number
  name: string
  year: string
  status: Generated<LifecycleColumn>
  is_current: Generated<boolean>
  golden_week_round: number | null
  ladder_points: Json<{ win: number; noResult: number; tie: number; loss: number }>
  assumptions: Json<string[]>
  sources: Json<string[]>
  created_at: DefaultTimestamp
  /** Bumped by every scoring run (caches of scores compare it). */
  scores_version: Generated<number>
}

export interface SquadsTable {
  id: Generated<number>
  sport: string
  code: string
  name: string
  short_name: string
  nickname: string
  colour: string
  second_colour: string
}

export interface VenuesTable {
  id: Generated<number>
  key: string
  name: string
  city: string
  state: string
  timezone: string
}

export interface RoundsTable {
  id: Generated<number>
  competition_id: number
  number: number
  label: string
  status: Generated<LifecycleColumn>
}

export interface MatchesTable {
  id: Generated<number>
  competition_id: number
  round_id: number
  number: number
  status: Generated<LifecycleColumn>
  starts_at: Timestamp
  venue_id: number
  home_squad_id: number
  away_squad_id: number
  stage: Generated<'regular' | 'final'>
  match_class: Generated<string>
  /** The margin game in effect: the flagged match, else the round's last (rules/margin-game.ts). */
  is_margin_game: Generated<boolean>
  /** The fixture (or an admin) marked this match as its round's margin game. */
  margin_game_flagged: Generated<boolean>
  home_runs: number | null
  home_wickets: number | null
  home_balls: number | null
  home_balls_allotted: number | null
  away_runs: number | null
  away_wickets: number | null
  away_balls: number | null
  away_balls_allotted: number | null
  home_nrr_runs: number | null
  home_nrr_balls: number | null
  away_nrr_runs: number | null
  away_nrr_balls: number | null
  sixes: number | null
  sixes_simulated: Generated<boolean>
  outcome: 'win' | 'no_result' | 'tie' | null
  winner_squad_id: number | null
  method: string | null
  cricsheet_id: string | null
  assumed: Json<string[]>
  completed_at: Timestamp | null
  updated_at: DefaultTimestamp
  /** When the lockout locked it, by the server's clock (decision 027); null until then. */
  locked_at: Timestamp | null
}

export interface UsersTable {
  id: Generated<number>
  email: string
  password_hash: string | null
  first_name: Generated<string>
  last_name: Generated<string>
  team_name: string | null
  team_supported: Generated<number>
  external_id: string | null
  tipping_id: Generated<string>
  disabled_notifications: Generated<boolean>
  is_weekly_reminder_enabled: Generated<boolean>
  /** 'round', 'match' or 'off' (migration 2026-11-27T0700). */
  reminder_lead: Generated<'round' | 'match' | 'off'>
  roles: ColumnType<string[], string[] | undefined, string[]>
  recovered: Generated<boolean>
  registered_at: DefaultTimestamp
  deactivated_at: Timestamp | null
  updated_at: DefaultTimestamp
}

export interface CompetitionRegistrationsTable {
  competition_id: number
  user_id: number
  registered_at: DefaultTimestamp
  /** Registration order: how tied tippers are listed (migration 2026-11-25T0100). */
  seq: Generated<string>
}

/** Deactivated tippers per (points, margin) of each round (round_id) and overall (round_id 0). */
export interface RankGapsTable {
  competition_id: number
  round_id: number
  points: number
  margin: number
  n: number
}

export interface SessionsTable {
  id_hash: Buffer
  user_id: number
  created_at: DefaultTimestamp
  last_seen_at: DefaultTimestamp
  expires_at: Timestamp
  revoked_at: Timestamp | null
}

export interface TipsTable {
  user_id: number
  match_id: number
  round_id: number
  squad_id: number
  margin: number | null
  is_auto_tip: Generated<boolean>
  /** Placed by the autopilot job (migration 2026-11-27T0700); a player's own save clears it. */
  is_autopilot: Generated<boolean>
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

/**
 * The view of every registered user's tip on every match, auto-tips derived (migration
 * 2026-11-23T0500): read it, never write it.
 */
export interface EffectiveTipsView {
  user_id: number
  match_id: number
  round_id: number
  squad_id: number
  margin: number | null
  is_auto_tip: boolean
  /** Migration 2026-11-27T0700. */
  is_autopilot: boolean
}

/** Picks per match and squad, auto-tips counted (migration 2026-11-23T0500): read only. */
export interface MatchPickCountsView {
  round_id: number
  match_id: number
  squad_id: number
  picks: number
}

export interface RoundScoresTable {
  round_id: number
  user_id: number
  competition_id: number
  correct: Generated<number>
  /** Counters a single result re-scores the round from; NULL on rows from before they existed. */
  correct_own: number | null
  correct_auto: number | null
  /** Auto-tips on the round's completed matches. */
  autos: number | null
  counted: Generated<number>
  tip_points: Generated<number>
  bonus: Generated<number>
  points: Generated<number>
  margin: Generated<number>
  rank: number | null
  position: number | null
}

export interface StandingsTable {
  competition_id: number
  user_id: number
  total_points: Generated<number>
  total_margin: Generated<number>
  rank: number | null
  position: number | null
  // copies of the user's, kept by the scoring job and a trigger (migration 2026-11-24T0300)
  team_name: string | null
  first_name: string
  last_name: string
  active: boolean
}

export interface LeaguesTable {
  id: Generated<number>
  competition_id: number
  user_id: number
  name: string
  description: Generated<string>
  privacy: Generated<'private' | 'public'>
  code: string
  start_round: Generated<number>
  status: Generated<LifecycleColumn>
  league_class: Generated<string>
  num_users: Generated<number>
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
  /** Last season's league this one renews (issue 31, decision 024); null for a new league. */
  renewed_from: ColumnType<number | null, number | null | undefined, number | null>
  /** The browser's key for the create that made this league (decision 049); null without one. */
  create_key: ColumnType<string | null, string | null | undefined, never>
}

export interface LeagueMembersTable {
  league_id: number
  user_id: number
  joined_at: DefaultTimestamp
}

export interface ContentSettingsTable {
  key: string
  value: Json<unknown>
  updated_at: DefaultTimestamp
}

export interface PasswordResetTokensTable {
  token_hash: Buffer
  user_id: number
  expires_at: Timestamp
  used_at: Timestamp | null
}

export interface EmailOutboxTable {
  id: Generated<string>
  kind: string
  to_address: string
  subject: string
  text_body: string
  html_body: string | null
  created_at: DefaultTimestamp
  sent_at: Timestamp | null
  /** The last delivery failure, kept after a later success for the record. */
  error: string | null
  attempts: Generated<number>
  next_attempt_at: DefaultTimestamp
  /** Given up: a permanent refusal or too many attempts. */
  failed_at: Timestamp | null
  /** The account it was queued for (a league's member, a reminder); null for an address alone. */
  user_id: number | null
}

export interface ReminderLogTable {
  round_id: number
  user_id: number
  /** 'round' or 'match' (migration 2026-11-27T0700). */
  kind: Generated<string>
  sent_at: DefaultTimestamp
}

export interface ContactMessagesTable {
  id: Generated<string>
  user_id: number | null
  name: string
  email: string
  message: string
  created_at: DefaultTimestamp
  /** The contact form's key for this message (decision 049); null without one. */
  request_key: ColumnType<string | null, string | null | undefined, never>
}

export interface PreregistrationsTable {
  email: string
  name: string
  created_at: DefaultTimestamp
}

export interface AuditLogTable {
  id: Generated<string>
  actor_user_id: number | null
  action: string
  entity: string
  entity_id: string | null
  data: Json<unknown>
  created_at: DefaultTimestamp
}

/** One row per scheduled job, overwritten by each run (migration 2026-11-25T0300). */
export interface JobRunsTable {
  job: string
  started_at: Timestamp
  duration_ms: number
  /** The last run's failure; null when it succeeded. */
  error: string | null
  /** The latest failure of any run, kept after later successes. */
  last_error: string | null
  last_error_at: Timestamp | null
  /** The 'scheduler' row: its interval, and how late its last pass started. */
  interval_ms: number | null
  lag_ms: number | null
  runs: Generated<number>
  failures: Generated<number>
}

/** One innings of a live score as stored (migration 2026-11-25T0400). */
export interface LiveInningsColumn {
  battingSquadId: number
  runs: number
  wickets: number
  balls: number
  ballsAllotted: number | null
  sixes: number
}

/** A match's live score, apart from its result (migration 2026-11-25T0400). */
export interface LiveScoresTable {
  match_id: number
  innings: Json<LiveInningsColumn[]>
  version: number
  updated_at: Timestamp
}

/**
 * Per round, the pick split last sent as a `picks` event (null: none yet) and when it was last
 * counted (migration 2026-11-26T0100).
 */
export interface PickSplitsTable {
  round_id: number
  split: ColumnType<
    { id: number; home_percent: number; away_percent: number }[] | null,
    string | null,
    string | null
  >
  checked_at: Timestamp
}

/** The push channel's events, kept for resumption (migration 2026-11-25T0400). */
export interface LiveEventsTable {
  id: ColumnType<number, never, never>
  sport: string
  competition_id: number
  type: string
  payload: Json<unknown>
  created_at: DefaultTimestamp
}

/** One accepted tip save and its receipt (migration 2026-11-27T0800, decision 027). */
export interface TipSavesTable {
  /** The receipt id. */
  id: string
  user_id: number
  competition_id: number
  saved_at: Timestamp
  /** The picks as saved: [{ m: match, r: round, s: squad, g: margin }], by match. */
  picks: Json<{ m: number; r: number; s: number | null; g: number | null }[]>
  /** The picks' values before this save, where they differed: [{ m, s, g }] (s null: untipped). */
  changed: Json<{ m: number; s: number | null; g: number | null }[]>
  digest: string
  /** Which write (migration 2026-11-27T0900): a save, an autopick, or a clear (picks' s null). */
  kind: Generated<'save' | 'autopick' | 'clear'>
}

/**
 * My season's rank history (migration 2026-11-27T0200): per round, ranked tippers at each
 * cumulative (points, margin) through it.
 */
export interface SeasonHistoryTable {
  competition_id: number
  round_number: number
  points: number
  margin: number
  n: number
}

/** Per round, ranked tippers at each number of points in it (migration 2026-11-27T0200). */
export interface SeasonRoundPointsTable {
  competition_id: number
  round_number: number
  points: number
  n: number
}

/** The last round the season history covers, and its version (migration 2026-11-27T0200). */
export interface SeasonHistoryStateTable {
  competition_id: number
  covered_through: number
  version: ColumnType<string, number | string | undefined, number | string>
}

/** Rounds re-scored since the history was built (migration 2026-11-27T0200). */
export interface SeasonHistoryStaleTable {
  id: ColumnType<string, never, never>
  competition_id: number
  from_round: number
}

/** A member's "no thanks" to a renewed league (issue 31, migration 2026-11-27T0500). */
export interface LeagueRenewalDeclinesTable {
  league_id: number
  user_id: number
  declined_at: DefaultTimestamp
}

/** A tipper's autopilot for one sport; no row is off (migration 2026-11-27T0700). */
export interface AutopilotSettingsTable {
  user_id: number
  sport: string
  strategy: 'favourite' | 'home' | 'team'
  lead_minutes: number
  updated_at: DefaultTimestamp
}

/** The autopilot checkpoints run, one per (match, lead) (migration 2026-11-27T0700). */
export interface AutopilotPassesTable {
  match_id: number
  lead_minutes: number
  ran_at: Timestamp
  placed: number
  favourite_squad_id: number | null
  margin: number | null
  through_user_id: Generated<number>
  finished_at: Timestamp | null
}

export interface DB {
  sports: SportsTable
  competitions: CompetitionsTable
  squads: SquadsTable
  venues: VenuesTable
  rounds: RoundsTable
  matches: MatchesTable
  users: UsersTable
  competition_registrations: CompetitionRegistrationsTable
  sessions: SessionsTable
  tips: TipsTable
  effective_tips: EffectiveTipsView
  match_pick_counts: MatchPickCountsView
  round_scores: RoundScoresTable
  standings: StandingsTable
  rank_gaps: RankGapsTable
  leagues: LeaguesTable
  league_members: LeagueMembersTable
  content_settings: ContentSettingsTable
  password_reset_tokens: PasswordResetTokensTable
  email_outbox: EmailOutboxTable
  reminder_log: ReminderLogTable
  contact_messages: ContactMessagesTable
  preregistrations: PreregistrationsTable
  audit_log: AuditLogTable
  job_runs: JobRunsTable
  live_scores: LiveScoresTable
  live_events: LiveEventsTable
  pick_splits: PickSplitsTable
  tip_saves: TipSavesTable
  season_history: SeasonHistoryTable
  season_round_points: SeasonRoundPointsTable
  season_history_state: SeasonHistoryStateTable
  season_history_stale: SeasonHistoryStaleTable
  league_renewal_declines: LeagueRenewalDeclinesTable
  autopilot_settings: AutopilotSettingsTable
  autopilot_passes: AutopilotPassesTable
}

export type UserRow = Selectable<UsersTable>
export type MatchRow = Selectable<MatchesTable>
export type Database = Kysely<DB>
