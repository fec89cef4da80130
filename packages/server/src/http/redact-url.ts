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
 * Path segments that are credentials: a private league's join code opens the league to whoever
 * holds it. It travels in the join call (`/api/{sport}/league/{code}/join`) and in the invite
 * link's page (`/{sport}/leagues/join/{code}`, `/leagues/join/{code}`). Matched on the decoded
 * path without regard to case, as the router and the web app match it.
 */
const SECRET_SEGMENTS = [/(\/league\/)[^/]+(?=\/join(?:\/|$))/i, /(\/leagues\/join\/)[^/]+/i]

function redactPath(path: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    decoded = path
  }
  if (!SECRET_SEGMENTS.some((re) => re.test(decoded))) return path
  return SECRET_SEGMENTS.reduce((p, re) => p.replace(re, '$1[redacted]'), decoded)
}

/**
 * The URL with those parameters' values and path segments replaced: the sign-in callback
 * (`/login/callback?code=`) and an invite link are page loads like any other and are logged like
 * one, but a code never reaches the log.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return redactPath(url)
  return `${redactPath(url.slice(0, q))}${redactQuery(url.slice(q))}`
}

/** `?a=1&code=...` with the secret parameters' values replaced; unchanged when there are none. */
function redactQuery(query: string): string {
  const params = new URLSearchParams(query.slice(1))
  if (![...params.keys()].some((key) => SECRET_PARAMS.has(key.toLowerCase()))) return query
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) params.set(key, '[redacted]')
  }
  return `?${params.toString()}`
}

/** Fastify's own request serializer, with the URL redacted. */
export const redactedRequest = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
})
