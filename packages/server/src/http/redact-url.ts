import type { FastifyRequest } from 'fastify'

/** Query parameters that carry credentials in OAuth and OpenID Connect URLs. */
const SECRET_PARAMS = new Set([
  'code',
  'code_verifier',
  'id_token',
  'id_token_hint',
  'access_token',
  'refresh_token',
  'token',
  'client_secret',
])

/**
 * The URL with those parameters' values replaced: the sign-in callback (`/login/callback?code=`)
 * is a page load like any other and is logged like one, but a code never reaches the log.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const params = new URLSearchParams(url.slice(q + 1))
  let changed = false
  for (const key of params.keys()) {
    if (SECRET_PARAMS.has(key.toLowerCase())) changed = true
  }
  if (!changed) return url
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) params.set(key, '[redacted]')
  }
  return `${url.slice(0, q)}?${params.toString()}`
}

/** Fastify's own request serializer, with the URL redacted. */
export const redactedRequest = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
})
