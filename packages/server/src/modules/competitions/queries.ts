import type { Database } from '../../db/schema.ts'

/** The current competition of each sport asked for (every sport when none is named), by sport. */
export const currentCompetitions = (db: Database, sports?: readonly string[]) => {
  let query = db
    .selectFrom('competitions')
    .select([
      'id',
      'sport',
      'identifier',
      'name',
      'season',
      'year',
      'golden_week_round',
      'scores_version',
    ])
    .where('is_current', '=', true)
  if (sports) query = query.where('sport', 'in', sports)
  return query.orderBy('sport').execute()
}

export type CurrentCompetition = Awaited<ReturnType<typeof currentCompetitions>>[number]
