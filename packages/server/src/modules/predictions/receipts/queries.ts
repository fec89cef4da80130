import { sql } from 'kysely'
import { TIPS_HISTORY_LIMIT } from '@tipping/contract/receipts'
import type { Database } from '../../../db/schema.ts'
import type { SaveLogRow } from '../receipts.ts'

// The save log's SQL (decision 027): the one INSERT a save adds, and the reads of the history
// and the public check.

/**
 * The save log's one statement per group commit: every accepted save of the batch in one
 * multi-row INSERT, run before the tips' upsert in the same transaction, so `changed` (each pick's
 * value before the save, where it differs) is read from the tips as they stood: a primary-key
 * probe of tips (user_id, match_id) per pick, rows the batch has already locked (their users'
 * registrations are locked first). No other read or write is added to the save.
 */
export async function insertSaves(db: Database, rows: SaveLogRow[]): Promise<void> {
  if (rows.length === 0) return
  const payload = rows.map((r) => ({
    id: r.id,
    u: r.userId,
    c: r.competitionId,
    t: r.savedAt.toISOString(),
    p: [...r.picks].sort((a, b) => a.m - b.m),
    d: r.digest,
    k: r.kind,
    // Absent rather than null: a missing key is SQL NULL for COALESCE below.
    ...(r.before ? { b: r.before } : {}),
  }))
  // s.b, when given, is the before-values the write already knows (an autopick's or a clear's,
  // decision 029): then tips are not read at all.
  await sql`
    INSERT INTO tip_saves (id, user_id, competition_id, saved_at, picks, changed, digest, kind)
    SELECT s.id, s.u, s.c, s.t, s.p,
      COALESCE(s.b, (
        SELECT jsonb_agg(jsonb_build_object('m', p.m, 's', t.squad_id, 'g', t.margin) ORDER BY p.m)
        FROM jsonb_to_recordset(s.p) AS p(m int, s int, g int)
        LEFT JOIN tips t ON t.user_id = s.u AND t.match_id = p.m
        WHERE t.squad_id IS DISTINCT FROM p.s OR t.margin IS DISTINCT FROM p.g
      ), '[]'::jsonb),
      s.d, s.k
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb)
      AS s(id text, u int, c int, t timestamptz, p jsonb, d text, k text, b jsonb)
  `.execute(db)
}

/** One stored save with its receipt parts, or undefined. By primary key. */
export async function saveById(db: Database, id: string): Promise<SaveLogRow | undefined> {
  const row = await db
    .selectFrom('tip_saves')
    .select(['id', 'kind', 'user_id', 'competition_id', 'saved_at', 'picks', 'digest'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row
    ? {
        id: row.id,
        kind: row.kind,
        userId: row.user_id,
        competitionId: row.competition_id,
        savedAt: new Date(row.saved_at),
        picks: row.picks,
        digest: row.digest,
      }
    : undefined
}

/**
 * A user's saves of a season, newest first, with what each changed. Index tip_saves_user_season
 * (user_id, competition_id, saved_at) read backwards, at most TIPS_HISTORY_LIMIT rows; the
 * matches they name by primary key. Off the hot path: the history page alone reads it.
 */
export async function savesOfUser(db: Database, userId: number, competitionId: number) {
  const rows = await db
    .selectFrom('tip_saves')
    .select(['id', 'kind', 'user_id', 'competition_id', 'saved_at', 'picks', 'changed', 'digest'])
    .where('user_id', '=', userId)
    .where('competition_id', '=', competitionId)
    .orderBy('saved_at', 'desc')
    .orderBy('id')
    .limit(TIPS_HISTORY_LIMIT)
    .execute()
  const matchIds = [...new Set(rows.flatMap((r) => r.picks.map((p) => p.m)))]
  const matches =
    matchIds.length === 0
      ? []
      : await db
          .selectFrom('matches')
          .innerJoin('rounds', 'rounds.id', 'matches.round_id')
          .select(['matches.id', 'matches.number', 'rounds.number as round'])
          .where('matches.id', 'in', matchIds)
          .execute()
  return { rows, matches: new Map(matches.map((m) => [m.id, m])) }
}
