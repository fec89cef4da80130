import type { ApiError } from '@tipping/contract/errors'
import { OFFLINE_COPY_HEADER } from './offline-caches.ts'
import { reportConnection } from './offline-status.ts'

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

/** Calls the API with credentials and unwraps `{success}`; throws ApiCallError otherwise. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  let res: Response
  try {
    res = await fetch(`/api/${path.replace(/^\//, '')}`, {
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
