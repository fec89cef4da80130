import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react'
import { api as callApi, ApiCallError, type RequestOptions } from './api-client.ts'
import { staticJson } from './static-data.ts'

// The browser's one data layer (docs/decisions/014-rtk-query-data-layer.md): every call to the API
// and every static JSON file goes through this createApi. Features add their endpoints with
// `injectEndpoints` in their own `*-api.ts` (a feature never imports another feature, so it never
// imports another feature's endpoints either; what two features share lives in lib/).

/** A failed call as the cache keeps it: serialisable, the envelope's first error. */
export interface ApiFailure {
  /** The HTTP status; 0 for a network failure or a timeout. */
  status: number
  code: string | number
  message: string
  param: string | null
}

/** One API call: the path under /api, and the client's options. */
export interface ApiRequest extends RequestOptions {
  path: string
}

/** A static file under /static, read through checksums.json (fetched only when it changed). */
export interface StaticRequest {
  static: string
}

export const toFailure = (err: unknown): ApiFailure =>
  err instanceof ApiCallError
    ? { status: err.status, code: err.code, message: err.message, param: err.param }
    : { status: 0, code: 0, message: err instanceof Error ? err.message : String(err), param: null }

/** Whether a thrown value is a failed call (what a mutation's `unwrap()` throws). */
export const isApiFailure = (err: unknown): err is ApiFailure =>
  typeof err === 'object' && err !== null && 'status' in err && 'code' in err && 'param' in err

/** A failure's text for the page, whatever shape RTK Query hands back. */
export const failureMessage = (error: unknown, fallback: string): string =>
  error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
    ? error.message
    : fallback

/**
 * The transport: `api()` (the envelope, the 401 listener, the timeout) for API paths, `staticJson`
 * (the checksums protocol) for static files. Errors come back as data so RTK Query can keep them.
 */
const baseQuery: BaseQueryFn<ApiRequest | StaticRequest, unknown, ApiFailure> = async (args) => {
  try {
    if ('static' in args) return { data: await staticJson<unknown>(args.static) }
    const { path, ...options } = args
    return { data: await callApi<unknown>(path, options) }
  } catch (err) {
    return { error: toFailure(err) }
  }
}

/** What a save, join or result changes, so each read that shows it is fetched again. */
export const TAG_TYPES = [
  'Session',
  'Round',
  'Snapshot',
  'MateTips',
  'Leagues',
  'League',
  'Ladder',
  'Rankings',
  'Static',
  'Admin',
  'Live',
] as const

/**
 * What depends on who is signed in: everything but the public static files. Signing in (or
 * joining a game) invalidates these, so what a visitor had cached is read again as the user.
 */
export const USER_TAGS = TAG_TYPES.filter((t) => t !== 'Static')

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  // The contract's schemas check every answer in development and tests; production trusts the
  // server (which checks its own answers against the same schemas when SERIALIZER_VERIFY is on)
  // and does not pay for parsing on a phone.
  skipSchemaValidation: import.meta.env.PROD,
  endpoints: () => ({}),
})
