import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

// The season archive and league history (issue 31, decision 024). Every read names one past
// competition (or one league) and walks an index range: nothing here scans a whole season's
// tippers except the registration count of the seasons list, which the service keeps.

/**
 * The sport's past competitions: not current, and older than the current one (a season imported
 * ahead of time is not "past"). A handful of rows per sport; the tipper count is an index-only
 * count of competition_registrations' (competition_id, user_id) key.
 */
export const pastCompetitions = (db: Database, sport: string) =>
  db
    .selectFrom('competitions as c')
    .select([
      'c.id',
      'c.sport',
      'c.year',
      'c.season',
      'c.name',
      'c.golden_week_round',
      'c.scores_version',
      sql<number>`(SELECT count(*)::int FROM competition_registrations r WHERE r.competition_id = c.id)`.as(
        'tippers',
      ),
    ])
    .where('c.sport', '=', sport)
    .where('c.is_current', '=', false)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('competitions as cur')
            .select('cur.id')
            .where('cur.sport', '=', sport)
            .where('cur.is_current', '=', true)
            .whereRef('cur.season', '<=', 'c.season'),
        ),
      ),
    )
    .orderBy('c.season', 'desc')
    .execute()

export type PastCompetition = Awaited<ReturnType<typeof pastCompetitions>>[number]

/**
 * The final overall rankings of a past competition, one page: the rows after stored position
 * `offset` (the standings_position index, as the live rankings page them), deactivated tippers
 * left out and the rank shown less the deactivated ones above (rank_gaps), as scores/queries.ts
 * shows ranks. `userId`: that tipper's row alone.
 */
export async function finalRankings(
  db: Database,
  q: { competitionId: number; offset: number; limit: number; userId?: number },
) {
  let query = db
    .selectFrom('standings as s')
    .select([
      sql<number>`(coalesce(s.rank, 0) - coalesce((SELECT sum(g.n) FROM rank_gaps g
        WHERE g.competition_id = ${q.competitionId} AND g.round_id = 0
          AND (g.points > s.total_points OR (g.points = s.total_points AND g.margin < s.total_margin))), 0))::int`.as(
        'rank',
      ),
      's.position',
      's.user_id',
      's.team_name',
      's.first_name',
      's.last_name',
      's.total_points as points',
      's.total_margin as margin',
      's.total_points',
      's.total_margin',
    ])
    .where('s.competition_id', '=', q.competitionId)
    .where('s.active', '=', true)
  if (q.userId !== undefined) return query.where('s.user_id', '=', q.userId).execute()
  query = query
    .where('s.position', '>', q.offset)
    .where('s.position', '<=', q.offset + q.limit + 1)
    .orderBy('s.position')
  return query.execute()
}

/** The caller's leagues in a competition, with the league that renewed each (if any). */
export const leaguesOfUser = (db: Database, competitionId: number, userId: number, max: number) =>
  db
    .selectFrom('league_members as m')
    .innerJoin('leagues as l', 'l.id', 'm.league_id')
    .leftJoin('leagues as n', 'n.renewed_from', 'l.id')
    .select([
      'l.id',
      'l.name',
      'l.privacy',
      'l.num_users',
      'l.start_round',
      'l.user_id',
      'n.id as renewed_by',
    ])
    .where('m.user_id', '=', userId)
    .where('l.competition_id', '=', competitionId)
    .orderBy('l.name')
    .orderBy('l.id')
    .limit(max)
    .execute()

/** A league with its competition, of the sport; undefined when there is none. */
export const leagueWithCompetition = (db: Database, sport: string, leagueId: number) =>
  db
    .selectFrom('leagues as l')
    .innerJoin('competitions as c', 'c.id', 'l.competition_id')
    .leftJoin('leagues as n', 'n.renewed_from', 'l.id')
    .select([
      'l.id',
      'l.name',
      'l.description',
      'l.privacy',
      'l.num_users',
      'l.start_round',
      'l.user_id',
      'l.renewed_from',
      'n.id as renewed_by',
      'c.id as competition_id',
      'c.year',
      'c.season',
      'c.is_current',
    ])
    .where('c.sport', '=', sport)
    .where('l.id', '=', leagueId)
    .executeTakeFirst()

/**
 * Whether the user may see a league's history: a member of it or of any later season's league
 * renewed from it (a member today reads the seasons they joined too late for). UNION stops the
 * walk, one renewed_from index probe per season.
 */
