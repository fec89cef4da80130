import type { FastifyInstance } from 'fastify'
import { AppError } from '../errors.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * ARCHITECTURE.md: state-changing requests must come from the app's own origin. Browsers send
 * Sec-Fetch-Site and Origin; non-browser clients (tests, curl) send neither and carry no cookie
 * a third-party page could have planted. The allowed origins are configured (allowedOriginsOf),
 * never taken from the Host header: a caller who writes Host to match its Origin proves nothing.
 */
export function registerOriginCheck(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins)
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return
    const site = request.headers['sec-fetch-site']
    if (site === 'cross-site') {
      throw new AppError('CROSS_ORIGIN', 'Cross-site requests are not allowed')
    }
    const origin = request.headers.origin
    if (!origin) return
    if (!allowed.has(origin)) {
      throw new AppError('CROSS_ORIGIN', 'Requests must come from the app itself')
    }
  })
}
