import { receiptText, shortReceiptId } from '@tipping/contract/receipt-text'
import type { Receipt } from '@tipping/contract/receipts'
import { formatTipDate } from '../../lib/dates.ts'

// Every time in the game is shown in UTC (spec 2); a receipt's and a lock's to the millisecond,
// the precision the server keeps them at.

/** "19:15:00.002" from an ISO 8601 UTC instant. */
export const formatClockMs = (iso: string): string => new Date(iso).toISOString().slice(11, 23)

/** "Mon 01-12-2025 19:15:00.002 UTC". */
export const formatInstantMs = (iso: string): string =>
  `${formatTipDate(iso)} ${formatClockMs(iso)} UTC`

export { receiptText, shortReceiptId }
export type { Receipt }
