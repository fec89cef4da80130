import { sql, type Kysely } from 'kysely'

// Frozen: never edit after it has shipped; add a new migration instead (STYLE.md).
// The whole product's schema: competitions and fixtures, people and sessions, tips and scores,
// leagues, content, mail and audit.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE sports (
    code text PRIMARY KEY CHECK (code IN ('bbl', 'wbbl')),
    name text NOT NULL
  )`.execute(db)

  await sql`CREATE TABLE competitions (
    id serial PRIMARY KEY,
    sport text NOT NULL REFERENCES sports(code),
    identifier text NOT NULL UNIQUE,
    season integer NOT NULL,
    name text NOT NULL,
    year text NOT NULL,
    status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'active', 'complete')),
    is_current boolean NOT NULL DEFAULT false,
    golden_week_round integer,
    ladder_points jsonb NOT NULL DEFAULT '{"win":2,"noResult":1,"tie":1,"loss":0}',
    assumptions jsonb NOT NULL DEFAULT '[]',
    sources jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (sport, season)
  )`.execute(db)
  await sql`CREATE UNIQUE INDEX competitions_one_current ON competitions (sport) WHERE is_current`.execute(
    db,
  )

  await sql`CREATE TABLE squads (
    id serial PRIMARY KEY,
    sport text NOT NULL REFERENCES sports(code),
    code text NOT NULL,
    name text NOT NULL,
    short_name text NOT NULL,
    nickname text NOT NULL,
    colour text NOT NULL,
    second_colour text NOT NULL,
    UNIQUE (sport, code)
  )`.execute(db)

  await sql`CREATE TABLE venues (
    id serial PRIMARY KEY,
    key text NOT NULL UNIQUE,
    name text NOT NULL,
    city text NOT NULL,
    state text NOT NULL,
    timezone text NOT NULL
  )`.execute(db)

  await sql`CREATE TABLE rounds (
    id serial PRIMARY KEY,
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    number integer NOT NULL CHECK (number > 0),
    label text NOT NULL,
    status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'active', 'complete')),
    UNIQUE (competition_id, number)
  )`.execute(db)

  // Runs, wickets and legal balls per innings; balls_allotted is set only when an innings was
  // reduced (rain), so the net run rate can use the revised overs (GAME_RULES.md: team ladder).
  await sql`CREATE TABLE matches (
    id serial PRIMARY KEY,
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    round_id integer NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    number integer NOT NULL,
    status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'active', 'complete')),
    starts_at timestamptz NOT NULL,
    venue_id integer NOT NULL REFERENCES venues(id),
    home_squad_id integer NOT NULL REFERENCES squads(id),
    away_squad_id integer NOT NULL REFERENCES squads(id),
    stage text NOT NULL DEFAULT 'regular' CHECK (stage IN ('regular', 'final')),
    match_class text NOT NULL DEFAULT 'match',
    is_margin_game boolean NOT NULL DEFAULT false,
    home_runs integer, home_wickets integer, home_balls integer, home_balls_allotted integer,
    away_runs integer, away_wickets integer, away_balls integer, away_balls_allotted integer,
    sixes integer CHECK (sixes >= 0),
    sixes_simulated boolean NOT NULL DEFAULT false,
    outcome text CHECK (outcome IN ('win', 'no_result', 'tie')),
    winner_squad_id integer REFERENCES squads(id),
    method text,
    cricsheet_id text,
    assumed jsonb NOT NULL DEFAULT '[]',
    completed_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (competition_id, number),
    CHECK (home_squad_id <> away_squad_id),
    CHECK (winner_squad_id IS NULL OR winner_squad_id IN (home_squad_id, away_squad_id))
  )`.execute(db)
  await sql`CREATE INDEX matches_round ON matches (round_id, starts_at)`.execute(db)
  await sql`CREATE INDEX matches_lockout ON matches (starts_at) WHERE status = 'scheduled'`.execute(
    db,
  )
  await sql`CREATE UNIQUE INDEX matches_one_margin_game ON matches (round_id) WHERE is_margin_game`.execute(
    db,
  )

  await sql`CREATE TABLE users (
    id serial PRIMARY KEY,
    email text NOT NULL,
    password_hash text,
    first_name text NOT NULL DEFAULT '',
    last_name text NOT NULL DEFAULT '',
    team_name text,
    team_supported integer NOT NULL DEFAULT 0,
    external_id text UNIQUE,
    tipping_id text NOT NULL UNIQUE DEFAULT replace(gen_random_uuid()::text, '-', ''),
    disabled_notifications boolean NOT NULL DEFAULT false,
    is_weekly_reminder_enabled boolean NOT NULL DEFAULT true,
    roles text[] NOT NULL DEFAULT '{}',
    recovered boolean NOT NULL DEFAULT false,
    registered_at timestamptz NOT NULL DEFAULT now(),
    deactivated_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)
  await sql`CREATE UNIQUE INDEX users_email ON users (lower(email))`.execute(db)

  await sql`CREATE TABLE competition_registrations (
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    registered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (competition_id, user_id)
  )`.execute(db)
  await sql`CREATE INDEX registrations_user ON competition_registrations (user_id)`.execute(db)

  // The cookie holds a random id; only its SHA-256 is stored, so a database leak is no session leak.
  await sql`CREATE TABLE sessions (
    id_hash bytea PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`.execute(db)
  await sql`CREATE INDEX sessions_user ON sessions (user_id)`.execute(db)

  // One tip per user and match (the unique key is the rule, not a convention).
  await sql`CREATE TABLE tips (
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    match_id integer NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    round_id integer NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    squad_id integer NOT NULL REFERENCES squads(id),
    margin integer CHECK (margin BETWEEN 0 AND 100),
    is_auto_tip boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, match_id)
  )`.execute(db)
  await sql`CREATE INDEX tips_match_squad ON tips (match_id, squad_id)`.execute(db)
  await sql`CREATE INDEX tips_round_user ON tips (round_id, user_id)`.execute(db)

  await sql`CREATE TABLE round_scores (
    round_id integer NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    correct integer NOT NULL DEFAULT 0,
    counted integer NOT NULL DEFAULT 0,
    tip_points integer NOT NULL DEFAULT 0,
    bonus integer NOT NULL DEFAULT 0,
    points integer NOT NULL DEFAULT 0,
    margin integer NOT NULL DEFAULT 0,
    rank integer,
    PRIMARY KEY (round_id, user_id)
  )`.execute(db)
  await sql`CREATE INDEX round_scores_rank ON round_scores (round_id, points DESC, margin ASC, user_id)`.execute(
    db,
  )
  await sql`CREATE INDEX round_scores_user ON round_scores (user_id)`.execute(db)

  await sql`CREATE TABLE standings (
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    total_points integer NOT NULL DEFAULT 0,
    total_margin integer NOT NULL DEFAULT 0,
    rank integer,
    PRIMARY KEY (competition_id, user_id)
  )`.execute(db)
  await sql`CREATE INDEX standings_rank ON standings (competition_id, rank, user_id)`.execute(db)

  await sql`CREATE TABLE leagues (
    id serial PRIMARY KEY,
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id),
    name text NOT NULL CHECK (char_length(name) BETWEEN 3 AND 50),
    description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
    privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('private', 'public')),
    code text NOT NULL UNIQUE,
    start_round integer NOT NULL DEFAULT 1,
    status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'active', 'complete')),
    league_class text NOT NULL DEFAULT 'tipping',
    num_users integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)
  await sql`CREATE INDEX leagues_public_name ON leagues (competition_id, lower(name)) WHERE privacy = 'public'`.execute(
    db,
  )

  await sql`CREATE TABLE league_members (
    league_id integer NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (league_id, user_id)
  )`.execute(db)
  await sql`CREATE INDEX league_members_user ON league_members (user_id)`.execute(db)

  await sql`CREATE TABLE content_settings (
    key text PRIMARY KEY,
    value jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)

  await sql`CREATE TABLE password_reset_tokens (
    token_hash bytea PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`.execute(db)

  await sql`CREATE TABLE email_outbox (
    id bigserial PRIMARY KEY,
    kind text NOT NULL,
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    error text
  )`.execute(db)

  await sql`CREATE TABLE reminder_log (
    round_id integer NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    sent_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (round_id, user_id)
  )`.execute(db)

  await sql`CREATE TABLE contact_messages (
    id bigserial PRIMARY KEY,
    user_id integer REFERENCES users(id) ON DELETE SET NULL,
    name text NOT NULL,
    email text NOT NULL,
    message text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)

  await sql`CREATE TABLE preregistrations (
    email text PRIMARY KEY,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)

  await sql`CREATE TABLE audit_log (
    id bigserial PRIMARY KEY,
    actor_user_id integer REFERENCES users(id) ON DELETE SET NULL,
    action text NOT NULL,
    entity text NOT NULL,
    entity_id text,
    data jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)

  await sql`INSERT INTO sports (code, name) VALUES ('bbl', 'Big Bash League'), ('wbbl', 'Women''s Big Bash League')`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'audit_log',
    'preregistrations',
    'contact_messages',
    'reminder_log',
    'email_outbox',
    'password_reset_tokens',
    'content_settings',
    'league_members',
    'leagues',
    'standings',
    'round_scores',
    'tips',
    'sessions',
    'competition_registrations',
    'users',
    'matches',
    'rounds',
    'venues',
    'squads',
    'competitions',
    'sports',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
