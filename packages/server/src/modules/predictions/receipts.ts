import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Receipt } from '@tipping/contract/receipts'
import { DEV_RECEIPT_SECRET } from '../../config.ts'

// Tip receipts (issue 32, decision 027). A save's receipt is an HMAC-SHA-256, keyed by
// RECEIPT_SECRET, over a canonical text of the save: receipt id, user, competition, time and each
// pick (match, round, squad, margin) in match order. The save log (tip_saves) keeps that text's
// parts, so the server can sign a stored save again and tell a genuine receipt from a forged one
// or from a row edited behind its back.

/** One pick of a save as the log keeps it (short keys: a row per save of the rush). */
export interface LoggedPick {
  m: number
  r: number
  /** The squad; null on a clear: the match's tip was removed. */
  s: number | null
  g: number | null
}

/** Which write a receipt is for (decision 029): a save, an autopick, or a clear. */
export type SaveKind = 'save' | 'autopick' | 'clear'

export interface SaveRecord {
  id: string
  kind: SaveKind
  userId: number
  competitionId: number
  savedAt: Date
  picks: LoggedPick[]
}

/**
 * The text a receipt signs. Versioned so a later format can sit beside this one: a save keeps
 * version 1 (receipts issued before autopick and clear had any still check), an autopick or a
 * clear is version 2, which names the kind so that no receipt of one kind passes for another.
 */
export function canonicalSave(save: SaveRecord): string {
  const picks = [...save.picks]
    .sort((a, b) => a.m - b.m)
    .map((p) => `${p.m}:${p.r}:${p.s ?? '-'}:${p.g ?? '-'}`)
    .join(',')
  return [
    ...(save.kind === 'save' ? ['tip-receipt/1'] : ['tip-receipt/2', save.kind]),
    save.id,
    save.userId,
    save.competitionId,
    save.savedAt.toISOString(),
    picks,
  ].join('\n')
}

export class ReceiptSigner {
  constructor(private readonly secret: string = DEV_RECEIPT_SECRET) {}

  /** 12 random bytes: unguessable, so an id alone reveals nothing and cannot be enumerated. */
  newId(): string {
    return randomBytes(12).toString('base64url')
  }

  digest(save: SaveRecord): string {
    return createHmac('sha256', this.secret).update(canonicalSave(save)).digest('hex')
  }

  /** Whether `digest` is the one this key gives the stored save (constant-time compare). */
  matches(save: SaveRecord, stored: string, digest: string): boolean {
    const given = Buffer.from(digest, 'hex')
    const want = Buffer.from(this.digest(save), 'hex')
    const kept = Buffer.from(stored, 'hex')
    return (
      given.length === want.length &&
      kept.length === want.length &&
      timingSafeEqual(given, want) &&
      timingSafeEqual(kept, want)
    )
  }
}

export interface SaveLogRow extends SaveRecord {
  digest: string
  /**
   * The picks' values before the write, where known without reading tips (an autopick's filled
   * matches were untipped; a clear's old values come back from its DELETE). Unset, the log's
   * INSERT reads them from tips (a save runs it before its upsert).
   */
  before?: { m: number; s: number | null; g: number | null }[]
}

export const receiptOf = (row: SaveLogRow): Receipt => ({
  id: row.id,
  savedAt: row.savedAt.toISOString(),
  digest: row.digest,
})

export { insertSaves, saveById, savesOfUser } from './receipts/queries.ts'
