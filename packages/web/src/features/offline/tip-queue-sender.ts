import { useEffect } from 'react'
import { useDispatch } from 'react-redux'
import { api } from '../../lib/api.ts'
import { api as callApi, ApiCallError } from '../../lib/api-client.ts'
import { clearSignedInCaches } from '../../lib/offline-caches.ts'
import type { QueuedTip, SendResult } from '../../lib/offline-queue.ts'
import { markVerdicts } from '../../lib/offline-status.ts'

// Sends the tips kept on the device (lib/offline-queue.ts) when the connection returns: at once
// when the signed-in pages open, on the browser's `online` event, when the tab comes back to the
// front, and when the service worker relays a Background Sync. Each tip goes on its own to
// `POST /api/{sport}/tips`, the same rules as any save: the server judges it now.

const OWNER_KEY = 'tipping-offline-owner'

/**
 * The queue's code (and IndexedDB's wrapper) is loaded when a signed-in page first needs it, not
 * with the main script: the landing page's first download stays as it was (decision 014's budget).
 */
const queueModule = () => import('../../lib/offline-queue.ts')
const deviceQueue = async () => (await queueModule()).deviceTipQueue()

/** One tip sent; any answer but a success is its status and message (0: no answer). */
async function send(tip: QueuedTip): Promise<SendResult> {
  try {
    await callApi(`${tip.sport}/tips`, {
      method: 'POST',
      body: { match: tip.match, squad: tip.squad, margin: tip.margin },
    })
    return { ok: true }
  } catch (err) {
    return err instanceof ApiCallError
      ? { ok: false, status: err.status, message: err.message }
      : { ok: false, status: 0, message: 'Network error' }
  }
}

/**
 * What another user left on this device (their reads as last seen, their kept tips) is
 * forgotten as soon as someone else is signed in here: a sign-out forgets it too, but a session
 * that simply ran out does not pass through it.
 */
async function forgetOtherUsers(userId: number): Promise<void> {
  let owner: string | null
  try {
    owner = localStorage.getItem(OWNER_KEY)
  } catch {
    return // No storage: nothing to compare with; the sign-out still clears.
  }
  if (owner !== null && owner !== String(userId)) {
    try {
      await clearSignedInCaches()
      await (await deviceQueue())?.clearExcept(userId)
    } catch {
      return // The next signed-in page tries again: the other user stays the recorded owner.
    }
  }
  // Recorded only once the other user's data is gone: a page left while the clear is under way
  // (a sign-up lands on one page and the player opens another at once) must not find the new
  // owner already recorded and skip the clear (the offline spec's "next user" test caught it).
  try {
    localStorage.setItem(OWNER_KEY, String(userId))
  } catch {
    // Storage refused: compared again on the next page.
  }
}

/** Sign-out: nothing of the user's stays on the device, offline copies and kept tips alike. */
export async function forgetOfflineData(): Promise<void> {
  try {
    localStorage.removeItem(OWNER_KEY)
  } catch {
    // Nothing stored.
  }
  await clearSignedInCaches()
  await (await deviceQueue())?.clearExcept().catch(() => undefined)
}

export function useTipQueueSender(userId: number | null): void {
  const dispatch = useDispatch()
  useEffect(() => {
    if (!userId) return
    let running = false
    let closed = false
    const run = async () => {
      if (running || closed || navigator.onLine === false) return
      running = true
      try {
        const { deviceTipQueue, flushTipQueue } = await queueModule()
        const queue = deviceTipQueue()
        if (!queue) return
        const { verdicts } = await flushTipQueue(queue, userId, send)
        if (closed || verdicts.length === 0) return
        markVerdicts(verdicts)
        // The rounds they were for are read again: the saved picks are the server's now.
        const rounds = new Set(verdicts.map((v) => `${v.tip.sport}/${v.tip.round}`))
        dispatch(
          api.util.invalidateTags([
            ...[...rounds].map((id) => ({ type: 'Round' as const, id })),
            'Snapshot',
            'Ladder',
          ]),
        )
      } catch {
        // IndexedDB refused (or the code did not load): the tips stay kept, tried again later.
      } finally {
        running = false
      }
    }
    const onChance = () => void run()
    void forgetOtherUsers(userId).then(run)
    const onVisible = () => {
      if (document.visibilityState === 'visible') void run()
    }
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'flush-tip-queue') void run()
    }
    window.addEventListener('online', onChance)
    window.addEventListener('focus', onChance)
    document.addEventListener('visibilitychange', onVisible)
    navigator.serviceWorker?.addEventListener('message', onMessage)
    return () => {
      closed = true
      window.removeEventListener('online', onChance)
      window.removeEventListener('focus', onChance)
      document.removeEventListener('visibilitychange', onVisible)
      navigator.serviceWorker?.removeEventListener('message', onMessage)
    }
  }, [dispatch, userId])
}
