import {
  AUTOPILOT_OFF,
  type AutopilotLead,
  type AutopilotSetting,
} from '@tipping/contract/autopilot'
import type { Sport } from '@tipping/contract/constants'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { lockRegistrations } from '../predictions/service.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

export interface AutopilotReport {
  /** Checkpoints this process finished (each is finished by exactly one process). */
  checkpoints: number
  /** Tips this process placed, whichever checkpoints' batches it ran. */
  placed: number
}

/** A committed batch, as told to AutopilotOptions.afterBatch. */
export interface AutopilotBatch {
  matchId: number
  leadMinutes: number
  placed: number
  finished: boolean
}

export interface AutopilotOptions {
  /**
   * Tippers per batch transaction (decision 026, "Batches"): a few thousand keeps each
   * transaction's locks to milliseconds beside the savers, and the round trips few.
   */
  batchSize?: number
  /** Called after each committed batch, before the next: progress for logs, a seam for tests. */
  afterBatch?: (batch: AutopilotBatch) => Promise<void> | void
  /** How the job waits (a seam for tests). */
  sleep?: (ms: number) => Promise<void>
}

export const AUTOPILOT_BATCH_SIZE = 2000

/**
 * While others are at work the job runs a third of the time (a batch, then twice its time
 * waiting), as autovacuum's cost delay keeps it behind the queries: a rush's savers keep most of
 * the database, and the checkpoint takes about three times as long, minutes before its lockout.
 */
export const AUTOPILOT_YIELD_RATIO = 2

/**
 * No waiting this close to any kick-off: the checkpoint must finish before its match's lockout,
 * and the scheduler runs the lockouts (of every match) after the job, in the same pass.
 */
export const AUTOPILOT_NO_YIELD_MS = 5 * 60_000

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The autopilot job (issue 32, decision 026). Each open match has three checkpoints, 180, 60 and
 * 15 minutes before its start; at the first one due (or the nearest, when the scheduler was
 * away) the match is tipped for every tipper whose autopilot lead is at least that long and who
 * has no tip on it. The checkpoint is claimed once (what to tip is counted then), and its tips are
 * placed in batches of tippers in user order, each its own short transaction that records how far
 * it got: several schedulers take turns on the batches, a crash resumes at the next committed
 * batch, and the lockout arriving between batches ends the checkpoint. Tippers who turn autopilot
 * on after a checkpoint are served at the next one.
 */
export async function runAutopilot(
  db: Database,
  clock: Clock,
  options: AutopilotOptions = {},
): Promise<AutopilotReport> {
  const size = options.batchSize ?? AUTOPILOT_BATCH_SIZE
  if (!Number.isInteger(size) || size < 1) throw new Error(`autopilot batch size ${size}`)
  const sleep = options.sleep ?? sleepFor
  const report: AutopilotReport = { checkpoints: 0, placed: 0 }
  const due = await q.dueCheckpoints(db, clock.now())
  const kickOff = due.length > 0 ? await q.nextKickOff(db, clock.now()) : null
  for (const c of due) {
    await inTransaction(db, (trx) => q.claimCheckpoint(trx, c, clock.now()))
    for (;;) {
      const started = performance.now()
      const batch = await inTransaction(db, async (trx) => {
        // Lock order: the checkpoint's row (autopilot's alone), then the savers' order: the
        // registrations in user order, the match FOR SHARE, the tips.
        const pass = await q.lockPass(trx, c)
        if (!pass || pass.finished) return null
        const now = clock.now()
        const users = await q.nextBatch(trx, c, pass.through_user_id, size)
        // The savers' own lock (predictions' lockRegistrations), so a player's save and a batch
        // run one after the other: a save waiting here sees the autopilot tip as the value it
        // replaces (its receipt's "before"); a batch waiting here sees the save and leaves it.
        const registered =
          users.length > 0 ? [...(await lockRegistrations(trx, c.competition_id, users))] : []
        const match = await q.lockOpenMatch(trx, c.match_id, now)
        const placed =
          match && registered.length > 0
            ? await q.placeBatch(trx, c, match, pass, registered, now)
            : 0
        // Done when the match has locked (nothing more may be tipped) or no tipper is left.
        const finished = !match || users.length < size
        const through = match ? (users.at(-1) ?? pass.through_user_id) : pass.through_user_id
        await q.advancePass(trx, c, through, placed, finished ? now : null)
        return { matchId: c.match_id, leadMinutes: c.lead_minutes, placed, finished }
      })
      // Another process finished the checkpoint (or it vanished with its match).
      if (!batch) break
      report.placed += batch.placed
      if (batch.finished) report.checkpoints++
      await options.afterBatch?.(batch)
      if (batch.finished) break
      // Yielding to savers: the batch's locks are released; while others are at work (a rush),
      // wait before the next, unless a kick-off is near.
      const took = performance.now() - started
      if (
        kickOff !== null &&
        kickOff.getTime() - clock.now().getTime() > AUTOPILOT_NO_YIELD_MS &&
        (await q.othersBusy(db))
      )
        await sleep(took * AUTOPILOT_YIELD_RATIO)
    }
  }
  return report
}

export const favourites = (db: Database, matchIds: number[]): Promise<Map<number, number>> =>
  q.favourites(db, matchIds)

export class AutopilotService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async get(userId: number, sport: Sport): Promise<AutopilotSetting> {
    const row = await q.settingOf(this.db, userId, sport)
    if (!row) return AUTOPILOT_OFF
    return { strategy: row.strategy, leadMinutes: row.lead_minutes as AutopilotLead }
  }

  async set(userId: number, sport: Sport, s: AutopilotSetting): Promise<AutopilotSetting> {
    await inTransaction(this.db, (trx) => q.saveSetting(trx, userId, sport, s, this.clock.now()))
    return s.strategy === 'off' ? AUTOPILOT_OFF : s
  }
}
