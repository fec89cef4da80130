import { Batcher, groupBy } from '../../../batch.ts'
import type { Database } from '../../../db/schema.ts'
import { CompletedMatchesCache } from '../../season/service.ts'
import * as q from './queries.ts'

/**
 * How the head-to-head keeps up with a crowd (decisions 034 and 037), apart from its rules in
 * service.ts: the round's completed matches, the same for every pair, kept per scores version,
 * and one statement for the requests that arrive together. The pair's own rows are never kept:
 * at a million tippers a pair is rarely asked for twice between two results.
 */
export class HeadToHeadReads {
  private readonly completed: CompletedMatchesCache
  /**
   * `${competitionId}:${leagueId}:${caller}:${a}:${b}:${round}` -> what that request reads: the
   * requests of one turn of the event loop share one statement (queries.ts pairReads, decision
   * 037: a statement's round trip was most of a request's CPU). Each statement starts after its
   * requests arrived, so each still reads the scores version as it stood when it came.
   */
  private readonly pairs = new Batcher<string, q.PairRead>(async (keys) => {
    const found = new Map<string, q.PairRead>()
    const asks = keys.map((key) => {
      const [c, leagueId, caller, a, b, round] = key.split(':')
      return {
        key,
        competitionId: Number(c),
        ask: {
          leagueId: Number(leagueId),
          caller: Number(caller),
          a: Number(a),
          b: Number(b),
          round: round === '' ? null : Number(round),
        },
      }
    })
    for (const [competitionId, group] of groupBy(asks, (x) => x.competitionId)) {
      const rows = await q.pairReads(
        this.db,
        competitionId,
        group.map((x) => x.ask),
      )
      // In the order asked: the i-th row (from 1) answers the i-th ask.
      for (const row of rows) found.set(group[row.i - 1]!.key, row)
    }
    return found
  })

  constructor(private readonly db: Database) {
    this.completed = new CompletedMatchesCache(db)
  }

  /** What the request reads (queries.ts pairReads); undefined: no such competition. */
  pair(competitionId: number, ask: q.PairAsk): Promise<q.PairRead | undefined> {
    return this.pairs.get(
      `${competitionId}:${ask.leagueId}:${ask.caller}:${ask.a}:${ask.b}:${ask.round ?? ''}`,
    )
  }

  /** The competition's completed matches at a scores version (season/matches.ts). */
  completedMatches(competitionId: number, scoresVersion: number) {
    return this.completed.get(competitionId, scoresVersion)
  }
}
