import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'

/**
 * Re-scores what a result touches: the given rounds, then totals and ranks. One transaction under
 * an advisory lock, so two processes never interleave and a crash leaves the previous numbers.
 */
export async function rescore(
  db: Database,
  competitionId: number,
  roundIds?: number[],
): Promise<void> {
  await db.transaction().execute((trx) => rescoreInTransaction(trx, competitionId, roundIds))
}

/** The same, inside a transaction the caller holds (a result and its scores commit together). */
export async function rescoreInTransaction(
  trx: Database,
  competitionId: number,
  roundIds?: number[],
): Promise<void> {
  await q.lockCompetitionScoring(trx, competitionId)
  const rounds = roundIds ?? (await q.competitionRoundIds(trx, competitionId))
  for (const roundId of rounds) {
    const { inserted } = await q.scoreRound(trx, roundId)
    if (inserted >= q.ANALYZE_AFTER_ROWS) await q.analyzeTable(trx, 'round_scores')
  }
  if ((await q.rebuildStandings(trx, competitionId)) >= q.ANALYZE_AFTER_ROWS) {
    await q.analyzeTable(trx, 'standings')
  }
  await q.bumpScoresVersion(trx, competitionId)
}
