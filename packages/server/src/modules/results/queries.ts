import type { Database } from '../../db/schema.ts'

/** The matches a result is written to, locked in id order (two writers never lock crosswise). */
export const matchesForResult = (db: Database, matchIds: readonly number[]) =>
  db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select([
      'matches.id',
      'matches.number',
      'matches.competition_id',
      'matches.round_id',
      'rounds.number as round_number',
      'matches.home_squad_id',
      'matches.away_squad_id',
      'matches.status',
      'matches.winner_squad_id',
      'matches.starts_at',
      'competitions.sport',
    ])
    .where('matches.id', 'in', [...matchIds])
    .orderBy('matches.id')
    .forNoKeyUpdate('matches')
    .execute()

export type MatchForResult = Awaited<ReturnType<typeof matchesForResult>>[number]

export const competitionById = (db: Database, competitionId: number) =>
  db
    .selectFrom('competitions')
    .select(['id', 'sport'])
    .where('id', '=', competitionId)
    .executeTakeFirst()

export const competitionMatchNumbers = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches')
    .select(['id', 'number', 'round_id', 'home_squad_id', 'away_squad_id', 'starts_at'])
    .where('competition_id', '=', competitionId)
    .execute()

export const squadIdsBySport = (db: Database, sport: string) =>
  db.selectFrom('squads').select(['id', 'code']).where('sport', '=', sport).execute()

export interface ResultWrite {
  matchId: number
  outcome: 'win' | 'no_result' | 'tie'
  winnerSquadId: number | null
  homeRuns: number | null
  homeWickets: number | null
  homeBalls: number | null
  homeBallsAllotted?: number | null
  awayRuns: number | null
  awayWickets: number | null
  awayBalls: number | null
  awayBallsAllotted?: number | null
  /** Net run rate credits (rain-revised chases); omitted means the innings as played. */
  homeNrr?: { runs: number; balls: number } | null
  awayNrr?: { runs: number; balls: number } | null
  sixes: number | null
  sixesSimulated: boolean
  method: string | null
  cricsheetId: string | null
  completedAt: Date
}

export async function writeResult(db: Database, r: ResultWrite) {
  await db
    .updateTable('matches')
    .set({
      status: 'complete',
      outcome: r.outcome,
      winner_squad_id: r.winnerSquadId,
      home_runs: r.homeRuns,
      home_wickets: r.homeWickets,
      home_balls: r.homeBalls,
      home_balls_allotted: r.homeBallsAllotted ?? null,
      away_runs: r.awayRuns,
      away_wickets: r.awayWickets,
      away_balls: r.awayBalls,
      away_balls_allotted: r.awayBallsAllotted ?? null,
      home_nrr_runs: r.homeNrr?.runs ?? null,
      home_nrr_balls: r.homeNrr?.balls ?? null,
      away_nrr_runs: r.awayNrr?.runs ?? null,
      away_nrr_balls: r.awayNrr?.balls ?? null,
      sixes: r.sixes,
      sixes_simulated: r.sixesSimulated,
      method: r.method,
      cricsheet_id: r.cricsheetId,
      completed_at: r.completedAt,
      updated_at: r.completedAt,
    })
    .where('id', '=', r.matchId)
    .execute()
}

export const competitionBySportSeason = (db: Database, sport: string, season: number) =>
  db
    .selectFrom('competitions')
    .select(['id', 'identifier'])
    .where('sport', '=', sport)
    .where('season', '=', season)
    .executeTakeFirst()

export const marginGameNumbers = async (db: Database, competitionId: number) =>
  (
    await db
      .selectFrom('matches')
      .select('number')
      .where('competition_id', '=', competitionId)
      .where('is_margin_game', '=', true)
      .execute()
  ).map((r) => r.number)

/** Fixture matches of a competition with their squads' names, to pair Cricsheet files with. */
export const fixtureForPairing = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches as m')
    .innerJoin('squads as h', 'h.id', 'm.home_squad_id')
    .innerJoin('squads as a', 'a.id', 'm.away_squad_id')
    .select([
      'm.id',
      'm.round_id',
      'm.starts_at',
      'm.home_squad_id',
      'm.away_squad_id',
      'h.name as home_name',
      'a.name as away_name',
    ])
    .where('m.competition_id', '=', competitionId)
    .execute()
