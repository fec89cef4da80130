import { createStore, delMany, entries, setMany, type UseStore } from 'idb-keyval'
import type { Sport } from '@tipping/contract/constants'
import { markQueued } from './offline-status.ts'

// Issue 32 "Tips that survive a bad connection" (decision 025): a pick made offline, or whose
// save failed on the network, is kept on the device (IndexedDB: it survives a reload and a
// browser restart) and sent when the connection returns. The server stays the judge: each tip
// is sent on its own, so a tip for a match that started meanwhile is refused with the server's
// usual message while the others of the round are saved, and the page says which was which.

export interface QueuedTip {
  /** Whose tip it is: only that user's session ever sends it (sign-out forgets it). */
  userId: number
  sport: Sport
  round: number
  match: number
  squad: number
  margin: number | null
  /** When it was kept (ISO); the oldest is sent first. */
  queuedAt: string
}

/** What the server said of a queued tip. */
export type TipVerdict =
  { tip: QueuedTip; state: 'saved' } | { tip: QueuedTip; state: 'refused'; message: string }

/** The answer to one send: saved, or the failure's status (0: no answer) and message. */
export type SendResult = { ok: true } | { ok: false; status: number; message: string }

/**
 * Whether a failure is the server's answer on the tip itself (kept out of the queue for good:
 * a locked match, a squad not playing) rather than a reason to try again later: no answer (0),
 * the server busy or failing (5xx), a timeout (408), a limit (429), or the session gone (401:
 * the player signs in again and the tip is still there).
 */
export const isVerdict = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429

/** One tip per user and match: a newer pick for the match replaces the one kept. */
const keyOf = (t: Pick<QueuedTip, 'userId' | 'sport' | 'match'>) =>
  `${t.userId}/${t.sport}/${t.match}`

export interface TipQueue {
  put(tips: readonly QueuedTip[]): Promise<void>
  /** The user's kept tips, oldest first. */
  list(userId: number): Promise<QueuedTip[]>
  remove(tips: readonly QueuedTip[]): Promise<void>
  /** Forgets the kept tips of every user but `keep` (all of them without it). */
  clearExcept(keep?: number): Promise<void>
}

export function createTipQueue(store: UseStore = createStore('tipping-offline', 'tip-queue')) {
  const all = async () =>
    (await entries<string, QueuedTip>(store)).map(([key, tip]) => ({ key, tip }))
  const queue: TipQueue = {
    put: (tips) =>
      setMany(
        tips.map((t) => [keyOf(t), t]),
        store,
      ),
    async list(userId) {
      return (await all())
        .map((e) => e.tip)
        .filter((t) => t.userId === userId)
        .sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || a.match - b.match)
    },
    remove: (tips) => delMany(tips.map(keyOf), store),
    async clearExcept(keep) {
      const gone = (await all()).filter((e) => e.tip.userId !== keep).map((e) => e.key)
      if (gone.length > 0) await delMany(gone, store)
    },
  }
  return queue
}

/**
 * Sends the user's kept tips, oldest first, each on its own. A saved or refused tip leaves the
 * queue with its verdict; the first failure that is not the server's verdict (still offline, the
 * server down) stops the run with that tip and the rest still kept, to try again on the next
 * chance. `stopped` says whether that happened.
 */
export async function flushTipQueue(
  queue: TipQueue,
  userId: number,
  send: (tip: QueuedTip) => Promise<SendResult>,
): Promise<{ verdicts: TipVerdict[]; stopped: boolean }> {
  const verdicts: TipVerdict[] = []
  for (const tip of await queue.list(userId)) {
    const result = await send(tip)
    if (!result.ok && !isVerdict(result.status)) return { verdicts, stopped: true }
    await queue.remove([tip])
    verdicts.push(
      result.ok ? { tip, state: 'saved' } : { tip, state: 'refused', message: result.message },
    )
  }
  return { verdicts, stopped: false }
}

let shared: TipQueue | null = null
/** The device's queue; null where the browser has no IndexedDB (nothing can be kept). */
export function deviceTipQueue(): TipQueue | null {
  if (typeof indexedDB === 'undefined') return null
  return (shared ??= createTipQueue())
}

/** The Background Sync tag the service worker answers (src/sw.ts). */
export const TIP_QUEUE_SYNC = 'tip-queue'

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> }
}

/**
 * Keeps tips whose save got no answer, to send when the connection returns; asks the browser
 * for a Background Sync where it has one (Chromium), so they go even if the page is asleep by
 * then. False when nothing could be kept (no IndexedDB, or it refused).
 */
export async function keepForLater(tips: readonly QueuedTip[]): Promise<boolean> {
  const queue = deviceTipQueue()
  if (!queue || tips.length === 0) return false
  try {
    await queue.put(tips)
  } catch {
    return false
  }
  markQueued(tips.map((t) => t.match))
  if (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller) {
    void navigator.serviceWorker.ready
      .then((r) => (r as unknown as SyncRegistration).sync?.register(TIP_QUEUE_SYNC))
      .catch(() => undefined)
  }
  return true
}
