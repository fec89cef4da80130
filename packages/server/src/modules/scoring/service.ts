import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'
import { inTransaction, oneAtATime } from '../../db/transaction.ts'

/**
 * Re-scores what a result touches: the given rounds, then totals and ranks. One transaction under
 * an advisory lock, so two processes never interleave and a crash leaves the previous numbers.
 */
export async function rescore(
  db: Database,
  competitionId: number,
  roundIds?: number[],
): Promise<void> {
  await inTransaction(db, (trx) => rescoreInTransaction(trx, competitionId, roundIds))
}

/** The same, inside a transaction the caller holds (a result and its scores commit together). */
export async function rescoreInTransaction(
  trx: Database,
  competitionId: number,
  roundIds?: number[],
): Promise<void> {
  await q.lockCompetitionScoring(trx, competitionId)
  await fromAllTips(
    trx,
    competitionId,
    roundIds ?? (await q.competitionRoundIds(trx, competitionId)),
  )
}

/**
 * Re-scores after one match's result changed (`before`: the match as it was), inside the caller's
 * transaction: its round from the previous scores and that match's tips (a million rows at a
 * million tippers, not the round's eight million), and the standings from the same rows. A round
 * scored before its counters existed is scored from all its tips instead.
 *
 * `helpers`, on PostgreSQL, is the pool `trx` came from: the round and the standings are then
 * built on two more of its connections at once. PGlite has one connection and builds them in
 * `trx`, in one statement.
 */
export async function rescoreAfterResult(
  trx: Database,
  competitionId: number,
  roundId: number,
  before: q.MatchBefore,
  helpers?: Database,
): Promise<void> {
  await q.lockCompetitionScoring(trx, competitionId)
  if (!(await q.roundHasCounters(trx, roundId))) return fromAllTips(trx, competitionId, [roundId])
  if (helpers) await q.buildFromOneMatchInParallel(trx, helpers, competitionId, roundId, before)
  else await q.buildFromOneMatch(trx, competitionId, roundId, before)
  await finish(trx, competitionId, [roundId])
}

async function fromAllTips(trx: Database, competitionId: number, rounds: number[]) {
  for (const roundId of rounds) await q.buildRoundScores(trx, roundId)
  await q.buildStandings(trx, competitionId, rounds)
  await finish(trx, competitionId, rounds)
}

async function finish(trx: Database, competitionId: number, rounds: number[]) {
  // My season's rank history is rebuilt from here by the scheduler, off the result's path.
  await q.markHistoryStale(trx, competitionId, rounds)
  await q.swapIn(trx, competitionId, rounds)
  await q.bumpScoresVersion(trx, competitionId)
}

/**
 * Takes the scoring lock of each competition (in id order) for the rest of the transaction. A
 * registration takes it before it inserts, so tippers are listed in the order they were placed.
 */
export const holdScoring = (trx: Database, competitionIds: number[]): Promise<void> =>
  q.lockCompetitionsForPlacing(trx, competitionIds)

/**
 * The lock order of every transaction that scores: the scoring lock first, before it locks or
 * writes any row. Scoring itself writes rows others lock (the competition's scores version, its
 * history mark, the matches' state), so a transaction that held one of those rows and then waited
 * for the scoring lock would wait for a scorer waiting for it: on PostgreSQL one of the two is
 * aborted as a deadlock. A result, a re-score or a competition's change from the console calls
 * this before anything else; it covers every competition, since the tables are shared. A change
 * of a user's names or deactivation takes the same tables first too, in a trigger (decision 044).
 */
export const holdScoringFirst = (trx: Database): Promise<void> => q.lockScoringTables(trx)

const placements = oneAtATime()

/**
 * A transaction that registers tippers for competitions (it takes the scoring lock and places
 * them, enterCurrentCompetitions): every sign-up, join, recovery, first single sign-on and admin
 * account. They run one at a time in this process. The scoring lock puts them in single file
 * anyway; waiting here instead of at the lock keeps the waiting ones from holding the pool's
 * connections. In a burst of sign-ups, 17 of the 20 connections waited on the lock while every
 * other request queued for the last three (docs/decisions/050-registrations-wait-their-turn-in-the-process.md).
 */
export const inPlacementTurn = <T>(db: Database, work: (trx: Database) => Promise<T>): Promise<T> =>
  placements(() => inTransaction(db, work))

/** GAME_RULES "Who is ranked": ranks a tipper who has just registered, in the caller's transaction. */
export const placeTipper = (trx: Database, competitionId: number, userId: number) =>
  q.placeTipper(trx, competitionId, userId)

/**
 * GAME_RULES "Live projections", computed by the scorer's own statement (queries.ts
 * projectedRounds): each side's projected round for every registered user. Reads only.
 */
export const projectedRounds = q.projectedRounds
