import type { Receipt } from './receipts.ts'

// A receipt as the page shows and copies it, without zod, so the tipping page's first load builds
// no schemas (decision 035); not re-exported from `receipts.ts`.

/** The short form shown on the page: the id's first 8 characters. */
export const shortReceiptId = (id: string): string => id.slice(0, 8)

/** What a receipt is copied as: the id and digest, the two things the check asks for. */
export const receiptText = (r: Pick<Receipt, 'id' | 'digest'>): string => `${r.id}.${r.digest}`
