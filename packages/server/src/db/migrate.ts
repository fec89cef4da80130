import type { Kysely } from 'kysely'
import type { Migration, MigrationProvider } from 'kysely/migration'
import { Migrator } from 'kysely/migration'
import * as initialSchema from './migrations/2026-11-23T0100-initial-schema.ts'
import * as netRunRateCredits from './migrations/2026-11-23T0200-net-run-rate-credits.ts'
import * as emailDelivery from './migrations/2026-11-23T0300-email-delivery.ts'
import * as rankingPositions from './migrations/2026-11-23T0400-ranking-positions.ts'
import * as effectiveTips from './migrations/2026-11-23T0500-effective-tips.ts'
import * as scoresPartitions from './migrations/2026-11-24T0100-scores-partitions.ts'
import * as tipsWithoutForeignKeys from './migrations/2026-11-24T0200-tips-without-foreign-keys.ts'
import * as standingsNames from './migrations/2026-11-24T0300-standings-names.ts'
import * as sessionChangeNotices from './migrations/2026-11-24T0400-session-change-notices.ts'
import * as rankedAtOnce from './migrations/2026-11-25T0100-ranked-at-once.ts'
import * as marginGameDefault from './migrations/2026-11-25T0200-margin-game-default.ts'
import * as jobRuns from './migrations/2026-11-25T0300-job-runs.ts'
import * as liveState from './migrations/2026-11-25T0400-live-state.ts'
import * as pickSplits from './migrations/2026-11-26T0100-pick-splits.ts'
import * as seasonHistory from './migrations/2026-11-27T0200-season-history.ts'
import * as leagueRenewals from './migrations/2026-11-27T0500-league-renewals.ts'
import * as autopilot from './migrations/2026-11-27T0700-autopilot.ts'
import * as tipReceipts from './migrations/2026-11-27T0800-tip-receipts.ts'
import * as receiptKinds from './migrations/2026-11-27T0900-receipt-kinds-and-lock-times.ts'
import * as autopilotBatches from './migrations/2026-11-27T1100-autopilot-batches.ts'
import * as outboxRecipient from './migrations/2026-11-28T1600-outbox-recipient.ts'
import * as scoresLockOrder from './migrations/2026-12-04T1200-scores-lock-order.ts'
import * as userChangesWait from './migrations/2026-12-04T1600-user-changes-wait-for-scoring.ts'
import * as leagueCreateKey from './migrations/2026-12-06T0400-league-create-key.ts'
import * as contactRequestKey from './migrations/2026-12-06T0500-contact-request-key.ts'

// Listed statically (not read from the folder at run time) so the same code runs under tsx,
// vitest and any bundler. Names sort in the order they apply; add new ones at the end.
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-23T0100-initial-schema': initialSchema,
  '2026-11-23T0200-net-run-rate-credits': netRunRateCredits,
  '2026-11-23T0300-email-delivery': emailDelivery,
  '2026-11-23T0400-ranking-positions': rankingPositions,
  '2026-11-23T0500-effective-tips': effectiveTips,
  '2026-11-24T0100-scores-partitions': scoresPartitions,
  '2026-11-24T0200-tips-without-foreign-keys': tipsWithoutForeignKeys,
  '2026-11-24T0300-standings-names': standingsNames,
  '2026-11-24T0400-session-change-notices': sessionChangeNotices,
  '2026-11-25T0100-ranked-at-once': rankedAtOnce,
  '2026-11-25T0200-margin-game-default': marginGameDefault,
  '2026-11-25T0300-job-runs': jobRuns,
  '2026-11-25T0400-live-state': liveState,
  '2026-11-26T0100-pick-splits': pickSplits,
  '2026-11-27T0200-season-history': seasonHistory,
  '2026-11-27T0500-league-renewals': leagueRenewals,
  '2026-11-27T0700-autopilot': autopilot,
  '2026-11-27T0800-tip-receipts': tipReceipts,
  '2026-11-27T0900-receipt-kinds-and-lock-times': receiptKinds,
  '2026-11-27T1100-autopilot-batches': autopilotBatches,
  '2026-11-28T1600-outbox-recipient': outboxRecipient,
  '2026-12-04T1200-scores-lock-order': scoresLockOrder,
  '2026-12-04T1600-user-changes-wait-for-scoring': userChangesWait,
  '2026-12-06T0400-league-create-key': leagueCreateKey,
  '2026-12-06T0500-contact-request-key': contactRequestKey,
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

/** Bring the schema up to date; throws (and changes nothing more) if a migration fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error })
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
