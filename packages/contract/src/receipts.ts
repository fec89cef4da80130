import { z } from 'zod'
import { reportedMatchIdSchema, reportedRoundNumberSchema, reportedSquadIdSchema } from './ids.ts'

// Receipts for tip saves (issue 32, decision 027). Every accepted save answers with one: an id,
// the server's time of the save, and an HMAC the server made over the user, the rounds and the
// picks. Anyone holding a receipt can ask the server whether it is genuine; only its owner sees
// the picks behind it (the history).

/** A receipt id: 16 URL-safe characters (12 random bytes, base64url). */
export const RECEIPT_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/
/** A digest: HMAC-SHA-256, 64 lower-case hex characters. */
export const RECEIPT_DIGEST_PATTERN = /^[0-9a-f]{64}$/

export const receiptIdSchema = z
  .string()
  .regex(RECEIPT_ID_PATTERN, 'A receipt id is 16 letters, digits, - or _')
export const receiptDigestSchema = z
  .string()
  .regex(RECEIPT_DIGEST_PATTERN, 'A digest is 64 hexadecimal characters (0-9, a-f)')

export const receiptSchema = z.object({
  id: z.string(),
  /** The server's time of the save, ISO 8601 UTC with milliseconds. */
  savedAt: z.string(),
  digest: z.string(),
})
export type Receipt = z.infer<typeof receiptSchema>

// The short and copied forms are in receipt-text.ts: without zod, and not re-exported here, so the
// bundler never puts them in this module's chunk (decision 035).

export const receiptParamsSchema = z.object({ id: receiptIdSchema })
export const receiptQuerySchema = z.object({ digest: receiptDigestSchema })

/**
 * The public check's answer: genuine only when the id names a stored save, the digest is the one
 * issued for it and the server's key still signs the stored save to it. Never the picks.
 */
export const receiptCheckResponseSchema = z.object({
  genuine: z.boolean(),
  /** The save's time, when genuine. */
  savedAt: z.string().nullable(),
})
export type ReceiptCheckResponse = z.infer<typeof receiptCheckResponseSchema>

/**
 * One pick as saved: match, its round, squad and (the margin game only) sixes. On a clear the
 * squad is null: the match's tip was removed (decision 029).
 */
export const savedPickSchema = z.object({
  match: reportedMatchIdSchema,
  matchNumber: z.number().int(),
  round: reportedRoundNumberSchema,
  squad: reportedSquadIdSchema.nullable(),
  margin: z.number().int().nullable(),
})

/**
 * Which write a receipt is for (decision 029): a save of picks (the list or one tip), an
 * autopick (the untipped matches it filled) or a clear (the tips it removed).
 */
export const SAVE_KINDS = ['save', 'autopick', 'clear'] as const
export const saveKindSchema = z.enum(SAVE_KINDS)
export type SaveKind = z.infer<typeof saveKindSchema>

/** A pick this save changed: what it is now and what it was (null: untipped before). */
export const pickChangeSchema = savedPickSchema.extend({
  was: z.object({ squad: reportedSquadIdSchema, margin: z.number().int().nullable() }).nullable(),
})

export type PickChange = z.infer<typeof pickChangeSchema>

export const tipSaveSchema = z.object({
  kind: saveKindSchema,
  receipt: receiptSchema,
  picks: z.array(savedPickSchema),
  changed: z.array(pickChangeSchema),
})
export type TipSave = z.infer<typeof tipSaveSchema>

/** How many saves the history lists, newest first (a season is ~40 days of a few saves each). */
export const TIPS_HISTORY_LIMIT = 500

export const tipsHistoryResponseSchema = z.object({ saves: z.array(tipSaveSchema) })
export type TipsHistoryResponse = z.infer<typeof tipsHistoryResponseSchema>
