import { asMatchId, asRoundNumber } from '@tipping/contract/ids'
import type { PicksEvent } from '@tipping/contract/live'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { countRoundPickSplit } from '../predictions/service.ts'
import { publishEvent, type PickSplitChange } from './service.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

type Split = { id: number; home_percent: number; away_percent: number }[]

/** Field by field: the stored copy is jsonb, which keeps its own key order. */
const sameSplit = (a: Split, b: Split): boolean =>
  a.length === b.length &&
  a.every(
    (m, i) =>
      m.id === b[i]!.id &&
      m.home_percent === b[i]!.home_percent &&
      m.away_percent === b[i]!.away_percent,
  )

export interface PickSplitOptions {
  /** A round is counted at most this often while it takes tips (PICK_SPLIT_EVENT_MS). */
  everyMs: number
  /** Rounds with a match just locked: counted now, and told even if the split held. */
  lockedRounds?: readonly number[]
}

/**
 * The push channel's `picks` events (decision 015): a scheduler job, not a tip's side effect. A
 * tip save raises nothing (a million tippers would be a million events and as many refetches);
 * instead each round that still takes tips is counted at most every `everyMs`, and a `picks`
 * event with its whole split goes out only when the percentages moved. A lockout changes the
 * split at once (the untipped get the away side), so its rounds are counted and told at once.
 * The rounds are claimed row by row (claimPickSplits), so several schedulers count each once.
 */
export async function publishPickSplits(
  db: Database,
  clock: Clock,
  opts: PickSplitOptions,
): Promise<{ counted: number; published: number }> {
  const forced = [...new Set(opts.lockedRounds ?? [])]
  const rounds = [...new Set([...(await q.roundsTakingTips(db)), ...forced])]
  if (rounds.length === 0) return { counted: 0, published: 0 }
  await q.ensurePickSplitRows(db, rounds)
  const now = clock.now()
  return inTransaction(db, async (trx) => {
    const due = await q.claimPickSplits(trx, rounds, new Date(now.getTime() - opts.everyMs), forced)
    const events: PickSplitChange[] = []
    for (const round of due) {
      const split = await countRoundPickSplit(trx, round.round_id)
      await q.savePickSplit(trx, round.round_id, split, now)
      // The first count of a round tells nothing new: pages read the same split when they load.
      if (
        !forced.includes(round.round_id) &&
        (round.split === null || sameSplit(split, round.split))
      )
        continue
      const payload: PicksEvent = {
        roundNumber: asRoundNumber(round.round_number),
        matches: split.map((s) => ({ ...s, id: asMatchId(s.id) })),
      }
      events.push({
        type: 'picks',
        sport: round.sport,
        competitionId: round.competition_id,
        payload,
      })
    }
    // Last in the transaction (publishEvent): the events commit with the splits they report.
    for (const event of events) await publishEvent(trx, event, now)
    return { counted: due.length, published: events.length }
  })
}
