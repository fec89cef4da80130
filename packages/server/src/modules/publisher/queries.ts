import type { Database } from '../../db/schema.ts'

export const currentCompetitions = (db: Database) =>
  db
    .selectFrom('competitions')
    .select(['id', 'sport', 'identifier', 'name', 'season', 'year', 'golden_week_round'])
    .where('is_current', '=', true)
    .orderBy('sport')
    .execute()

export const competitionRounds = (db: Database, competitionId: number) =>
  db
    .selectFrom('rounds')
    .select(['id', 'number', 'label'])
    .where('competition_id', '=', competitionId)
    .orderBy('number')
    .execute()

export const competitionFixture = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches')
    .select([
      'id',
      'round_id',
      'number',
      'status',
      'starts_at',
      'venue_id',
      'home_squad_id',
      'away_squad_id',
      'is_margin_game',
      'match_class',
      'winner_squad_id',
      'outcome',
    ])
    .where('competition_id', '=', competitionId)
    .orderBy('starts_at')
    .orderBy('number')
    .execute()

export const sportSquads = (db: Database, sport: string) =>
  db
    .selectFrom('squads')
    .select(['id', 'code', 'name', 'nickname', 'short_name', 'colour', 'second_colour'])
    .where('sport', '=', sport)
    .orderBy('name')
    .execute()

export const competitionVenues = (db: Database, competitionId: number) =>
  db
    .selectFrom('venues')
    .select(['id', 'name', 'city', 'state', 'timezone'])
    .where('id', 'in', (eb) =>
      eb.selectFrom('matches').select('venue_id').where('competition_id', '=', competitionId),
    )
    .orderBy('name')
    .execute()
