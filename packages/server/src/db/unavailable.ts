/** Network-level failures of the connection to PostgreSQL (refused, reset, timed out). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * True when an error means "the database cannot be reached right now" rather than "this query is
 * wrong": the server is down, shutting down or starting up (SQLSTATE 57P01-57P03), a connection
 * failure (class 08), or the pool could not get a connection in time. Such a request is answered
 * 503 SERVICE_UNAVAILABLE; the pool reconnects by itself once the database is back.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code)) return true
      if (code === '57P01' || code === '57P02' || code === '57P03') return true
      if (code.length === 5 && code.startsWith('08')) return true
    }
    const message = (e as { message?: unknown }).message
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i.test(
        message,
      )
    ) {
      return true
    }
    // AggregateError (several addresses refused) and wrapped causes.
    const inner = (e as { errors?: unknown[] }).errors?.[0] ?? (e as { cause?: unknown }).cause
    e = inner
  }
  return false
}
