import { sql } from 'kysely'
import type { RoundNumber } from '@tipping/contract/ids'
import { PREPARED } from '../../db/database.ts'
import type { Database } from '../../db/schema.ts'

export const roundByNumber = (db: Database, competitionId: number, number: RoundNumber) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'label', 'status'])
    .where('competition_id', '=', competitionId)
    .where('number', '=', number)
    .executeTakeFirst()

const matchColumns = [
  'id',
  'number',
  'status',
  'starts_at',
  'venue_id',
  'home_squad_id',
  'away_squad_id',
  'match_class',
  'is_margin_game',
  'home_runs',
  'home_wickets',
  'home_balls',
  'away_runs',
  'away_wickets',
  'away_balls',
  'sixes',
  'outcome',
  'winner_squad_id',
  'locked_at',
] as const

export const roundMatches = (db: Database, roundId: number) =>
  db
    .selectFrom('matches')
    .select(matchColumns)
    .where('round_id', '=', roundId)
    .orderBy('starts_at')
    .orderBy('number')
    .execute()

export type MatchRecord = Awaited<ReturnType<typeof roundMatches>>[number]

/** The user's tips in the round, auto-tips on locked matches included (effective_tips). */
export const userRoundTips = (db: Database, userId: number, roundId: number) =>
  db
    .selectFrom('effective_tips')
    .select(['match_id', 'squad_id', 'margin', 'is_auto_tip', 'is_autopilot'])
    .where('user_id', '=', userId)
    .where('round_id', '=', roundId)
    .execute()

export type TipRecord = Awaited<ReturnType<typeof userRoundTips>>[number]

/**
 * userRoundTips for many users of one round in one query (requests arriving together). Prepared:
 * planning the view's three-way join cost about as much as running it for a batch, and its plan
 * (each user's registrations and tips by index) suits every round and every set of users
 * (decision 009 has the measurements).
 */
export const usersRoundTips = async (db: Database, roundId: number, userIds: number[]) =>
  (
    await sql<TipRecord & { user_id: number }>`${PREPARED}
      SELECT user_id, match_id, squad_id, margin, is_auto_tip, is_autopilot FROM effective_tips
      WHERE round_id = ${roundId} AND user_id = ANY(${userIds}::int[])`.execute(db)
  ).rows

/** The comment the count's SQL starts with (written out in it): tests count the statements by it. */
export const PICK_COUNT_MARKER = '/* pick counts */'

/**
 * How many tippers picked each squad of the given matches (a round's, or a list), auto-tips in:
 * the same figures as the view match_pick_counts, and as effective_tips grouped by match and
 * squad (pick-counts.property.test.ts holds them equal), counted with far less work at 1M
 * (decision 032). The view counts each match on its own: one pass over the match's tips and one
 * over the competition's registrations per match (8 registration scans for a round of 8). Here:
 * - the stored tips of all the matches in one index-only range scan of tips_match_user
 *   (match_id, user_id) INCLUDE (squad_id), grouped by match and squad;
 * - the registrations read once per competition: each is put in the bucket of the locked matches'
 *   distinct start times it precedes (width_bucket), so "registered before match k started" is
 *   the sum of the buckets below k's start;
 * - on a locked match the away squad gains those registrations less the stored tips on it (every
 *   stored tip is by a user registered before the match started: a tip needs a registration and
 *   is refused once the match has started, so the untipped are exactly the difference).
 * Each sub-result is MATERIALIZED, or the planner re-runs the registrations scan per match.
 */
export async function pickCounts(
  db: Database,
  of: { roundId: number } | { matchIds: readonly number[] },
): Promise<{ match_id: number; squad_id: number; picks: number }[]> {
  const which =
    'roundId' in of ? sql`m.round_id = ${of.roundId}` : sql`m.id = ANY(${[...of.matchIds]}::int[])`
  const res = await sql<{ match_id: number; squad_id: number; picks: number }>`/* pick counts */
    WITH m AS MATERIALIZED (
      SELECT m.id, m.competition_id, m.home_squad_id, m.away_squad_id, m.starts_at,
        m.status <> 'scheduled' AS locked
      FROM matches m WHERE ${which}
    ),
    t AS MATERIALIZED (
      SELECT t.match_id, t.squad_id, count(*) AS n FROM tips t
      WHERE t.match_id = ANY(ARRAY(SELECT id FROM m)) GROUP BY t.match_id, t.squad_id
    ),
    starts AS MATERIALIZED (
      SELECT competition_id, array_agg(DISTINCT starts_at ORDER BY starts_at) AS at
      FROM m WHERE locked GROUP BY competition_id
    ),
    regs AS MATERIALIZED (
      SELECT s.competition_id, width_bucket(cr.registered_at, s.at) AS b, count(*) AS n
      FROM starts s JOIN competition_registrations cr ON cr.competition_id = s.competition_id
        AND cr.registered_at < s.at[cardinality(s.at)]
      GROUP BY 1, 2
    )
    SELECT m.id AS match_id, sq.squad_id,
      (CASE WHEN sq.squad_id = m.home_squad_id THEN c.home ELSE c.away + a.auto END)::int AS picks
    FROM m
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(t.n) FILTER (WHERE t.squad_id = m.home_squad_id), 0) AS home,
        coalesce(sum(t.n) FILTER (WHERE t.squad_id = m.away_squad_id), 0) AS away,
        coalesce(sum(t.n), 0) AS tipped
      FROM t WHERE t.match_id = m.id
    ) c
    CROSS JOIN LATERAL (
      SELECT CASE WHEN m.locked THEN greatest(0, coalesce((
        SELECT sum(r.n) FROM regs r JOIN starts s ON s.competition_id = r.competition_id
        WHERE r.competition_id = m.competition_id AND r.b < array_position(s.at, m.starts_at)
      ), 0) - c.tipped) ELSE 0 END AS auto
    ) a
    CROSS JOIN LATERAL (VALUES (m.home_squad_id), (m.away_squad_id)) AS sq(squad_id)
    ORDER BY 1, 2`.execute(db)
  return res.rows
}

