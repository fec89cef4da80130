import type { FastifyInstance } from 'fastify'
import { AppError } from '../errors.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * ARCHITECTURE.md: state-changing requests must come from the app's own origin. Browsers send
 * Sec-Fetch-Site and Origin; non-browser clients (tests, curl) send neither and carry no cookie
 * a third-party page could have planted.
 */
export function registerOriginCheck(app: FastifyInstance, appOrigin: string | undefined): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return
    const site = request.headers['sec-fetch-site']
    if (site === 'cross-site') {
      throw new AppError('CROSS_ORIGIN', 'Cross-site requests are not allowed')
    }
    const origin = request.headers.origin
    if (!origin) return
    const allowed = appOrigin ?? `${request.protocol}://${request.headers.host ?? ''}`
    if (origin !== allowed) {
      throw new AppError('CROSS_ORIGIN', 'Requests must come from the app itself')
    }
  })
}
