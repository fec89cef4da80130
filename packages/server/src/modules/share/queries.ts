import type { Database } from '../../db/schema.ts'

/** A league's name, only when it is public: a share link must not reveal a private league. */
export const publicLeagueName = async (
  db: Database,
  sport: string,
  leagueId: number,
): Promise<string | null> => {
  const row = await db
    .selectFrom('leagues as l')
    .innerJoin('competitions as c', 'c.id', 'l.competition_id')
    .select('l.name')
    .where('l.id', '=', leagueId)
    .where('l.privacy', '=', 'public')
    .where('c.sport', '=', sport)
    .executeTakeFirst()
  return row?.name ?? null
}
