import { sql } from 'kysely'
import type { Database } from '../../../db/schema.ts'

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
    .forNoKeyUpdate()
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
    .forNoKeyUpdate()
    .executeTakeFirst()
