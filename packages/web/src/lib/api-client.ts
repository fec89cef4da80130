import type { ApiError } from '@tipping/contract/errors'
import { SERVER_TIME_HEADER } from '@tipping/contract/http'
import { OFFLINE_COPY_HEADER } from './offline-caches.ts'
import { reportConnection } from './offline-status.ts'
import { noteServerTime } from './server-clock.ts'

/** A failed call: the first error of the envelope, or a network/timeout failure (spec 8). */
export class ApiCallError extends Error {
  readonly code: string | number
  readonly param: string | null
  readonly status: number

  constructor(message: string, code: string | number, param: string | null, status: number) {
    super(message)
    this.code = code
    this.param = param
    this.status = status
  }
}

type UnauthorizedListener = () => void
const unauthorizedListeners = new Set<UnauthorizedListener>()

/** The one place a 401 is handled: the app layer subscribes and opens the login modal. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

export const DEFAULT_TIMEOUT_MS = 15_000

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  timeoutMs?: number
  /** Sign-in calls answer 401 for a wrong password; that is not an expired session. */
  skipUnauthorized?: boolean
}

/**
 * A 503 with Retry-After is the server saying "busy or briefly without its database, nothing was
 * done: send it again then" (load shed before any work, a transaction PostgreSQL aborted three
 * times, the database restarting). The client does that itself, a bounded number of times, before
 * the player sees an error (decision 046). A longer wait is the server asking for time: the error
 * shows at once. A 429 is a limit, not a state, and is never sent again by itself.
 */
export const BUSY_RETRY = {
  /** Sends in all: the first and two more. */
  tries: 3,
  /** A Retry-After above this many seconds is not waited for. */
  maxWaitSeconds: 5,
  /** Each wait is stretched by up to this share, so a shed crowd does not return in one wave. */
  jitter: 0.5,
} as const

/** The wait a busy answer asks for, in ms; null when it should not be sent again by itself. */
export function busyRetryDelay(res: Response, random: () => number = Math.random): number | null {
  if (res.status !== 503) return null
  const header = res.headers.get('retry-after')
  // Delta-seconds only: this server never sends a date, and a proxy's date is not worth a guess.
  if (header === null || !/^\d+$/.test(header.trim())) return null
  const seconds = Number(header.trim())
  if (seconds > BUSY_RETRY.maxWaitSeconds) return null
  return seconds * 1000 * (1 + BUSY_RETRY.jitter * random())
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Calls the API with credentials and unwraps `{success}`; throws ApiCallError otherwise. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await send(path, opts)
    const wait = attempt < BUSY_RETRY.tries ? busyRetryDelay(res) : null
    if (wait === null) return unwrap<T>(res, opts)
    // The busy answer's body is not read: let its connection go before waiting.
    await res.body?.cancel().catch(() => undefined)
    await pause(wait)
  }
}

/** The preloads of the app page already matched to a send: a preload answers one fetch. */
const claimedPreloads = new Set<string>()

/**
 * Whether this read is one the app page preloaded (`<link rel="preload" as="fetch">`, named by the
 * server: packages/server/src/http/app-page.ts), claimed by its first send. Such an answer was
 * stamped when the page's HTML asked for it, possibly seconds before this send left, so its time
 * says nothing of the server's clock (decision 048). Should the browser not have used the preload,
 * one reading is lost; the next answer gives it.
 */
function claimPreload(url: string): boolean {
  if (typeof document === 'undefined' || claimedPreloads.has(url)) return false
  const links = document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]')
  const preloaded = [...links].some((l) => l.getAttribute('href') === url)
  if (preloaded) claimedPreloads.add(url)
  return preloaded
}

/** One send, with its own timeout; a failure to get any answer is thrown as status 0. */
async function send(path: string, opts: RequestOptions): Promise<Response> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  let res: Response
  const sentAt = Date.now()
  const url = `/api/${path.replace(/^\//, '')}`
  const preloaded = (opts.method ?? 'GET') === 'GET' && claimPreload(url)
  try {
    res = await fetch(url, {
      method: opts.method ?? 'GET',
      credentials: 'include',
      headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: controller.signal,
    })
  } catch {
    reportConnection(false)
    if (controller.signal.aborted)
      throw new ApiCallError(`timeout of ${timeoutMs} ms exceeded`, 0, null, 0)
    throw new ApiCallError('Network error', 0, null, 0)
  } finally {
    clearTimeout(timer)
  }
  // A copy the service worker kept (decision 025) carries the time it was first answered; a
  // preloaded answer, the time the page was.
  if (!preloaded && !res.headers.get(OFFLINE_COPY_HEADER))
    noteServerTime(res.headers.get(SERVER_TIME_HEADER), sentAt, Date.now())
  return res
}

/** An answer's `{success}`, or its first error thrown as an ApiCallError. */
async function unwrap<T>(res: Response, opts: RequestOptions): Promise<T> {
  // The service worker's copy as last seen (decision 025) is an answer, but not the server's now.
  reportConnection(!res.headers.get(OFFLINE_COPY_HEADER))
  if (res.status === 401 && !opts.skipUnauthorized) unauthorizedListeners.forEach((l) => l())
  const json: unknown = await res.json().catch(() => null)
  const errors = (json as { errors?: ApiError[] } | null)?.errors
  if (Array.isArray(errors) && errors.length > 0) {
    const first = errors[0]!
    throw new ApiCallError(first.message, first.code, first.param, res.status)
  }
  if (!res.ok || json === null || typeof json !== 'object' || !('success' in json)) {
    throw new ApiCallError('Network error', res.status, null, res.status)
  }
  return (json as { success: T }).success
}
