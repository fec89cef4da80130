import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'

export type { MatchBefore } from './queries.ts'

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

/**
 * The same, inside a transaction the caller holds (a result and its scores commit together).
 * `changed`: the one match whose result changed, as it was before, when the caller knows it; its
 * round is then re-scored from its previous scores and that match's tips (a million rows at a
 * million tippers, not the round's eight million), and the standings from the same rows. Otherwise
 * (a rescore, an import, a round scored before its counters existed) from all the tips.
 */
export async function rescoreInTransaction(
  trx: Database,
  competitionId: number,
  roundIds?: number[],
  changed?: { roundId: number; before: q.MatchBefore },
): Promise<void> {
  await q.lockCompetitionScoring(trx, competitionId)
  const rounds = roundIds ?? (await q.competitionRoundIds(trx, competitionId))
  const single =
    changed && rounds.length === 1 && rounds[0] === changed.roundId ? changed : undefined
  if (single && (await q.roundHasCounters(trx, single.roundId))) {
    await q.buildFromOneMatch(trx, competitionId, single.roundId, single.before)
  } else {
    for (const roundId of rounds) await q.buildRoundScores(trx, roundId)
    await q.buildStandings(trx, competitionId, rounds)
  }
  await q.swapIn(trx, competitionId, rounds)
  await q.bumpScoresVersion(trx, competitionId)
}
