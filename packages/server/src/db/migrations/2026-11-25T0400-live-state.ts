import { sql, type Kysely } from 'kysely'

// Frozen. Live state and the push channel (docs/decisions/015-live-push.md).
//
// live_scores: one row per match in progress, apart from the result columns of matches, so a
// live score never reaches scoring (which reads only completed matches' results). `innings` is
// the innings so far, first innings first, overs as legal balls; `version` counts changes.
//
// live_events: every event the push channel sends (a live score changed, a result set or
// corrected), in the order they committed. Each insert announces itself at commit on channel
// `live_events`; every API process listens and writes it to its connected pages. The table lets a
// page that reconnects with Last-Event-ID catch up, and a process whose listening connection
// dropped catch up too. Old rows are pruned. The notice carries the whole event when it fits in
// a notice (8,000 bytes), else only the id and sport, and the process reads the row.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE live_scores (
    match_id integer PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    innings jsonb NOT NULL,
    version integer NOT NULL,
    updated_at timestamptz NOT NULL
  )`.execute(db)

  await sql`CREATE TABLE live_events (
    id bigserial PRIMARY KEY,
    sport text NOT NULL,
    competition_id integer NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
    type text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)
  await sql`CREATE INDEX live_events_sport_id ON live_events (sport, id)`.execute(db)
  await sql`CREATE INDEX live_events_created_at ON live_events (created_at)`.execute(db)

  await sql`CREATE FUNCTION announce_live_event() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      whole text;
    BEGIN
      whole := json_build_object('id', NEW.id, 'sport', NEW.sport, 'type', NEW.type,
        'payload', NEW.payload)::text;
      IF octet_length(whole) < 7900 THEN
        PERFORM pg_notify('live_events', whole);
      ELSE
        PERFORM pg_notify('live_events', json_build_object('id', NEW.id, 'sport', NEW.sport)::text);
      END IF;
      RETURN NULL;
    END
  $$`.execute(db)
  await sql`CREATE TRIGGER live_events_notice AFTER INSERT ON live_events
    FOR EACH ROW EXECUTE FUNCTION announce_live_event()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER live_events_notice ON live_events`.execute(db)
  await sql`DROP FUNCTION announce_live_event()`.execute(db)
  await sql`DROP TABLE live_events`.execute(db)
  await sql`DROP TABLE live_scores`.execute(db)
}
