import { sql, type Kysely } from 'kysely'

// Frozen. Each new tip row fired four foreign-key checks (user, match, round, squad), each an
// index probe that also takes a KEY SHARE lock on the parent row, and in a deadline rush every
// save probes the same few match, round and squad rows: about half of PostgreSQL's work per save
// (docs/decisions/009-performance-at-scale.md, "Tips without foreign keys"). Measured on the
// rush at a million tippers, three alternated pairs: 3,501-4,190 saves/s with the keys,
// 4,451-4,739 without.
//
// The tip writer (modules/predictions) already guarantees what the keys checked, under locks it
// holds until commit: the user's registration FOR UPDATE (registrations keep their key to users),
// the listed matches of the competition FOR SHARE, the round taken from the locked match and the
// squad checked to be one of its two. Nothing deletes users, matches, rounds or squads, so the
// cascades never ran. Backups and restores are unaffected.

const KEYS = ['tips_user_id_fkey', 'tips_match_id_fkey', 'tips_round_id_fkey', 'tips_squad_id_fkey']

export async function up(db: Kysely<any>): Promise<void> {
  for (const key of KEYS)
    await sql`ALTER TABLE tips DROP CONSTRAINT IF EXISTS ${sql.id(key)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tips
    ADD CONSTRAINT tips_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
    ADD CONSTRAINT tips_match_id_fkey FOREIGN KEY (match_id) REFERENCES matches(id) ON DELETE CASCADE,
    ADD CONSTRAINT tips_round_id_fkey FOREIGN KEY (round_id) REFERENCES rounds(id) ON DELETE CASCADE,
    ADD CONSTRAINT tips_squad_id_fkey FOREIGN KEY (squad_id) REFERENCES squads(id)`.execute(db)
}