/**
 * The rounds whose pick counts are built ahead of their readers (decision 032): in each current
 * competition, the first two rounds with a match not yet complete (the round being played or
 * tipped, and the next). A scan of matches (some hundreds of rows).
 */
export const roundsToCount = async (db: Database): Promise<number[]> =>
  (
    await sql<{ round_id: number }>`
      SELECT round_id FROM (
        SELECT r.id AS round_id,
          row_number() OVER (PARTITION BY r.competition_id ORDER BY r.number) AS nth
        FROM rounds r JOIN competitions c ON c.id = r.competition_id
        WHERE c.is_current
          AND EXISTS (SELECT 1 FROM matches m WHERE m.round_id = r.id AND m.status <> 'complete')
      ) open WHERE nth <= 2`.execute(db)
  ).rows.map((r) => r.round_id)

/** How many tippers picked each squad of each match in the round (the live pick split, auto-tips in). */
export const roundPickCounts = (db: Database, roundId: number) => pickCounts(db, { roundId })

/**
 * The matches a save touches, locked against a concurrent result or lockout change for the
 * rest of the transaction.
 */
export interface TippableMatch {
  id: number
  round_id: number
  number: number
  status: MatchRecord['status']
  starts_at: Date
  home_squad_id: number
  away_squad_id: number
  is_margin_game: boolean
}

/**
 * One round trip for a tip write's locks: the user's registration FOR UPDATE (see
 * lockRegistration) and the listed matches of the competition FOR SHARE, so the lockout job and
 * an admin's change of a start time wait for the write, and it sees their result if they were
 * first. `registered` is null when no listed match exists (nothing was locked).
 */
export async function lockForTipping(
  db: Database,
  competitionId: number,
  userId: number,
  matchIds: number[],
): Promise<{ registered: boolean | null; matches: TippableMatch[] }> {
  const res = await sql<TippableMatch & { registered: boolean }>`
    WITH reg AS (
      SELECT 1 FROM competition_registrations
      WHERE competition_id = ${competitionId} AND user_id = ${userId}
      FOR UPDATE
    )
    SELECT m.id, m.round_id, m.number, m.status, m.starts_at, m.home_squad_id, m.away_squad_id,
      m.is_margin_game, EXISTS (SELECT 1 FROM reg) AS registered
    FROM matches m
    WHERE m.competition_id = ${competitionId} AND m.id IN (${sql.join(matchIds)})
    FOR SHARE OF m
  `.execute(db)
  return {
    registered: res.rows[0]?.registered ?? null,
    matches: res.rows.map(({ registered: _r, ...m }) => m),
  }
}

/** Registration rows of many users FOR UPDATE, in user order (group commit); who is registered. */
export const lockRegistrations = async (db: Database, competitionId: number, userIds: number[]) =>
  new Set(
    (
      await db
        .selectFrom('competition_registrations')
        .select('user_id')
        .where('competition_id', '=', competitionId)
        .where('user_id', '=', sql<number>`ANY(${userIds}::int[])`)
        .orderBy('user_id')
        .forUpdate()
        .execute()
    ).map((r) => r.user_id),
  )

/** The listed matches of the competition FOR SHARE (see lockForTipping). */
export const lockMatchesForTipping = async (
  db: Database,
  competitionId: number,
  matchIds: number[],
): Promise<TippableMatch[]> =>
  db
    .selectFrom('matches')
    .select([
      'id',
      'round_id',
      'number',
      'status',
      'starts_at',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
    ])
    .where('competition_id', '=', competitionId)
    .where('id', 'in', matchIds)
    .orderBy('id')
    .forShare()
    .execute()

