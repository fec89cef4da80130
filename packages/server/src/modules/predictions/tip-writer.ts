import type { Sport } from '@tipping/contract/constants'
import { asMatchId } from '@tipping/contract/ids'
import type { Prediction, TipInput } from '@tipping/contract/predictions'
import type { Receipt } from '@tipping/contract/receipts'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { groupBy } from '../../batch.ts'
import { AppError } from '../../errors.ts'
import { effectiveStatus } from '@tipping/contract/rules/status'
import * as q from './queries.ts'
import { insertSaves, receiptOf, ReceiptSigner, type SaveLogRow } from './receipts.ts'
import { inTransaction } from '../../db/transaction.ts'

/** What an accepted save answers: the picks as written and the save's receipt (decision 027). */
export interface SavedList {
  predictions: Prediction[]
  receipt: Receipt
}

/** Refuses a list naming a match twice (the list index names the param). */
export function checkDistinct(matchIds: readonly number[]): void {
  const seen = new Set<number>()
  matchIds.forEach((id, i) => {
    if (seen.has(id))
      throw new AppError('VALIDATION', 'This match is listed twice', `predictions.${i}.match`)
    seen.add(id)
  })
}

/**
 * The locked rows of the listed matches, in list order, if the user may tip every one of them
 * now: registered, each match of the competition and not started (GAME_RULES.md: a match locks
 * at its start time, judged by the clock as well as the stored status).
 */
export function checkTippable(
  sport: Sport,
  registered: boolean,
  matchIds: readonly number[],
  rows: readonly q.TippableMatch[],
  now: Date,
): q.TippableMatch[] {
  if (!registered) {
    throw new AppError(
      'NOT_REGISTERED',
      `You are not registered for ${sport.toUpperCase()} tipping`,
    )
  }
  const byId = new Map(rows.map((m) => [m.id, m]))
  return matchIds.map((id, i) => {
    const match = byId.get(id)
    if (!match)
      throw new AppError('NOT_FOUND', 'No such match in this competition', `predictions.${i}.match`)
    if (effectiveStatus(match.status, match.starts_at, now) !== 'scheduled') {
      throw new AppError(
        'MATCH_LOCKED',
        'This match has started; its tip can no longer change',
        `predictions.${i}.match`,
      )
    }
    return match
  })
}

/** The rows to write for a list, or INVALID_SQUAD naming the tip whose squad is not playing. */
function tipWrites(
  userId: number,
  items: readonly TipInput[],
  matches: readonly q.TippableMatch[],
  now: Date,
): q.TipWrite[] {
  return items.map((item, i) => {
    const match = matches[i]!
    if (item.squad !== match.home_squad_id && item.squad !== match.away_squad_id) {
      throw new AppError(
        'INVALID_SQUAD',
        'That squad is not playing in this match',
        `predictions.${i}.squad`,
      )
    }
    return {
      userId,
      matchId: match.id,
      roundId: match.round_id,
      squadId: item.squad,
      // GAME_RULES.md: only the margin game carries a sixes prediction.
      margin: match.is_margin_game ? (item.margin ?? null) : null,
      now,
    }
  })
}

/**
 * The answer to a save is what was written: every listed match was open, so nothing about it is
 * decided yet (no re-read). In round order, as the round's own list.
 */
function savedPredictions(
  items: readonly TipInput[],
  matches: readonly q.TippableMatch[],
): Prediction[] {
  const byMatch = new Map<number, TipInput>(items.map((item) => [item.match, item]))
  const roundOrder = [...new Set(matches.map((m) => m.round_id))]
  return [...matches]
    .sort(
      (a, b) =>
        roundOrder.indexOf(a.round_id) - roundOrder.indexOf(b.round_id) ||
        a.starts_at.getTime() - b.starts_at.getTime() ||
        a.number - b.number,
    )
    .map((m) => ({
      match: asMatchId(m.id),
      squad: byMatch.get(m.id)!.squad,
      margin: m.is_margin_game ? (byMatch.get(m.id)!.margin ?? null) : null,
      isMarginGame: m.is_margin_game,
      isAutoTip: false,
      isCorrect: null,
      counted: null,
      marginResult: null,
      status: 'scheduled' as const,
    }))
}

interface PendingSave {
  sport: Sport
  competitionId: number
  userId: number
  items: TipInput[]
  resolve: (saved: SavedList) => void
  reject: (error: unknown) => void
}

