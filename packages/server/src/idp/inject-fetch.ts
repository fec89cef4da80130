import type { FastifyInstance } from 'fastify'
import type { CustomFetch } from 'openid-client'

/**
 * A fetch that hands requests for the development provider to this same app in-process
 * (Fastify's inject), so the code exchange needs no listening socket and works under test. The
 * Host and X-Forwarded-Proto headers carry the issuer's origin, from which the provider builds
 * the endpoint URLs in its metadata.
 */
export function injectFetch(app: FastifyInstance): CustomFetch {
  return async (url, options) => {
    const target = new URL(url)
    const body = options.body
    const res = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        ...options.headers,
        host: target.host,
        'x-forwarded-proto': target.protocol.replace(':', ''),
      },
      ...(body === undefined || body === null ? {} : { payload: payloadOf(body) }),
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v))
    }
    const empty = res.statusCode === 204 || res.statusCode === 304
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers })
  }
}

function payloadOf(body: NonNullable<Parameters<CustomFetch>[1]['body']>): string | Buffer {
  if (typeof body === 'string') return body
  if (body instanceof URLSearchParams) return body.toString()
  if (body instanceof ArrayBuffer) return Buffer.from(body)
  if (body instanceof Uint8Array) return Buffer.from(body)
  throw new TypeError('streamed request bodies are not used with the development provider')
}
