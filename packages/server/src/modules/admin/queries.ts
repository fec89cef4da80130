import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'

// The admin console's reads and writes. Every write runs inside the caller's transaction, next to
// its audit row.

// Competitions ------------------------------------------------------------------------------

export const competitions = (db: Database, id?: number) => {
  let query = db
    .selectFrom('competitions as c')
    .select([
      'c.id',
      'c.sport',
      'c.identifier',
      'c.season',
      'c.name',
      'c.year',
      'c.is_current',
      'c.golden_week_round',
      'c.ladder_points',
      sql<number>`(SELECT count(*) FROM rounds r WHERE r.competition_id = c.id)::int`.as('rounds'),
      sql<number>`(SELECT count(*) FROM matches m WHERE m.competition_id = c.id)::int`.as(
        'matches',
      ),
      sql<number>`(SELECT count(*) FROM matches m WHERE m.competition_id = c.id AND m.status = 'complete')::int`.as(
        'completed_matches',
      ),
    ])
    .orderBy('c.sport')
    .orderBy('c.season', 'desc')
  if (id !== undefined) query = query.where('c.id', '=', id)
  return query.execute()
}
export type CompetitionRow = Awaited<ReturnType<typeof competitions>>[number]

export const lockCompetition = (db: Database, id: number) =>
  db
    .selectFrom('competitions')
    .select(['id', 'sport', 'golden_week_round', 'ladder_points', 'is_current'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()

export const insertCompetition = (
  db: Database,
  c: {
    sport: string
    identifier: string
    season: number
    name: string
    year: string
    goldenWeekRound: number | null
    ladderPoints: object
  },
) =>
  db
    .insertInto('competitions')
    .values({
      sport: c.sport,
      identifier: c.identifier,
      season: c.season,
      name: c.name,
      year: c.year,
      golden_week_round: c.goldenWeekRound,
      ladder_points: JSON.stringify(c.ladderPoints),
      assumptions: '[]',
      sources: '[]',
    })
    .onConflict((oc) => oc.column('identifier').doNothing())
    .returning('id')
    .executeTakeFirst()

export const competitionIdBySportSeason = (db: Database, sport: string, season: number) =>
  db
    .selectFrom('competitions')
    .select('id')
    .where('sport', '=', sport)
    .where('season', '=', season)
    .executeTakeFirst()

export const updateCompetition = (
  db: Database,
  id: number,
  set: { golden_week_round?: number | null; ladder_points?: string },
) => db.updateTable('competitions').set(set).where('id', '=', id).execute()

export const makeOnlyCurrent = async (db: Database, sport: string, id: number) => {
  await db
    .updateTable('competitions')
    .set({ is_current: sql<boolean>`id = ${id}` })
    .where('sport', '=', sport)
    .execute()
}

export const roundByNumber = (db: Database, competitionId: number, number: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'status'])
    .where('competition_id', '=', competitionId)
    .where('number', '=', number)
    .executeTakeFirst()

/** Fixture matches keyed by number with what an import may change, to count the changes. */
export const fixtureSnapshot = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches')
    .select([
      'number',
      'starts_at',
      'venue_id',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'status',
    ])
    .where('competition_id', '=', competitionId)
    .execute()

export const tipperCount = async (db: Database, competitionId: number): Promise<number> =>
  (
    await db
      .selectFrom('round_scores')
      .select(sql<number>`count(DISTINCT user_id)::int`.as('n'))
      .where('competition_id', '=', competitionId)
      .executeTakeFirstOrThrow()
  ).n

// Rounds and matches ------------------------------------------------------------------------

export const rounds = (db: Database, competitionId: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'label', 'status'])
    .where('competition_id', '=', competitionId)
    .orderBy('number')
    .execute()

