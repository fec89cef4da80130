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
//
// match_pick_counts counts the same picks per match and squad without building them: the stored
// tips on the match (one pass over its index entries), and on a locked match the away squad gains
// one per registered-before-start user minus the stored tips. That subtraction relies on every
// stored tip on a match being by a user registered before it started, which holds because a tip
// needs a registration and is refused once the match has started. At a million tippers a round
// counts in about a second this way, against several through effective_tips.

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
  await sql`
    CREATE VIEW match_pick_counts AS
    SELECT m.round_id, m.id AS match_id, sq.squad_id,
      (CASE WHEN sq.squad_id = m.home_squad_id THEN c.home ELSE c.away + c.auto END)::int AS picks
    FROM matches m
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE t.squad_id = m.home_squad_id) AS home,
        count(*) FILTER (WHERE t.squad_id = m.away_squad_id) AS away,
        CASE WHEN m.status <> 'scheduled' THEN greatest(0,
          (SELECT count(*) FROM competition_registrations cr
           WHERE cr.competition_id = m.competition_id AND cr.registered_at < m.starts_at)
          - count(*)) ELSE 0 END AS auto
      FROM tips t WHERE t.match_id = m.id
    ) c
    CROSS JOIN LATERAL (VALUES (m.home_squad_id), (m.away_squad_id)) AS sq(squad_id)
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP VIEW match_pick_counts`.execute(db)
  await sql`DROP VIEW effective_tips`.execute(db)
}
