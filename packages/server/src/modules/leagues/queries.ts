import { sql } from 'kysely'
import { LEAGUE_LIST_PAGE_SIZE } from '@tipping/contract/constants'
import type { Database } from '../../db/schema.ts'
import type { RankedTipper } from '../scores/ranking-row.ts'

// League rows come with their status derived from the start round: scheduled until that round
// begins, then active, complete with the competition (GAME_RULES.md "Leagues").
const leagueColumns = sql<string>`
  CASE WHEN c.status = 'complete' THEN 'complete'
       WHEN r.status IS NULL OR r.status = 'scheduled' THEN 'scheduled'
       ELSE 'active' END`

const leagueSelect = (db: Database, userId: number) =>
  db
    .selectFrom('leagues as l')
    .innerJoin('competitions as c', 'c.id', 'l.competition_id')
    .leftJoin('rounds as r', (j) =>
      j.onRef('r.competition_id', '=', 'l.competition_id').onRef('r.number', '=', 'l.start_round'),
    )
    .select([
      'l.id',
      'l.user_id',
      'l.name',
      'l.description',
      'l.privacy',
      'l.code',
      'l.start_round',
      'l.league_class',
      'l.num_users',
      leagueColumns.as('status'),
      sql<boolean>`EXISTS (SELECT 1 FROM league_members lm WHERE lm.league_id = l.id AND lm.user_id = ${userId})`.as(
        'is_member',
      ),
    ])

export type LeagueRow = Awaited<ReturnType<typeof findLeague>> & object

export const findLeague = (db: Database, competitionId: number, leagueId: number, userId: number) =>
  leagueSelect(db, userId)
    .where('l.competition_id', '=', competitionId)
    .where('l.id', '=', leagueId)
    .executeTakeFirst()

/** A league of any sport's current competition, with that sport (routes without a sport path). */
export const findCurrentLeague = (db: Database, leagueId: number, userId: number) =>
  leagueSelect(db, userId)
    .select('c.sport')
    .where('c.is_current', '=', true)
    .where('l.id', '=', leagueId)
    .executeTakeFirst()

export const findLeagueByCode = (
  db: Database,
  competitionId: number,
  code: string,
  userId: number,
) =>
  leagueSelect(db, userId)
    .where('l.competition_id', '=', competitionId)
    .where('l.code', '=', code)
    .executeTakeFirst()

export const ownLeagues = (db: Database, competitionId: number, userId: number, page: number) =>
  leagueSelect(db, userId)
    .innerJoin('league_members as m', 'm.league_id', 'l.id')
    .where('m.user_id', '=', userId)
    .where('l.competition_id', '=', competitionId)
    .orderBy('l.name')
    .orderBy('l.id')
    .limit(LEAGUE_LIST_PAGE_SIZE + 1)
    .offset((page - 1) * LEAGUE_LIST_PAGE_SIZE)
    .execute()

export const publicLeaguesByName = (
  db: Database,
  competitionId: number,
  search: string,
  userId: number,
  page: number,
) =>
  leagueSelect(db, userId)
    .where('l.competition_id', '=', competitionId)
    .where('l.privacy', '=', 'public')
    .where(
      sql<string>`lower(l.name)`,
      'like',
      `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`,
    )
    .orderBy('l.num_users', 'desc')
    .orderBy('l.id')
    .limit(LEAGUE_LIST_PAGE_SIZE + 1)
    .offset((page - 1) * LEAGUE_LIST_PAGE_SIZE)
    .execute()

export const insertLeague = (
  db: Database,
  l: {
    competitionId: number
    userId: number
    name: string
    description: string
    privacy: 'private' | 'public'
    code: string
    startRound: number
    requestId?: string | undefined
  },
) =>
  db
    .insertInto('leagues')
    .values({
      competition_id: l.competitionId,
      user_id: l.userId,
      name: l.name,
      description: l.description,
      privacy: l.privacy,
      code: l.code,
      start_round: l.startRound,
      num_users: 0,
      create_key: l.requestId ?? null,
    })
    // No conflict target: a join code taken or, for a create sent again while the first is being
    // written, the owner's create key (decision 049); the caller tells the two apart.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()

