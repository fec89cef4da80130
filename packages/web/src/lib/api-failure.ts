import { failureMessage, type ApiFailure } from './api.ts'

/**
 * A rejected call (what `unwrap()` throws) as the API's failure: the base query's own, with its
 * status and the parameter it is about, or a thrown error's message with status 0.
 */
export const asFailure = (err: unknown, fallback = 'That did not work'): ApiFailure => {
  const known = err !== null && typeof err === 'object' ? (err as Partial<ApiFailure>) : {}
  return {
    status: typeof known.status === 'number' ? known.status : 0,
    code: typeof known.code === 'string' || typeof known.code === 'number' ? known.code : 0,
    message: failureMessage(err, fallback),
    param: typeof known.param === 'string' ? known.param : null,
  }
}
