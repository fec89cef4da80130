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

/** A request on its way: its answer, what can abort it, and when it left. */
interface Flight {
  response: Promise<Response>
  controller: AbortController
  timeoutMs: number
  sentAt: number
  /** Sent for the page's preload at boot (adoptPreloadedReads), not by the read that takes it. */
  preloaded: boolean
}

/** Sends one request, aborted if no answer has begun within its timeout. */
function dispatch(url: string, opts: RequestOptions, preloaded = false): Flight {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  const sentAt = Date.now()
  const response = fetch(url, {
    method: opts.method ?? 'GET',
    credentials: 'include',
    headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: controller.signal,
  })
  // The timeout is for the answer to begin: its body may be read later (a preload taken late).
  response.then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  )
  return { response, controller, timeoutMs, sentAt, preloaded }
}

/**
 * A preloaded read serves only a send this soon after the page loaded: later, what it says may
 * have changed (a round locked, a result in), so the read goes to the server.
 */
export const PRELOAD_FRESH_MS = 20_000

/** The reads the app page preloaded, sent at boot, each kept for the one send that takes it. */
const preloadedReads = new Map<string, Flight>()

/**
 * Sends now each API read the app page names as `<link rel="preload" as="fetch">` (the server's
 * choice: packages/server/src/http/app-page.ts), which takes the browser's preloaded answer at
 * once (decision 048). Left to the browser, a preload is handed to the first fetch of its URL
 * whenever that comes: a tipping page first shown to a player not yet in that game reads its week
 * only after they join, and would be given the answer from before they joined.
 */
export function adoptPreloadedReads(): void {
  for (const link of document.querySelectorAll<HTMLLinkElement>(
    'link[rel="preload"][as="fetch"]',
  )) {
    const href = link.getAttribute('href')
    if (href?.startsWith('/api/') && !preloadedReads.has(href))
      preloadedReads.set(href, dispatch(href, {}, true))
  }
}

/** The preloaded read for this URL, once, if it is still fresh and nothing has been written. */
function takePreloaded(url: string): Flight | undefined {
  const flight = preloadedReads.get(url)
  if (!flight) return undefined
  preloadedReads.delete(url)
  if (Date.now() - flight.sentAt <= PRELOAD_FRESH_MS) return flight
  discard(flight)
  return undefined
}

/** A write may change what every preloaded read said: none of them is handed out after it. */
function forgetPreloadedReads(): void {
  for (const flight of preloadedReads.values()) discard(flight)
  preloadedReads.clear()
}

function discard(flight: Flight): void {
  flight.response.then((res) => res.body?.cancel()).catch(() => undefined)
}

/** One send, with its own timeout; a failure to get any answer is thrown as status 0. */
async function send(path: string, opts: RequestOptions): Promise<Response> {
  const url = `/api/${path.replace(/^\//, '')}`
  const read = (opts.method ?? 'GET') === 'GET'
  if (!read) forgetPreloadedReads()
  const flight = (read && takePreloaded(url)) || dispatch(url, opts)
  let res: Response
  try {
    res = await flight.response
  } catch {
    reportConnection(false)
    if (flight.controller.signal.aborted)
      throw new ApiCallError(`timeout of ${flight.timeoutMs} ms exceeded`, 0, null, 0)
    throw new ApiCallError('Network error', 0, null, 0)
  }
  // A copy the service worker kept (decision 025) carries the time it was first answered; a
  // preloaded answer, the time the page was: neither is a reading of the server's clock now.
  if (!flight.preloaded && !res.headers.get(OFFLINE_COPY_HEADER))
    noteServerTime(res.headers.get(SERVER_TIME_HEADER), flight.sentAt, Date.now())
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
