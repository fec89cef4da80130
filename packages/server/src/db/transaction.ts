import type { Transaction } from 'kysely'
import type { DB, Database } from './schema.ts'
import { errorChain } from './unavailable.ts'

/**
 * SQLSTATEs with which PostgreSQL aborts a transaction to let others through: a deadlock it broke
 * (40P01) and a serialization failure (40001). Nothing of the transaction was kept, and the same
 * work run again can succeed: PostgreSQL's manual asks applications to retry them.
 */
const TRANSIENT = new Set(['40P01', '40001'])

/** True when an error (or what it wraps) is one of those aborts. */
export function isTransientConflict(err: unknown): boolean {
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && TRANSIENT.has(code)) return true
  }
  return false
}

/** Runs of a transaction after such an abort, since the process started (ops metrics). */
let retried = 0
export const transactionsRetried = (): number => retried

/** Tries in all: the first run and two more. A third abort in a row is answered 503. */
const ATTEMPTS = 3

/**
 * One transaction, run again when PostgreSQL aborts it to break a deadlock or a serialization
 * failure (decision 045). Every write of the server goes through here (ESLint refuses a bare
 * `.transaction()` elsewhere), so a lock-order mistake costs a player a moment, not a 500.
 *
 * The work must be safe to run twice: everything it changes is in the transaction (mail goes
 * through the outbox, events through publishEvent), and it keeps nothing from a failed run.
 * A lock-order mistake should still be fixed: each retry is counted (`transactionsRetried`,
 * scraped as db_transactions_retried_total).
 */
export async function inTransaction<T>(
  db: Database,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work)
    } catch (err) {
      if (attempt >= ATTEMPTS || !isTransientConflict(err)) throw err
      retried++
      // A short, random pause, so the two that collided do not start again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt))
    }
  }
}

/**
 * A line of work in this process: each call runs after every earlier call of the same line has
 * settled (whether it succeeded or failed), one at a time, in the order they came. For
 * transactions that would only queue on one database lock anyway: queued here, they wait without
 * holding a connection of the pool.
 */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve()
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work)
    last = run.catch(() => undefined)
    return run
  }
}