const matchColumns = [
  'm.id',
  'm.number',
  'm.round_id',
  'm.competition_id',
  'm.starts_at',
  'm.status',
  'm.venue_id',
  'm.home_squad_id',
  'm.away_squad_id',
  'm.is_margin_game',
  'm.margin_game_flagged',
  'm.stage',
  'm.outcome',
  'm.winner_squad_id',
  'm.home_runs',
  'm.home_wickets',
  'm.home_balls',
  'm.away_runs',
  'm.away_wickets',
  'm.away_balls',
  'm.sixes',
  'm.method',
] as const

export const matches = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches as m')
    .select(matchColumns)
    .where('m.competition_id', '=', competitionId)
    .orderBy('m.number')
    .execute()
export type AdminMatchRow = Awaited<ReturnType<typeof matches>>[number]

export const lockMatch = (db: Database, id: number) =>
  db
    .selectFrom('matches as m')
    .innerJoin('rounds as r', 'r.id', 'm.round_id')
    .select([...matchColumns, 'r.status as round_status', 'r.number as round_number'])
    .where('m.id', '=', id)
    .forUpdate()
    .executeTakeFirst()

export const matchById = (db: Database, id: number) =>
  db.selectFrom('matches as m').select(matchColumns).where('m.id', '=', id).executeTakeFirst()

/** Whether any match of the round has started by `now` (by the clock, not only by status). */
export const roundHasStarted = async (db: Database, roundId: number, now: Date) =>
  (await db
    .selectFrom('matches')
    .select('id')
    .where('round_id', '=', roundId)
    .where((eb) => eb.or([eb('status', '!=', 'scheduled'), eb('starts_at', '<=', now)]))
    .executeTakeFirst()) !== undefined

export const updateMatch = (
  db: Database,
  id: number,
  set: { starts_at?: Date; venue_id?: number },
) =>
  db
    .updateTable('matches')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()

/**
 * Puts the margin game mark on a match (off the round's other matches first: one mark per round)
 * or takes it off; the margin game in effect follows in seasons' settleMarginGames.
 */
export async function markMarginGame(
  db: Database,
  roundId: number,
  matchId: number,
  marked: boolean,
) {
  if (marked)
    await db
      .updateTable('matches')
      .set({ margin_game_flagged: false, updated_at: sql`now()` })
      .where('round_id', '=', roundId)
      .where('margin_game_flagged', '=', true)
      .where('id', '!=', matchId)
      .execute()
  await db
    .updateTable('matches')
    .set({ margin_game_flagged: marked, updated_at: sql`now()` })
    .where('id', '=', matchId)
    .execute()
}

export const venueExists = async (db: Database, id: number) =>
  (await db.selectFrom('venues').select('id').where('id', '=', id).executeTakeFirst()) !== undefined

export const competitionSquads = (db: Database, sport: string) =>
  db
    .selectFrom('squads')
    .select(['id', 'name', 'short_name'])
    .where('sport', '=', sport)
    .orderBy('name')
    .execute()

export const allVenues = (db: Database) =>
  db.selectFrom('venues').select(['id', 'name', 'city']).orderBy('name').execute()

export const updateRoundLabel = (db: Database, id: number, label: string) =>
  db.updateTable('rounds').set({ label }).where('id', '=', id).execute()

export const lockRound = (db: Database, id: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'competition_id', 'number', 'label', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()

// Users ------------------------------------------------------------------------------------

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export const users = (db: Database, search: string | undefined, offset: number, limit: number) => {
  let query = db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'team_name',
      'roles',
      'registered_at',
      'deactivated_at',
      'external_id',
    ])
    .orderBy('id')
    .offset(offset)
    .limit(limit)
  if (search) {
    const pattern = like(search)
    query = query.where((eb) =>
      eb.or([
        eb('email', 'ilike', pattern),
        eb(sql<string>`first_name || ' ' || last_name`, 'ilike', pattern),
        eb('team_name', 'ilike', pattern),
      ]),
    )
  }
  return query.execute()
}
export type AdminUserRow = Awaited<ReturnType<typeof users>>[number]

