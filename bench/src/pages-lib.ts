// Pure helpers of the live-pages scenario (run.ts drives it, sse-pages.ts is the page client):
// where each page connects from, the delivery-lag histogram, and the few lines of an SSE event
// the client reads. Kept apart so they are tested without a server (pages-lib.test.ts).

/**
 * Pages one source address carries. Each (source address, source port) pair is one connection to
 * the server's one port, and Linux has about 28,000 ephemeral ports (32768-60999): spreading the
 * pages over 127.0.0.0/8 keeps every address far below that.
 */
export const PAGES_PER_ADDRESS = 1000

/**
 * The loopback source address of page `index` (0-based): `perAddress` pages per address, from
 * 127.0.1.1 on, last octet 1-254. 127.0.0.x is left to everything else (the refetches, the
 * server's own listener, autocannon).
 */
export function sourceAddress(index: number, perAddress = PAGES_PER_ADDRESS): string {
  if (!Number.isInteger(index) || index < 0) throw new Error(`page index ${index}`)
  if (!Number.isInteger(perAddress) || perAddress < 1) throw new Error(`perAddress ${perAddress}`)
  const n = Math.floor(index / perAddress) + 254 // 254 = the whole of 127.0.0.x skipped
  const d = 1 + (n % 254)
  const c = Math.floor(n / 254) % 256
  const b = Math.floor(n / (254 * 256))
  if (b > 255) throw new Error(`page ${index}: 127.0.0.0/8 has no address left`)
  return `127.${b}.${c}.${d}`
}

/** Lags are counted per whole millisecond up to this; anything later lands in the last bucket. */
export const LAG_MAX_MS = 120_000

export const newHistogram = (): Uint32Array => new Uint32Array(LAG_MAX_MS + 1)

export function record(h: Uint32Array, ms: number): void {
  h[Math.min(LAG_MAX_MS, Math.max(0, Math.round(ms)))]!++
}

/** A histogram as [ms, count] pairs of its non-empty buckets: what a client process sends back. */
export function sparse(h: Uint32Array): [number, number][] {
  const out: [number, number][] = []
  for (let i = 0; i < h.length; i++) if (h[i]) out.push([i, h[i]!])
  return out
}

export function addSparse(h: Uint32Array, pairs: [number, number][]): void {
  for (const [ms, n] of pairs) h[Math.min(LAG_MAX_MS, ms)]! += n
}

export interface LagSummary {
  count: number
  p50: number
  p99: number
  max: number
}

/** The smallest lag at or under which a `q` share of the samples lie (nearest rank). */
export function percentile(h: Uint32Array, q: number): number {
  let total = 0
  for (const n of h) total += n
  if (total === 0) return NaN
  const rank = Math.max(1, Math.ceil(q * total))
  let seen = 0
  for (let i = 0; i < h.length; i++) {
    seen += h[i]!
    if (seen >= rank) return i
  }
  return h.length - 1
}

export function summarise(h: Uint32Array): LagSummary {
  let count = 0
  let max = NaN
  for (let i = 0; i < h.length; i++) {
    if (!h[i]) continue
    count += h[i]!
    max = i
  }
  return { count, p50: percentile(h, 0.5), p99: percentile(h, 0.99), max }
}

/** Lags of single receipts (the result event's, one per page) as a histogram. */
export function histogramOf(lagsMs: number[]): Uint32Array {
  const h = newHistogram()
  for (const ms of lagsMs) record(h, ms)
  return h
}

export interface SseEvent {
  id: number | null
  event: string | null
  data: string | null
}

/**
 * One block of the stream (the text between two blank lines), as it comes off the socket of a
 * chunked response: the chunk-size lines ("1a3\r") and the CRLFs around them are not SSE fields
 * and are skipped, as are comments (":" heartbeats) and `retry:`. The hub writes each event in
 * one write, so one event never spans two chunks.
 */
export function parseSseBlock(block: string): SseEvent {
  const out: SseEvent = { id: null, event: null, data: null }
  let start = 0
  while (start <= block.length) {
    let end = block.indexOf('\n', start)
    if (end === -1) end = block.length
    const line = block.slice(start, end)
    if (line.startsWith('id: ')) out.id = Number(line.slice(4))
    else if (line.startsWith('event: ')) out.event = line.slice(7)
    else if (line.startsWith('data: ')) out.data = line.slice(6)
    start = end + 1
  }
  return out
}

/** Counts per whole second after `from` (ms timestamps): the rate a burst of requests came at. */
export function perSecond(times: number[], from: number): number[] {
  const out: number[] = []
  for (const t of times) {
    const s = Math.max(0, Math.floor((t - from) / 1000))
    while (out.length <= s) out.push(0)
    out[s]!++
  }
  return out
}