export async function isMemberAlongChain(
  db: Database,
  leagueId: number,
  userId: number,
): Promise<boolean> {
  const res = await sql<{ ok: boolean }>`
    WITH RECURSIVE later AS (
      SELECT ${leagueId}::int AS id
      UNION
      SELECT n.id FROM leagues n JOIN later ON n.renewed_from = later.id
    )
    SELECT EXISTS (
      SELECT 1 FROM league_members m JOIN later ON m.league_id = later.id WHERE m.user_id = ${userId}
    ) AS ok
  `.execute(db)
  return res.rows[0]?.ok === true
}

/** The seasons behind a league: each league it was renewed from, newest first (at most 100). */
export async function earlierSeasons(db: Database, leagueId: number) {
  const res = await sql<{
    id: number
    name: string
    num_users: number
    start_round: number
    competition_id: number
    year: string
    season: number
    scores_version: number
  }>`
    WITH RECURSIVE earlier AS (
      SELECT l.renewed_from AS id, 1 AS depth FROM leagues l WHERE l.id = ${leagueId}
      UNION ALL
      SELECT p.renewed_from, e.depth + 1 FROM leagues p JOIN earlier e ON p.id = e.id
      WHERE e.depth < 100
    )
    SELECT l.id, l.name, l.num_users, l.start_round, l.competition_id, c.year, c.season,
      c.scores_version
    FROM earlier e
    JOIN leagues l ON l.id = e.id
    JOIN competitions c ON c.id = l.competition_id AND NOT c.is_current
    ORDER BY e.depth
  `.execute(db)
  return res.rows
}

/** The later season's league that renews this one, if any (read under the old league's lock). */
export const renewedBy = (db: Database, leagueId: number) =>
  db.selectFrom('leagues').select('id').where('renewed_from', '=', leagueId).executeTakeFirst()

export const insertRenewedLeague = (
  db: Database,
  l: {
    competitionId: number
    userId: number
    name: string
    description: string
    privacy: 'private' | 'public'
    code: string
    startRound: number
    renewedFrom: number
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
      renewed_from: l.renewedFrom,
    })
    .onConflict((oc) => oc.column('code').doNothing())
    .returning('id')
    .executeTakeFirst()

/**
 * The caller's open renewal offers in a competition: leagues renewed from one they were a member
 * of, which they have neither joined nor declined. From the caller's memberships
 * (league_members_user), then one renewed_from probe each.
 */
export const renewalOffers = (
  db: Database,
  competitionId: number,
  userId: number,
  leagueId?: number,
) => {
  let query = db
    .selectFrom('league_members as om')
    .innerJoin('leagues as nl', 'nl.renewed_from', 'om.league_id')
    .innerJoin('leagues as ol', 'ol.id', 'om.league_id')
    .innerJoin('competitions as oc', 'oc.id', 'ol.competition_id')
    .innerJoin('users as cu', 'cu.id', 'nl.user_id')
    .select([
      'nl.id',
      'nl.name',
      'nl.privacy',
      'nl.start_round',
      'nl.num_users',
      'om.league_id as from_id',
      'oc.year as from_year',
      'cu.team_name',
      'cu.first_name',
      'cu.last_name',
    ])
    .where('om.user_id', '=', userId)
    .where('nl.competition_id', '=', competitionId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('league_members as nm')
            .select('nm.user_id')
            .whereRef('nm.league_id', '=', 'nl.id')
            .where('nm.user_id', '=', userId),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('league_renewal_declines as d')
            .select('d.user_id')
            .whereRef('d.league_id', '=', 'nl.id')
            .where('d.user_id', '=', userId),
        ),
      ),
    )
  if (leagueId !== undefined) query = query.where('nl.id', '=', leagueId)
  return query.orderBy('nl.name').orderBy('nl.id').limit(100).execute()
}

export const declineRenewal = (db: Database, leagueId: number, userId: number) =>
  db
    .insertInto('league_renewal_declines')
    .values({ league_id: leagueId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute()

export const userNames = (db: Database, userId: number) =>
  db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'team_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()

export const isRegistered = async (db: Database, competitionId: number, userId: number) =>
  (await db
    .selectFrom('competition_registrations')
    .select('user_id')
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined
