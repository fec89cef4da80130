import { Batcher, byScope } from '../../batch.ts'
import type { Database } from '../../db/schema.ts'
import { ReadCache } from '../../read-cache.ts'
import { historyGroups, type RoundGroups } from './history.ts'
import { CompletedMatchesCache, type CompletedMatches } from './matches.ts'
import * as q from './queries.ts'

export type RoundStat = Awaited<ReturnType<typeof q.roundStats>>[number]

/** Two sports, each at its current scores version and perhaps the one before while it moves. */
const ROUND_STATS_ENTRIES = 8
/** The same for the history (a past season's too, for the archive). */
const HISTORY_ENTRIES = 8

/**
 * How the My season read keeps up with a crowd (decisions 034 and 037), apart from its rules in
 * service.ts: what is the same for every tipper, kept per competition and version (decision 009:
 * a re-score or a deactivation moves to a new version, so a kept answer is never stale, only
 * replaced), and one statement for the tippers whose requests arrive together.
 */
export class SeasonReads {
  private readonly stats = new ReadCache<RoundStat[]>(Number.POSITIVE_INFINITY, ROUND_STATS_ENTRIES)
  private readonly groups = new ReadCache<Map<number, RoundGroups>>(
    Number.POSITIVE_INFINITY,
    HISTORY_ENTRIES,
  )
  private readonly completed: CompletedMatchesCache
  /**
   * `${competitionId}:${userId}` -> that tipper's rows (queries.ts seasonReads): the requests of
   * one turn of the event loop share one statement (decision 037: a statement's round trip, not
   * the counting, was most of a request's CPU). Each statement starts after its requests arrived,
   * so a request still reads the versions as they stood when it came (decision 034).
   */
  private readonly tippers = new Batcher<string, q.SeasonRead>(async (keys) => {
    const found = new Map<string, q.SeasonRead>()
    for (const [scope, group] of byScope(keys)) {
      const rows = await q.seasonReads(
        this.db,
        Number(scope),
        group.map((k) => k.n),
      )
      for (const row of rows) found.set(`${scope}:${row.user_id}`, row)
    }
    return found
  })

  constructor(private readonly db: Database) {
    this.completed = new CompletedMatchesCache(db)
  }

  /** One tipper's own rows and the versions of what is kept; undefined: no such competition. */
  tipper(competitionId: number, userId: number): Promise<q.SeasonRead | undefined> {
    return this.tippers.get(`${competitionId}:${userId}`)
  }

  /** The competition's completed matches at a scores version (matches.ts). */
  completedMatches(competitionId: number, scoresVersion: number): Promise<CompletedMatches> {
    return this.completed.get(competitionId, scoresVersion)
  }

  /** The rank history's groups per round (history.ts) at a history version. */
  historyGroups(competitionId: number, historyVersion: string | null) {
    return this.groups.get(`${competitionId}:${historyVersion ?? '0'}`, () =>
      historyGroups(this.db, competitionId),
    )
  }

  /** The stats of the played rounds after `after` (not covered by the history). */
  roundStats(competitionId: number, scoresVersion: number, after: number, last: number) {
    if (after >= last) return Promise.resolve([])
    return this.stats.get(`${competitionId}:${scoresVersion}:${after}`, () =>
      q.roundStats(this.db, competitionId, after),
    )
  }
}