/** The league an owner made with a create key (decision 049), with what it was made from. */
export const leagueByCreateKey = (db: Database, userId: number, requestId: string) =>
  db
    .selectFrom('leagues')
    .select(['id', 'competition_id', 'name', 'description', 'privacy', 'start_round'])
    .where('user_id', '=', userId)
    .where('create_key', '=', requestId)
    .executeTakeFirst()

export const updateLeague = (
  db: Database,
  id: number,
  set: Partial<{
    name: string
    description: string
    privacy: 'private' | 'public'
    start_round: number
  }>,
) =>
  db
    .updateTable('leagues')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()

export const deleteLeague = (db: Database, id: number) =>
  db.deleteFrom('leagues').where('id', '=', id).execute()

/** Adds a member once; the count moves only when a row was really added. */
export async function addMember(db: Database, leagueId: number, userId: number): Promise<boolean> {
  const added = await db
    .insertInto('league_members')
    .values({ league_id: leagueId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst()
  if (added)
    await db
      .updateTable('leagues')
      .set((eb) => ({ num_users: eb('num_users', '+', 1) }))
      .where('id', '=', leagueId)
      .execute()
  return added !== undefined
}

export async function removeMember(
  db: Database,
  leagueId: number,
  userId: number,
): Promise<boolean> {
  const removed = await db
    .deleteFrom('league_members')
    .where('league_id', '=', leagueId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst()
  if (removed)
    await db
      .updateTable('leagues')
      .set((eb) => ({ num_users: eb('num_users', '-', 1) }))
      .where('id', '=', leagueId)
      .execute()
  return removed !== undefined
}

/** Of the given users, those who are members of the league. */
export const membersAmong = async (
  db: Database,
  leagueId: number,
  userIds: number[],
): Promise<number[]> =>
  (
    await db
      .selectFrom('league_members')
      .select('user_id')
      .where('league_id', '=', leagueId)
      .where('user_id', 'in', userIds)
      .execute()
  ).map((r) => r.user_id)

/** Removes several members in two statements; the count drops by the rows really removed. */
export async function removeMembers(
  db: Database,
  leagueId: number,
  userIds: number[],
): Promise<{ removed: number[]; numUsers: number }> {
  const removed =
    userIds.length === 0
      ? []
      : (
          await db
            .deleteFrom('league_members')
            .where('league_id', '=', leagueId)
            .where('user_id', 'in', userIds)
            .returning('user_id')
            .execute()
        ).map((r) => r.user_id)
  const { num_users } = await db
    .updateTable('leagues')
    .set((eb) => ({ num_users: eb('num_users', '-', removed.length) }))
    .where('id', '=', leagueId)
    .returning('num_users')
    .executeTakeFirstOrThrow()
  return { removed, numUsers: num_users }
}

/** A member of the league with what decides whether they may run it; undefined if not one. */
export const memberAccount = (db: Database, leagueId: number, userId: number) =>
  db
    .selectFrom('league_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.roles', 'u.deactivated_at'])
    .where('m.league_id', '=', leagueId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst()

/** Makes `to` the commissioner, only while `from` still is one; false when `from` no longer was. */
export async function setCommissioner(
  db: Database,
  leagueId: number,
  from: number,
  to: number,
): Promise<boolean> {
  const moved = await db
    .updateTable('leagues')
    .set({ user_id: to, updated_at: sql`now()` })
    .where('id', '=', leagueId)
    .where('user_id', '=', from)
    .returning('id')
    .executeTakeFirst()
  return moved !== undefined
}

export const userNames = (db: Database, userId: number) =>
  db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'team_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()

/** Locks the league row so membership changes of one league queue behind each other. */
export const lockLeague = (db: Database, leagueId: number) =>
  db
    .selectFrom('leagues')
    .select('id')
    .where('id', '=', leagueId)
    .forNoKeyUpdate()
    .executeTakeFirst()

export const joinedUsers = (db: Database, leagueId: number, page: number, size: number) =>
  db
    .selectFrom('league_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('leagues as l', 'l.id', 'm.league_id')
    .select([
      'u.id',
      'u.team_name',
      'u.first_name',
      'u.last_name',
      sql<boolean>`u.id = l.user_id`.as('is_commissioner'),
    ])
    .where('m.league_id', '=', leagueId)
    .orderBy('m.joined_at')
    .orderBy('u.id')
    .limit(size + 1)
    .offset((page - 1) * size)
    .execute()

export const firstOpenRound = async (db: Database, competitionId: number): Promise<number | null> =>
  (
    await db
      .selectFrom('rounds')
      .select('number')
      .where('competition_id', '=', competitionId)
      .where('status', '<>', 'complete')
      .orderBy('number')
      .limit(1)
      .executeTakeFirst()
  )?.number ?? null

export const roundCount = async (db: Database, competitionId: number): Promise<number> =>
  (
    await db
      .selectFrom('rounds')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('competition_id', '=', competitionId)
      .executeTakeFirstOrThrow()
  ).n

export interface LadderQuery {
  leagueId: number
  competitionId: number
  startRound: number
  roundNumber: number | null
  offset: number
  limit: number
  onlyUserId?: number
}

/**
 * The league ladder: members ranked by points then margin, summed from the league's start round
 * (overall) or in one round (week view), ranks shared as RANK() does; deactivated members left
 * out. A member registered late has their rows from the moment they registered (placeTipper).
 */
export async function ladderPage(db: Database, q: LadderQuery) {
  // round_scores is partitioned by round (migration 2026-11-24T0100): naming the rounds that can
  // count, as constants, lets the planner prune every other partition (the other sport's, the
  // rounds before the league started) instead of probing each member in all of them. A
  // competition_id condition alone prunes nothing.
  const counted = await db
    .selectFrom('rounds')
    .select('id')
    .where('competition_id', '=', q.competitionId)
    .where((eb) =>
      q.roundNumber === null
        ? eb('number', '>=', q.startRound)
        : eb.or([eb('number', '>=', q.startRound), eb('number', '=', q.roundNumber)]),
    )
    .execute()
  const roundIds = counted.map((r) => r.id)
  const res = await sql<RankedTipper>`
    WITH scores AS (
      SELECT m.user_id,
        coalesce(sum(rs.points) FILTER (WHERE r.number >= ${q.startRound}), 0)::int AS total_points,
        coalesce(sum(rs.margin) FILTER (WHERE r.number >= ${q.startRound}), 0)::int AS total_margin,
        coalesce(sum(rs.points) FILTER (WHERE r.number = ${q.roundNumber}), 0)::int AS week_points,
        coalesce(sum(rs.margin) FILTER (WHERE r.number = ${q.roundNumber}), 0)::int AS week_margin
      FROM league_members m
      -- GAME_RULES "Who is ranked": a deactivated member leaves the ladder, and comes back
      JOIN users active ON active.id = m.user_id AND active.deactivated_at IS NULL
      LEFT JOIN round_scores rs ON rs.user_id = m.user_id AND rs.competition_id = ${q.competitionId}
        AND rs.round_id = ANY(${roundIds}::int[])
      LEFT JOIN rounds r ON r.id = rs.round_id
      WHERE m.league_id = ${q.leagueId}
      GROUP BY m.user_id
    ),
    ranked AS (
      SELECT s.*,
        CASE WHEN ${q.roundNumber}::int IS NULL THEN s.total_points ELSE s.week_points END AS points,
        CASE WHEN ${q.roundNumber}::int IS NULL THEN s.total_margin ELSE s.week_margin END AS margin
      FROM scores s
    ),
    ordered AS (
      SELECT ranked.*, RANK() OVER (ORDER BY points DESC, margin ASC)::int AS rank FROM ranked
    )
    SELECT o.rank, o.user_id, u.team_name, u.first_name, u.last_name, o.points, o.margin, o.total_points, o.total_margin
    FROM ordered o JOIN users u ON u.id = o.user_id
    WHERE ${q.onlyUserId ?? null}::int IS NULL OR o.user_id = ${q.onlyUserId ?? null}
    ORDER BY o.rank, o.user_id
    LIMIT ${q.limit + 1} OFFSET ${q.offset}
  `.execute(db)
  return res.rows
}

/** One member of a league with every round's points and margin (leagueScores). */
export interface MemberScores {
  user_id: number
  team_name: string | null
  first_name: string
  last_name: string
  /** `round points margin` for each round the member has scores in, all in one string. */
  scores: string
}

/**
 * A league's members with their points and margin in every round of the competition, in user
 * id order: what every view of its ladder (overall from its start round, or any week) is ranked
 * from in the process (kept-league.ts KeptLeague, decision 038). One statement instead of one per
 * view; deactivated members left out, as in ladderPage. The scores come as one string a member:
 * a number array per round would be parsed by the driver value by value.
 */
export async function leagueScores(
  db: Database,
  at: { competitionId: number; leagueId: number },
): Promise<MemberScores[]> {
  // Every round of the competition named, so the planner prunes the other sport's partitions.
  const rounds = await db
    .selectFrom('rounds')
    .select('id')
    .where('competition_id', '=', at.competitionId)
    .execute()
  const res = await sql<MemberScores>`
    WITH scores AS (
      SELECT m.user_id,
        coalesce(string_agg(r.number || ' ' || rs.points || ' ' || rs.margin, ' '), '') AS scores
      FROM league_members m
      -- GAME_RULES "Who is ranked": a deactivated member leaves the ladder, and comes back
      JOIN users active ON active.id = m.user_id AND active.deactivated_at IS NULL
      LEFT JOIN round_scores rs ON rs.user_id = m.user_id AND rs.competition_id = ${at.competitionId}
        AND rs.round_id = ANY(${rounds.map((r) => r.id)}::int[])
      LEFT JOIN rounds r ON r.id = rs.round_id
      WHERE m.league_id = ${at.leagueId}
      GROUP BY m.user_id
    )
    SELECT s.user_id, u.team_name, u.first_name, u.last_name, s.scores
    FROM scores s JOIN users u ON u.id = s.user_id
    ORDER BY s.user_id
  `.execute(db)
  return res.rows
}

/**
 * The competition's leagues of more than `minMembers` members, the largest first: the few whose
 * ladders are built ahead of their readers (reads.ts warmBig), at start-up and once per result.
 * No index serves it: a scan of the leagues table (100,000 rows at a million tippers, some
 * milliseconds) and a top-N sort, no join.
 */
export const biggestLeagues = (
  db: Database,
  competitionId: number,
  minMembers: number,
  limit: number,
) =>
  db
    .selectFrom('leagues')
    .select(['id', 'start_round', 'num_users'])
    .where('competition_id', '=', competitionId)
    .where('num_users', '>', minMembers)
    .orderBy('num_users', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute()

/**
 * A league of one of the sport's past (not current) competitions, by id or join code, with that
 * season's year: why a write to it is refused (issue 31). By the primary key or the unique code.
 */
export const findPastLeague = (
  db: Database,
  sport: string,
  by: { id: number } | { code: string },
  userId: number,
) =>
  leagueSelect(db, userId)
    .select('c.year')
    .where('c.sport', '=', sport)
    .where('c.is_current', '=', false)
    .where('id' in by ? 'l.id' : 'l.code', '=', 'id' in by ? by.id : by.code)
    .executeTakeFirst()
