import { sql, type Kysely } from 'kysely'

// Frozen. Auto-tips are derived, not stored (docs/decisions/009-performance-at-scale.md): storing
// one row per untipped registered user made the lockout of one match a million-row insert. A
// registered user's tip on a match is the stored tip, or, once the match has locked and if they
// registered before it started, the away-squad auto-tip (GAME_RULES.md). Every read of tips that
// scores, counts or shows them goes through this view. Tips written before this migration,
// stored auto-tips among them, read the same through it.
//
// The tips join repeats `t.round_id = m.round_id` so that a read of one round (round_id = $1)
// lets the planner scan only that round's tips (tips_round_user) instead of the whole table.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE VIEW effective_tips AS
    SELECT cr.user_id, m.id AS match_id, m.round_id,
      coalesce(t.squad_id, m.away_squad_id) AS squad_id,
      CASE WHEN t.user_id IS NOT NULL THEN t.margin WHEN m.is_margin_game THEN 0 END AS margin,
      coalesce(t.is_auto_tip, true) AS is_auto_tip
    FROM matches m
    JOIN competition_registrations cr ON cr.competition_id = m.competition_id
    LEFT JOIN tips t ON t.user_id = cr.user_id AND t.match_id = m.id AND t.round_id = m.round_id
    WHERE t.user_id IS NOT NULL
       OR (m.status <> 'scheduled' AND cr.registered_at < m.starts_at)
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP VIEW effective_tips`.execute(db)
}
