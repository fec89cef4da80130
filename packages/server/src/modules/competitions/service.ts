import type { Sport } from '@tipping/contract/constants'
import type { Database } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { ReadCache } from '../../read-cache.ts'
import * as q from './queries.ts'

export type { CurrentCompetition } from './queries.ts'

/**
 * The one owner of "which competition of a sport is being played": every module asks here. Reads
 * that serve requests share one cache of every sport's current competition (READ_CACHE_MS, with
 * its scores version, which keys the rankings pages); work inside a transaction reads the table
 * through `inTransaction`, since it must see what the transaction sees.
 */
export class CurrentCompetitions {
  private readonly cache: ReadCache<q.CurrentCompetition[]>

  constructor(
    private readonly db: Database,
    /** How old the answer may be (bench/README.md); 0 reads the database every time. */
    readCacheMs = 0,
  ) {
    this.cache = new ReadCache(readCacheMs, 1)
  }

  /** The sport's current competition, or undefined when it has none. */
  async find(sport: Sport): Promise<q.CurrentCompetition | undefined> {
    const all = await this.cache.get('all', () => q.currentCompetitions(this.db))
    return all.find((c) => c.sport === sport)
  }

  /** The sport's current competition, or 404. */
  async get(sport: Sport): Promise<q.CurrentCompetition> {
    const competition = await this.find(sport)
    if (!competition) throw notFound('Competition', 'sport')
    return competition
  }

  /** After an admin changes which season is current (or its settings): read afresh at once. */
  forget(): void {
    this.cache.clear()
  }
}

/** The current competitions of `sports` (all when omitted) as `db`, a transaction, sees them now. */
export const currentCompetitionsIn = (
  db: Database,
  sports?: readonly Sport[],
): Promise<q.CurrentCompetition[]> => q.currentCompetitions(db, sports)

/** currentCompetitionsIn for one sport, or 404 (the command-line tools). */
export async function currentCompetitionIn(db: Database, sport: Sport) {
  const [competition] = await currentCompetitionsIn(db, [sport])
  if (!competition) throw notFound('Competition', 'sport')
  return competition
}
