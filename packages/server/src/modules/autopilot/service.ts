import {
  AUTOPILOT_OFF,
  type AutopilotLead,
  type AutopilotSetting,
} from '@tipping/contract/autopilot'
import type { Sport } from '@tipping/contract/constants'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'

export interface AutopilotReport {
  /** Checkpoints this process claimed and ran. */
  checkpoints: number
  placed: number
}

/**
 * The autopilot job (issue 32, decision 026). Each open match has three checkpoints, 180, 60 and
 * 15 minutes before its start; at the first one due (or the nearest, when the scheduler was
 * away) one INSERT ... SELECT tips the match for every tipper whose autopilot lead is at least
 * that long and who has no tip on it. A checkpoint is claimed and filled in one transaction, so
 * several schedulers never run one twice, and a failure leaves it unclaimed for the next pass.
 * Tippers who turn autopilot on after a checkpoint are served at the next one.
 */
export async function runAutopilot(db: Database, clock: Clock): Promise<AutopilotReport> {
  const report: AutopilotReport = { checkpoints: 0, placed: 0 }
  for (const c of await q.dueCheckpoints(db, clock.now())) {
    const placed = await db.transaction().execute(async (trx) => {
      const now = clock.now()
      if (!(await q.claimCheckpoint(trx, c, now))) return null
      const n = await q.fillCheckpoint(trx, c, now)
      await q.recordPlaced(trx, c, n)
      return n
    })
    if (placed === null) continue
    report.checkpoints++
    report.placed += placed
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
    await this.db
      .transaction()
      .execute((trx) => q.saveSetting(trx, userId, sport, s, this.clock.now()))
    return s.strategy === 'off' ? AUTOPILOT_OFF : s
  }
}
