import { useSyncExternalStore } from 'react'
import type { TipVerdict } from './offline-queue.ts'

// What the page knows of the connection and of the tips kept on the device (decision 025): the
// offline banner reads the first, the tipping page the second. A small store of its own, not a
// Redux slice: the API client (below the store) reports into it.

export type TipState =
  { state: 'queued' } | { state: 'saved' } | { state: 'refused'; message: string }

interface Snapshot {
  /** The browser says it is offline, or the last API call got no answer (or an old copy). */
  offline: boolean
  /** Per match id: kept on the device, then what the server said of it. */
  tips: ReadonlyMap<number, TipState>
}

let lastCallFailed = false
let browserOffline = typeof navigator !== 'undefined' && navigator.onLine === false
let snapshot: Snapshot = { offline: browserOffline, tips: new Map() }
const listeners = new Set<() => void>()

const publish = (next: Partial<Snapshot>) => {
  snapshot = { ...snapshot, ...next }
  listeners.forEach((l) => l())
}
const recompute = () => {
  const offline = browserOffline || lastCallFailed
  if (offline !== snapshot.offline) publish({ offline })
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    browserOffline = false
    lastCallFailed = false
    recompute()
  })
  window.addEventListener('offline', () => {
    browserOffline = true
    recompute()
  })
}

/**
 * The API client's report of each call: `false` when no answer came (a network failure or a
 * timeout) or the service worker answered with its copy as last seen; `true` on a real answer.
 */
export function reportConnection(answered: boolean): void {
  lastCallFailed = !answered
  recompute()
}

/** Tips just kept on the device: shown as waiting until the server answers for them. */
export function markQueued(matches: readonly number[]): void {
  const tips = new Map(snapshot.tips)
  for (const m of matches) tips.set(m, { state: 'queued' })
  publish({ tips })
}

/** The server's verdicts on sent tips. */
export function markVerdicts(verdicts: readonly TipVerdict[]): void {
  if (verdicts.length === 0) return
  const tips = new Map(snapshot.tips)
  for (const v of verdicts)
    tips.set(
      v.tip.match,
      v.state === 'saved' ? { state: 'saved' } : { state: 'refused', message: v.message },
    )
  publish({ tips })
}

/** A normal save of these matches went through: nothing of theirs is waiting any more. */
export function forgetTips(matches?: readonly number[]): void {
  if (snapshot.tips.size === 0) return
  if (!matches) return publish({ tips: new Map() })
  const tips = new Map(snapshot.tips)
  for (const m of matches) tips.delete(m)
  publish({ tips })
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}
const get = () => snapshot

export const useOffline = (): boolean => useSyncExternalStore(subscribe, get, get).offline
export const useTipStates = (): ReadonlyMap<number, TipState> =>
  useSyncExternalStore(subscribe, get, get).tips