export const lockUser = (db: Database, id: number) =>
  db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'team_name',
      'roles',
      'registered_at',
      'deactivated_at',
      'external_id',
    ])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()

export const setRoles = (db: Database, id: number, roles: string[]) =>
  db
    .updateTable('users')
    .set({ roles, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()

export const setDeactivated = (db: Database, id: number, at: Date | null) =>
  db
    .updateTable('users')
    .set({ deactivated_at: at, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()

export const revokeSessions = async (db: Database, userId: number, at: Date) =>
  (
    await db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
  ).numUpdatedRows

export const userByEmail = (db: Database, email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'roles'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst()

// Leagues ----------------------------------------------------------------------------------

export const leagues = (
  db: Database,
  f: { search?: string | undefined; sport?: string | undefined },
  offset: number,
  limit: number,
) => {
  let query = db
    .selectFrom('leagues as l')
    .innerJoin('competitions as c', 'c.id', 'l.competition_id')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select([
      'l.id',
      'c.sport',
      'c.name as competition',
      'l.name',
      'l.code',
      'l.privacy',
      'l.start_round',
      'l.num_users',
      'l.created_at',
      'u.id as owner_id',
      'u.email as owner_email',
      sql<string>`u.first_name || ' ' || u.last_name`.as('owner_name'),
    ])
    .orderBy('l.id')
    .offset(offset)
    .limit(limit)
  if (f.sport) query = query.where('c.sport', '=', f.sport)
  if (f.search) {
    const pattern = like(f.search)
    query = query.where((eb) =>
      eb.or([
        eb('l.name', 'ilike', pattern),
        eb('l.code', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
      ]),
    )
  }
  return query.execute()
}

export const lockLeague = (db: Database, id: number) =>
  db
    .selectFrom('leagues')
    .select(['id', 'name', 'code', 'user_id', 'num_users', 'competition_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()

// Email outbox -----------------------------------------------------------------------------

const emailColumns = [
  sql<string>`id::text`.as('id'),
  'kind',
  'to_address',
  'subject',
  'text_body',
  'attempts',
  'created_at',
  'sent_at',
  'failed_at',
  'next_attempt_at',
  'error',
] as const

export const emails = (
  db: Database,
  status: 'pending' | 'sent' | 'failed' | 'all',
  offset: number,
  limit: number,
) => {
  let query = db
    .selectFrom('email_outbox')
    .select(emailColumns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
  if (status === 'sent') query = query.where('sent_at', 'is not', null)
  if (status === 'failed') query = query.where('failed_at', 'is not', null)
  if (status === 'pending')
    query = query.where('sent_at', 'is', null).where('failed_at', 'is', null)
  return query.execute()
}
export type EmailRow = Awaited<ReturnType<typeof emails>>[number]

export const lockEmail = (db: Database, id: string) =>
  db
    .selectFrom('email_outbox')
    .select(emailColumns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()

export const requeueEmail = (db: Database, id: string, at: Date) =>
  db
    .updateTable('email_outbox')
    .set({ failed_at: null, attempts: 0, next_attempt_at: at })
    .where('id', '=', id)
    .execute()

// Audit log --------------------------------------------------------------------------------

export const auditEntries = (
  db: Database,
  f: { actorId?: number; actorEmail?: string; kind?: string | undefined },
  offset: number,
  limit: number,
) => {
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .select([
      sql<string>`a.id::text`.as('id'),
      'a.created_at',
      'a.actor_user_id',
      'u.email as actor_email',
      'a.action',
      'a.entity',
      'a.entity_id',
      'a.data',
    ])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .offset(offset)
    .limit(limit)
  if (f.actorId !== undefined) query = query.where('a.actor_user_id', '=', f.actorId)
  if (f.actorEmail !== undefined)
    query = query.where(sql<string>`lower(u.email)`, '=', f.actorEmail.toLowerCase())
  if (f.kind) query = query.where('a.action', 'like', `${f.kind.replace(/[\\%_]/g, '\\$&')}%`)
  return query.execute()
}
