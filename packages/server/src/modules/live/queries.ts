import { sql } from 'kysely'
import { asSquadId, type RoundNumber } from '@tipping/contract/ids'
import type { Database, LiveInningsColumn } from '../../db/schema.ts'

/** The match a live score is for, locked so two scorers' changes apply one after the other. */
export const matchForLive = (db: Database, matchId: number) =>
  db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select([
      'matches.id',
      'matches.competition_id',
      'matches.home_squad_id',
      'matches.away_squad_id',
      'matches.status',
      'rounds.number as round_number',
      'competitions.sport',
    ])
    .where('matches.id', '=', matchId)
    .forNoKeyUpdate('matches')
    .executeTakeFirst()

/** Writes the live score, one version past the last; the stored row. */
export const upsertLiveScore = (
  db: Database,
  matchId: number,
  innings: LiveInningsColumn[],
  at: Date,
) =>
  db
    .insertInto('live_scores')
    .values({ match_id: matchId, innings: JSON.stringify(innings), version: 1, updated_at: at })
    .onConflict((oc) =>
      oc.column('match_id').doUpdateSet((eb) => ({
        innings: eb.ref('excluded.innings'),
        version: sql<number>`live_scores.version + 1`,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returning(['match_id', 'innings', 'version', 'updated_at'])
    .executeTakeFirstOrThrow()

/** The live scores of a round of the sport's current competition, by match number. */
export const liveScoresOfRound = (db: Database, sport: string, roundNumber: RoundNumber) =>
  db
    .selectFrom('live_scores')
    .innerJoin('matches', 'matches.id', 'live_scores.match_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select([
      'live_scores.match_id',
      'live_scores.innings',
      'live_scores.version',
      'live_scores.updated_at',
      'matches.status',
      'rounds.number as round_number',
    ])
    .where('competitions.sport', '=', sport)
    .where('competitions.is_current', '=', true)
    .where('rounds.number', '=', roundNumber)
    .orderBy('matches.number')
    .execute()

export const roundExists = async (db: Database, sport: string, roundNumber: RoundNumber) =>
  (await db
    .selectFrom('rounds')
    .innerJoin('competitions', 'competitions.id', 'rounds.competition_id')
    .select('rounds.id')
    .where('competitions.sport', '=', sport)
    .where('competitions.is_current', '=', true)
    .where('rounds.number', '=', roundNumber)
    .executeTakeFirst()) !== undefined

/** What a result event tells besides the result: the round's status, the scores version. */
export const afterResult = (db: Database, matchId: number) =>
  db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select([
      'matches.competition_id',
      'matches.outcome',
      'matches.winner_squad_id',
      'matches.sixes',
      'rounds.number as round_number',
      'rounds.status as round_status',
      'competitions.sport',
      'competitions.scores_version',
    ])
    .where('matches.id', '=', matchId)
    .executeTakeFirstOrThrow()

/**
 * Adds an event. The transaction-scoped lock makes events commit in the order of their ids, so a
 * page resuming after id N (`id > N`) can never miss one that committed later with a smaller id;
 * it is held from the insert to the commit, so callers add events last in their transactions.
 */
export const insertEvent = async (
  db: Database,
  e: { sport: string; competitionId: number; type: string; payload: unknown; at: Date },
): Promise<number> => {
  await sql`SELECT pg_advisory_xact_lock(hashtext('live_events'))`.execute(db)
  const row = await db
    .insertInto('live_events')
    .values({
      sport: e.sport,
      competition_id: e.competitionId,
      type: e.type,
      payload: JSON.stringify(e.payload),
      created_at: e.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

export interface EventRow {
  id: number
  sport: string
  type: string
  payload: unknown
}

const asEvent = (r: { id: number; sport: string; type: string; payload: unknown }): EventRow => ({
  ...r,
  id: Number(r.id),
})

/** Events after id `after` (of one sport, up to `upto`, when given), oldest first. */
export const eventsAfter = async (
  db: Database,
  after: number,
  opts: { sport?: string; upto?: number; limit: number },
): Promise<EventRow[]> => {
  let query = db
    .selectFrom('live_events')
    .select(['id', 'sport', 'type', 'payload'])
    .where('id', '>', after)
  if (opts.sport !== undefined) query = query.where('sport', '=', opts.sport)
  if (opts.upto !== undefined) query = query.where('id', '<=', opts.upto)
  return (await query.orderBy('id').limit(opts.limit).execute()).map(asEvent)
}

export const eventById = async (db: Database, id: number): Promise<EventRow | undefined> => {
  const row = await db
    .selectFrom('live_events')
    .select(['id', 'sport', 'type', 'payload'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row && asEvent(row)
}

/** The oldest and newest ids kept (nulls when none is). */
export const eventIdRange = async (
  db: Database,
): Promise<{ oldest: number | null; newest: number | null }> => {
  const r = await db
    .selectFrom('live_events')
    .select((eb) => [eb.fn.min('id').as('oldest'), eb.fn.max('id').as('newest')])
    .executeTakeFirstOrThrow()
  return {
    oldest: r.oldest === null ? null : Number(r.oldest),
    newest: r.newest === null ? null : Number(r.newest),
  }
}

/**
 * Deletes events older than `before`, but always keeps the newest: an empty table would leave no
 * way to tell a page's old Last-Event-ID from one this database never issued.
 */
export const pruneEvents = async (db: Database, before: Date): Promise<number> => {
  const r = await db
    .deleteFrom('live_events')
    .where('created_at', '<', before)
    .where('id', '<', (eb) => eb.selectFrom('live_events').select(eb.fn.max('id').as('m')))
    .executeTakeFirst()
  return Number(r.numDeletedRows)
}

export const audit = (
  db: Database,
  a: { actorUserId: number; matchId: number; data: unknown; at: Date },
) =>
  db
    .insertInto('audit_log')
    .values({
      actor_user_id: a.actorUserId,
      action: 'live.set',
      entity: 'match',
      entity_id: String(a.matchId),
      data: JSON.stringify(a.data),
      created_at: a.at,
    })
    .execute()

/** A match's sport and its two squads, for pairing a feed's team names with them. */
export const squadsOfMatch = async (db: Database, matchId: number) => {
  const rows = await db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('squads', (join) =>
      join.on((eb) =>
        eb.or([
          eb('squads.id', '=', eb.ref('matches.home_squad_id')),
          eb('squads.id', '=', eb.ref('matches.away_squad_id')),
        ]),
      ),
    )
    .select(['competitions.sport', 'matches.home_squad_id', 'squads.id', 'squads.name'])
    .where('matches.id', '=', matchId)
    .execute()
  const first = rows[0]
  if (!first) return undefined
  return {
    sport: first.sport,
    homeSquadId: asSquadId(first.home_squad_id),
    squads: rows.map((r) => ({ id: asSquadId(r.id), name: r.name })),
  }
}

/**
 * The matches of the sport's current competition not yet complete, with their squads' names and
 * the round's number, by start: what the demo's feed can play against (demo-feed.ts).
 */
export const openMatchesWithSquads = (db: Database, sport: string) =>
  db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('squads as home', 'home.id', 'matches.home_squad_id')
    .innerJoin('squads as away', 'away.id', 'matches.away_squad_id')
    .select([
      'matches.id',
      'matches.status',
      'matches.starts_at',
      'rounds.number as round_number',
      'home.name as home_name',
      'away.name as away_name',
    ])
    .where('competitions.sport', '=', sport)
    .where('competitions.is_current', '=', true)
    .where('matches.status', '!=', 'complete')
    .orderBy('matches.starts_at')
    .orderBy('matches.id')
    .execute()

/** Demo only: brings a scheduled match's start to now, so the next lockout starts it. */
export const startScheduledMatchAt = (db: Database, matchId: number, at: Date) =>
  db
    .updateTable('matches')
    .set({ starts_at: at, updated_at: at })
    .where('id', '=', matchId)
    .where('status', '=', 'scheduled')
    .execute()

/** Rounds of the current competitions that still take tips: their pick split can move. */
export const roundsTakingTips = async (db: Database): Promise<number[]> =>
  (
    await db
      .selectFrom('matches')
      .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
      .select('matches.round_id')
      .distinct()
      .where('competitions.is_current', '=', true)
      .where('matches.status', '=', 'scheduled')
      .execute()
  ).map((r) => r.round_id)

/** A row per round to claim (a new one is due at once, with no split told yet). */
export const ensurePickSplitRows = async (db: Database, roundIds: number[]): Promise<void> => {
  if (roundIds.length === 0) return
  await db
    .insertInto('pick_splits')
    .values(roundIds.map((id) => ({ round_id: id, split: null, checked_at: new Date(0) })))
    .onConflict((oc) => oc.column('round_id').doNothing())
    .execute()
}

/**
 * Claims the rounds due a count: counted before `dueBefore`, or `forced` (a match just locked).
 * FOR UPDATE, in round order: a second scheduler waits for the first, and then finds the row
 * counted (PostgreSQL re-reads a locked row's condition), so only a forced round is counted twice.
 */
export const claimPickSplits = (
  db: Database,
  roundIds: number[],
  dueBefore: Date,
  forced: number[],
) =>
  db
    .selectFrom('pick_splits')
    .innerJoin('rounds', 'rounds.id', 'pick_splits.round_id')
    .innerJoin('competitions', 'competitions.id', 'rounds.competition_id')
    .select([
      'pick_splits.round_id',
      'pick_splits.split',
      'rounds.number as round_number',
      'rounds.competition_id',
      'competitions.sport',
    ])
    .where('pick_splits.round_id', 'in', roundIds)
    .where((eb) =>
      eb.or([
        eb('pick_splits.checked_at', '<=', dueBefore),
        ...(forced.length > 0 ? [eb('pick_splits.round_id', 'in', forced)] : []),
      ]),
    )
    .orderBy('pick_splits.round_id')
    .forUpdate('pick_splits')
    .execute()

export const savePickSplit = (
  db: Database,
  roundId: number,
  split: { id: number; home_percent: number; away_percent: number }[],
  at: Date,
) =>
  db
    .updateTable('pick_splits')
    .set({ split: JSON.stringify(split), checked_at: at })
    .where('round_id', '=', roundId)
    .execute()
