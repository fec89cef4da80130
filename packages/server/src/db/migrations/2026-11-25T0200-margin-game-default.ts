import { sql, type Kysely } from 'kysely'

// Frozen. GAME_RULES.md: exactly one match per round is the margin game; the fixture marks it, and
// if it does not, the round's last match by start time (ties: the higher number) is. The rule
// itself is marginGameOf in packages/contract/src/rules/margin-game.ts; this says the same in SQL.
//
// 1. matches.margin_game_flagged: the fixture (or an admin) marked this match. is_margin_game stays
//    the one every reader uses, the margin game in effect: the marked match, else the round's last.
//    Keeping the mark apart lets the default follow a start time that changes, while a marked
//    match stays put. Every margin game already stored came from a fixture's mark or an admin's
//    choice, so it becomes a mark.
// 2. Rounds that have matches but no margin game (their fixture marked none) get their last match.
//    Scores of rounds already complete change only when they are next re-scored.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE matches ADD COLUMN margin_game_flagged boolean NOT NULL DEFAULT false`.execute(
    db,
  )
  await sql`UPDATE matches SET margin_game_flagged = true WHERE is_margin_game`.execute(db)
  await sql`CREATE UNIQUE INDEX matches_one_margin_game_flag ON matches (round_id)
    WHERE margin_game_flagged`.execute(db)
  await sql`UPDATE matches m SET is_margin_game = true, updated_at = now()
    FROM (
      SELECT DISTINCT ON (x.round_id) x.id
      FROM matches x
      WHERE NOT EXISTS (SELECT 1 FROM matches y WHERE y.round_id = x.round_id AND y.is_margin_game)
      ORDER BY x.round_id, x.starts_at DESC, x.number DESC
    ) last
    WHERE m.id = last.id`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // The margin games given by default stay: they are what the rule says, marked or not.
  await sql`DROP INDEX matches_one_margin_game_flag`.execute(db)
  await sql`ALTER TABLE matches DROP COLUMN margin_game_flagged`.execute(db)
}
