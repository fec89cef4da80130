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
  for (const e of errorChain(err)) {
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
  }
  return false
}

/**
 * An error and what it wraps, a few levels deep: an AggregateError's first error (several
 * addresses refused) or a wrapped `cause`. Where the driver's SQLSTATE or network code may sit.
 */
export function* errorChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    yield e
    e = (e as { errors?: unknown[] }).errors?.[0] ?? (e as { cause?: unknown }).cause
  }
}
