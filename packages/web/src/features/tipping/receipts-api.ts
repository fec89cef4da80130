import type { Sport } from '@tipping/contract/constants'
import type {
  Receipt,
  ReceiptCheckResponse,
  SaveKind,
  TipsHistoryResponse,
} from '@tipping/contract/receipts'
import { api } from '../../lib/api.ts'
import { lazySchema } from '../../lib/lazy-schema.ts'
import { readStored, writeStored } from '../../lib/storage.ts'

// Tip receipts in the browser (issue 32, decision 027). The last receipt is kept on the device
// (per sport and user), so the tipping page shows it without asking the server on every visit:
// the page is the rush's hottest read and a receipt is the save's own answer.

interface LastReceiptArg {
  sport: Sport
  userId: number
}

const storageKey = ({ sport, userId }: LastReceiptArg) => `${sport}_last_receipt_${userId}`

/** The last receipt and which write it was for (a save, an autopick or a clear: decision 029). */
export type LastReceipt = Receipt & { kind?: SaveKind }

// The contract's schemas (and zod) load only when a kept receipt is there to be checked: the
// tipping page's first load builds none (decision 035).
const receipts = () => import('@tipping/contract/receipts')

const storedReceipt = async (arg: LastReceiptArg): Promise<LastReceipt | null> => {
  const text = readStored(storageKey(arg))
  if (!text) return null
  try {
    const { receiptSchema, saveKindSchema } = await receipts()
    const lastReceiptSchema = receiptSchema.extend({ kind: saveKindSchema.optional() })
    const parsed = lastReceiptSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export const receiptsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The device's last receipt for the sport and user: local storage, no request. */
    lastReceipt: build.query<LastReceipt | null, LastReceiptArg>({
      queryFn: async (arg) => ({ data: await storedReceipt(arg) }),
    }),
    /**
     * My tips history. Tagged 'Snapshot', which every save invalidates (tipping-api.ts), so an
     * open history page follows the saves made elsewhere in the app.
     */
    tipsHistory: build.query<TipsHistoryResponse, Sport>({
      query: (sport) => ({ path: `${sport}/tips-history` }),
      responseSchema: lazySchema(async () => (await receipts()).tipsHistoryResponseSchema),
      providesTags: ['Snapshot'],
    }),
    /** The public check of a receipt (anyone may ask; the answer never has picks). */
    checkReceipt: build.query<ReceiptCheckResponse, { id: string; digest: string }>({
      query: ({ id, digest }) => ({
        path: `receipts/${encodeURIComponent(id)}?digest=${encodeURIComponent(digest)}`,
      }),
      responseSchema: lazySchema(async () => (await receipts()).receiptCheckResponseSchema),
    }),
  }),
})

export const { useLastReceiptQuery, useTipsHistoryQuery, useLazyCheckReceiptQuery } = receiptsApi

/**
 * After an accepted save, autopick or clear: remember its receipt on the device; the action shows
 * it at once.
 */
export function receiptReceived(arg: LastReceiptArg, receipt: Receipt, kind: SaveKind = 'save') {
  const last: LastReceipt = { ...receipt, kind }
  writeStored(storageKey(arg), JSON.stringify(last))
  return receiptsApi.util.upsertQueryData('lastReceipt', arg, last)
}