export const isRegistered = async (db: Database, competitionId: number, userId: number) =>
  (await db
    .selectFrom('competition_registrations')
    .select('user_id')
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined

/**
 * Locks the user's registration for the competition (FOR UPDATE) and tells whether there is one.
 * Every write of a user's tips takes it first, so two writes of one user's tips (two sessions,
 * a double click, save against autopick or clear) run one after the other on PostgreSQL's READ
 * COMMITTED: never interleaved row by row, never deadlocked.
 */
export const lockRegistration = async (db: Database, competitionId: number, userId: number) =>
  (await db
    .selectFrom('competition_registrations')
    .select('user_id')
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst()) !== undefined

export interface TipWrite {
  userId: number
  matchId: number
  roundId: number
  squadId: number
  margin: number | null
  now: Date
}

/**
 * Ordinary tips (never auto-tips) stamped with their save time, as one row source: six array
 * parameters unnested, whatever the number of tips. A VALUES list of a group commit's few hundred
 * tips was a large share of the rush's CPU to build and bind, and a fresh plan each time for the
 * database (decision 009).
 */
const tipSource = (tips: TipWrite[]) => sql`
  SELECT u, m, r, s, g, false, t, t
  FROM unnest(
    ${tips.map((x) => x.userId)}::int[], ${tips.map((x) => x.matchId)}::int[],
    ${tips.map((x) => x.roundId)}::int[], ${tips.map((x) => x.squadId)}::int[],
    ${tips.map((x) => x.margin)}::int[], ${tips.map((x) => x.now)}::timestamptz[]
  ) AS tip(u, m, r, s, g, t)
`

export const upsertTips = (db: Database, tips: TipWrite[]) =>
  sql`
    INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, created_at, updated_at)
    ${tipSource(tips)}
    ON CONFLICT (user_id, match_id) DO UPDATE SET
      squad_id = excluded.squad_id, margin = excluded.margin, is_auto_tip = false,
      is_autopilot = false, -- the player's own save: the tip is theirs now (decision 026)
      updated_at = excluded.updated_at
  `.execute(db)

/** For autopick: the squad more tippers have picked on each match, home on a tie or no tips. */
export const majoritySquads = async (db: Database, matchIds: number[]) => {
  const rows = await sql<{ match_id: number; squad_id: number }>`
    SELECT m.id AS match_id,
      CASE WHEN count(*) FILTER (WHERE t.squad_id = m.away_squad_id) > count(*) FILTER (WHERE t.squad_id = m.home_squad_id)
           THEN m.away_squad_id ELSE m.home_squad_id END AS squad_id
    FROM matches m LEFT JOIN tips t ON t.match_id = m.id
    WHERE m.id IN (${sql.join(matchIds)})
    GROUP BY m.id
  `.execute(db)
  return new Map(rows.rows.map((r) => [r.match_id, r.squad_id]))
}

/** A tip a write touched: what it is now (autopick) or was (clear). For the write's receipt. */
export interface TouchedTip {
  match_id: number
  round_id: number
  squad_id: number
  margin: number | null
}

/**
 * Inserts tips only where the user has none (autopick never overwrites a choice); returns the
 * ones it inserted, which are exactly what the autopick's receipt lists (decision 029).
 */
export const insertMissingTips = async (db: Database, tips: TipWrite[]) =>
  (
    await sql<TouchedTip>`
      INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, created_at, updated_at)
      ${tipSource(tips)}
      ON CONFLICT (user_id, match_id) DO NOTHING
      RETURNING match_id, round_id, squad_id, margin
    `.execute(db)
  ).rows

/** Removes the user's tips on the matches; returns what was removed (the clear's receipt). */
export const deleteTips = (db: Database, userId: number, matchIds: number[]) =>
  db
    .deleteFrom('tips')
    .where('user_id', '=', userId)
    .where('match_id', 'in', matchIds)
    .returning(['match_id', 'round_id', 'squad_id', 'margin'])
    .execute()

export const tipperById = (db: Database, competitionId: number, userId: number) =>
  db
    .selectFrom('users as u')
    .innerJoin('competition_registrations as cr', 'cr.user_id', 'u.id')
    .select(['u.id', 'u.team_name', 'u.first_name', 'u.last_name'])
    .where('cr.competition_id', '=', competitionId)
    .where('u.id', '=', userId)
    .where('u.deactivated_at', 'is', null)
    .executeTakeFirst()

/** Tips on the given matches by everyone who shares a league with the user, first `limit` by name per match. */
export const leagueMatesTips = (
  db: Database,
  competitionId: number,
  userId: number,
  matchIds: number[],
  limit: number,
) => {
  const mates = db
    .selectFrom('league_members as mine')
    .innerJoin('leagues as l', 'l.id', 'mine.league_id')
    .innerJoin('league_members as other', 'other.league_id', 'l.id')
    .select('other.user_id')
    .where('mine.user_id', '=', userId)
    .where('l.competition_id', '=', competitionId)
  const ranked = db
    .selectFrom('effective_tips as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.match_id',
      't.user_id',
      't.squad_id',
      't.margin',
      't.is_auto_tip',
      'u.team_name',
      'u.first_name',
      'u.last_name',
      sql<number>`row_number() over (partition by t.match_id order by lower(coalesce(u.team_name, u.first_name)), u.id)`.as(
        'n',
      ),
    ])
    .where('t.match_id', 'in', matchIds)
    .where('t.user_id', '!=', userId)
    .where('t.user_id', 'in', mates)
    .where('u.deactivated_at', 'is', null)
  return db
    .selectFrom(ranked.as('x'))
    .selectAll()
    .where('n', '<=', limit)
    .orderBy('match_id')
    .orderBy('n')
    .execute()
}
