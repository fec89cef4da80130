import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

export interface LifecycleResult {
  locked: number
  competitions: number[]
  /** The rounds of the matches locked (their pick split moved: auto-tips). */
  rounds: number[]
}

/** Moves matches past their start to `active` (which gives the auto-tips), and rounds with them. */
export async function runLockouts(db: Database, clock: Clock): Promise<LifecycleResult> {
  const locked: q.LockedMatch[] = []
  for (;;) {
    const batch = await inTransaction(db, async (trx) => {
      const rows = await q.lockDueMatches(trx, clock.now())
      await q.refreshRoundStatuses(trx, [...new Set(rows.map((r) => r.round_id))])
      return rows
    })
    locked.push(...batch)
    if (batch.length === 0) break
  }
  return {
    locked: locked.length,
    competitions: [...new Set(locked.map((r) => r.competition_id))],
    rounds: [...new Set(locked.map((r) => r.round_id))],
  }
}

export const nextLockout = (db: Database): Promise<Date | null> => q.nextLockout(db)

export const refreshRoundStatuses = (db: Database, roundIds: number[]): Promise<void> =>
  q.refreshRoundStatuses(db, roundIds)