/**
 * Saves tip lists with group commit: the lists that arrive together (a deadline crowd) are
 * written by one transaction, so the database sees one commit and four statements for dozens of
 * saves instead of for each (bench/README.md). Each list is still all or nothing: it is checked
 * on its own against the locked rows, a refused list gets its own error and is left out, and if
 * the shared transaction fails every list is retried alone.
 *
 * Up to `maxInFlight` batches are written at once, so the next batch forms and starts while the
 * last one commits instead of waiting a whole commit (decision 009). A user with a save in a batch still being written, or a second
 * list in the same batch, waits for a later batch, so one user's saves apply in the order they came.
 */
export class TipWriter {
  private queue: PendingSave[] = []
  private scheduled = false
  private inFlight = 0
  /** `${competitionId}:${userId}` of the saves being committed. */
  private readonly busy = new Set<string>()

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly maxBatch = 200,
    private readonly maxInFlight = 2,
    private readonly signer = new ReceiptSigner(),
  ) {}

  save(sport: Sport, competitionId: number, userId: number, items: TipInput[]) {
    checkDistinct(items.map((i) => i.match))
    return new Promise<SavedList>((resolve, reject) => {
      this.queue.push({ sport, competitionId, userId, items, resolve, reject })
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.flush()
    })
  }

  private flush(): void {
    const batch: PendingSave[] = []
    const later: PendingSave[] = []
    const users = new Set<string>()
    for (const p of this.queue) {
      const key = `${p.competitionId}:${p.userId}`
      if (users.has(key) || this.busy.has(key) || batch.length >= this.maxBatch) later.push(p)
      else {
        users.add(key)
        batch.push(p)
      }
    }
    this.queue = later
    if (batch.length === 0) return
    this.inFlight++
    for (const key of users) this.busy.add(key)
    const byCompetition = groupBy(batch, (p) => p.competitionId)
    void Promise.all(
      [...byCompetition].map(([competitionId, saves]) => this.commit(competitionId, saves)),
    ).finally(() => {
      this.inFlight--
      for (const key of users) this.busy.delete(key)
      this.schedule()
    })
    this.schedule()
  }

  /** A save's log row and receipt, signed over exactly what is written. */
  private logRow(
    competitionId: number,
    userId: number,
    writes: readonly q.TipWrite[],
    savedAt: Date,
  ): SaveLogRow {
    const record = {
      id: this.signer.newId(),
      kind: 'save' as const,
      userId,
      competitionId,
      savedAt,
      picks: writes
        .map((w) => ({ m: w.matchId, r: w.roundId, s: w.squadId, g: w.margin }))
        .sort((a, b) => a.m - b.m),
    }
    return { ...record, digest: this.signer.digest(record) }
  }

  /** One transaction for the saves of one competition; alone, one by one, if it fails. */
  private async commit(competitionId: number, saves: PendingSave[]): Promise<void> {
    let outcomes: { save: PendingSave; result: SavedList | AppError }[]
    try {
      outcomes = await inTransaction(this.db, async (trx) => {
        const userIds = [...new Set(saves.map((s) => s.userId))]
        // Registrations first, in user order: every tip write takes its user's row before any
        // match (q.lockRegistration), so concurrent batches and single writes never deadlock.
        const registered = await q.lockRegistrations(trx, competitionId, userIds)
        const matchIds = [...new Set(saves.flatMap((s) => s.items.map((i) => i.match)))]
        const rows = await q.lockMatchesForTipping(trx, competitionId, matchIds)
        const now = this.clock.now()
        const written: q.TipWrite[] = []
        const logged: SaveLogRow[] = []
        const results = saves.map((save) => {
          try {
            const ids: number[] = save.items.map((i) => i.match)
            const matches = checkTippable(
              save.sport,
              registered.has(save.userId),
              ids,
              rows.filter((r) => ids.includes(r.id)),
              now,
            )
            const writes = tipWrites(save.userId, save.items, matches, now)
            written.push(...writes)
            const log = this.logRow(competitionId, save.userId, writes, now)
            logged.push(log)
            return {
              save,
              result: {
                predictions: savedPredictions(save.items, matches),
                receipt: receiptOf(log),
              },
            }
          } catch (error) {
            if (error instanceof AppError) return { save, result: error }
            throw error
          }
        })
        // The save log first: it reads each pick's value before this save (receipts.ts).
        await insertSaves(trx, logged)
        if (written.length > 0)
          await q.upsertTips(
            trx,
            written.sort((a, b) => a.userId - b.userId || a.matchId - b.matchId),
          )
        return results
      })
    } catch (error) {
      if (saves.length === 1) {
        saves[0]!.reject(error)
        return
      }
      for (const save of saves) await this.commit(competitionId, [save])
      return
    }
    for (const { save, result } of outcomes) {
      if (result instanceof AppError) save.reject(result)
      else save.resolve(result)
    }
  }
}
