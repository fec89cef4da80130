import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { newHistogram, parseSseBlock, record, sourceAddress, sparse } from './pages-lib.ts'

// One client process of the live-pages scenario (run.ts starts several, so the client is not
// what limits the measure on two cores): it holds its share of the open pages of the push
// channel, GET /api/{sport}/events, on raw sockets with a minimal parser (an EventSource object
// per page would cost the client more than the server spends on it). Each page records the lag
// of every live event (from the live score's updatedAt, the server's clock on this machine), and
// on a result event whose scoresVersion is newer than its own refetches its scores after a random
// wait of up to spreadMs, as a tipping page would (decision 015, point 6). Driven by run.ts over
// IPC: open, phase, finish.

export interface PagesSpec {
  port: number
  path: string
  /** This process's pages, and the global index of its first (for the source addresses). */
  pages: number
  firstIndex: number
  /** Pages per source address (pages-lib.ts sourceAddress). */
  perAddress: number
  /** Handshakes in flight at once while opening. */
  openConcurrency: number
  /** The competition's scores version the pages start from. */
  scoresVersion: number
  spreadMs: number
  /** Refetches, page i taking entry (firstIndex + i) % length: a signed-in tipper's read. */
  refetch: { path: string; cookie: string }[]
  /** Connections the refetches share (keep-alive), like a load generator's. */
  refetchSockets: number
}

export type ToPages = { type: 'open' } | { type: 'phase'; phase: string } | { type: 'finish' }

export interface PagesStats {
  held: number
  /** Refused with 503 while opening and retried after Retry-After, as EventSource would. */
  refusedRetried: number
  errors: { connect: number; status: number; closed: number; refetch: number }
  statusCodes: Record<string, number>
  /** Live-event lag per phase, as sparse [ms, count] histograms. */
  lag: Record<string, [number, number][]>
  /** Events each held page received, lowest and highest. */
  eventsPerPage: { min: number; max: number }
  /** When each page got the result event (ms since the epoch). */
  resultAt: number[]
  /** When each refetch was sent and how long it took. */
  refetchSentAt: number[]
  refetchMs: [number, number][]
  refetchStatus: Record<string, number>
}

export type FromPages =
  | { type: 'progress'; held: number; failed: number }
  | { type: 'opened'; held: number; failed: number }
  | { type: 'stats'; stats: PagesStats }

interface Page {
  sock: net.Socket
  rest: string
  head: boolean
  events: number
  version: number
  refetch: { path: string; cookie: string }
}

interface Parsed {
  type: string
  updatedAtMs: number
  scoresVersion: number
}

const spec = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as PagesSpec
const send = (m: FromPages) => process.send!(m)

const pages = new Set<Page>()
let phase = 'open'
const lag = new Map<string, Uint32Array>()
const lagOf = (p: string) => {
  let h = lag.get(p)
  if (!h) lag.set(p, (h = newHistogram()))
  return h
}
// Every page gets the same bytes of an event: it is parsed once per process.
const parsed = new Map<number, Parsed>()
const stats: PagesStats = {
  held: 0,
  refusedRetried: 0,
  errors: { connect: 0, status: 0, closed: 0, refetch: 0 },
  statusCodes: {},
  lag: {},
  eventsPerPage: { min: 0, max: 0 },
  resultAt: [],
  refetchSentAt: [],
  refetchMs: [],
  refetchStatus: {},
}
const refetchHist = newHistogram()
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.refetchSockets })
let finishing = false
/** Refetches sent and not yet answered (or failed). */
let refetching = 0
/** How long finish waits for the last refetches' answers; those still out then are errors. */
const REFETCH_WAIT_MS = 60_000

function parse(id: number, event: string, data: string): Parsed {
  let p = parsed.get(id)
  if (p) return p
  const body = JSON.parse(data) as { updatedAt?: string; scoresVersion?: number }
  p = {
    type: event,
    updatedAtMs: body.updatedAt ? Date.parse(body.updatedAt) : NaN,
    scoresVersion: body.scoresVersion ?? -1,
  }
  parsed.set(id, p)
  return p
}

function onBlock(page: Page, block: string, now: number): void {
  const e = parseSseBlock(block)
  if (e.id === null || e.event === null || e.data === null) return
  const p = parse(e.id, e.event, e.data)
  page.events++
  if (p.type === 'live') record(lagOf(phase), now - p.updatedAtMs)
  else if (p.type === 'result') {
    stats.resultAt.push(now)
    if (p.scoresVersion > page.version) {
      page.version = p.scoresVersion
      setTimeout(() => refetch(page), Math.random() * spec.spreadMs)
    }
  }
}

function refetch(page: Page): void {
  const t0 = Date.now()
  stats.refetchSentAt.push(t0)
  refetching++
  const req = http.get(
    {
      host: '127.0.0.1',
      port: spec.port,
      path: page.refetch.path,
      agent,
      headers: { cookie: page.refetch.cookie, accept: 'application/json' },
    },
    (res) => {
      res.resume()
      res.on('end', () => {
        refetching--
        record(refetchHist, Date.now() - t0)
        const code = String(res.statusCode)
        stats.refetchStatus[code] = (stats.refetchStatus[code] ?? 0) + 1
        if (res.statusCode !== 200) stats.errors.refetch++
      })
    },
  )
  req.on('error', () => {
    refetching--
    stats.errors.refetch++
  })
}

/** Opens page `i`; resolves when its head is in (true) or it failed for good (false). */
function openPage(i: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({
      host: '127.0.0.1',
      port: spec.port,
      localAddress: sourceAddress(spec.firstIndex + i, spec.perAddress),
    })
    sock.setNoDelay(true)
    const page: Page = {
      sock,
      rest: '',
      head: false,
      events: 0,
      version: spec.scoresVersion,
      refetch: spec.refetch[(spec.firstIndex + i) % spec.refetch.length]!,
    }
    let settled = false
    const settle = (ok: boolean) => {
      if (settled) return
      settled = true
      resolve(ok)
    }
    sock.on('connect', () => {
      sock.write(
        `GET ${spec.path} HTTP/1.1\r\nHost: 127.0.0.1:${spec.port}\r\nAccept: text/event-stream\r\n\r\n`,
      )
    })
    sock.on('data', (buf: Buffer) => {
      const now = Date.now()
      page.rest += buf.toString('latin1')
      if (!page.head) {
        const end = page.rest.indexOf('\r\n\r\n')
        if (end === -1) return
        const status = page.rest.slice(9, 12)
        stats.statusCodes[status] = (stats.statusCodes[status] ?? 0) + 1
        if (status === '503') {
          // Past SSE_MAX_CONNECTIONS or shed under load: retry as the browser would.
          stats.refusedRetried++
          sock.destroy()
          const wait = Number(/retry-after: (\d+)/i.exec(page.rest)?.[1] ?? 3) * 1000
          // Settled by the retry's own outcome, not by this socket's close.
          settled = true
          setTimeout(() => void openPage(i).then(resolve), wait)
          return
        }
        if (status !== '200') {
          stats.errors.status++
          sock.destroy()
          settle(false)
          return
        }
        page.head = true
        page.rest = page.rest.slice(end + 4)
        pages.add(page)
        settle(true)
      }
      let k: number
      while ((k = page.rest.indexOf('\n\n')) !== -1) {
        onBlock(page, page.rest.slice(0, k), now)
        page.rest = page.rest.slice(k + 2)
      }
    })
    sock.on('error', () => {
      if (!page.head && !settled) stats.errors.connect++
    })
    sock.on('close', () => {
      if (page.head) {
        pages.delete(page)
        if (!finishing) stats.errors.closed++
      }
      settle(false)
    })
  })
}

async function openAll(): Promise<void> {
  let next = 0
  let held = 0
  let failed = 0
  const progress = setInterval(() => send({ type: 'progress', held, failed }), 1000)
  const worker = async () => {
    while (next < spec.pages) {
      const i = next++
      if (await openPage(i)) held++
      else failed++
    }
  }
  await Promise.all(Array.from({ length: spec.openConcurrency }, worker))
  clearInterval(progress)
  send({ type: 'opened', held, failed })
}

async function finish(): Promise<void> {
  finishing = true
  const until = Date.now() + REFETCH_WAIT_MS
  while (refetching > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100))
  stats.errors.refetch += refetching
  let min = Infinity
  let max = 0
  for (const p of pages) {
    min = Math.min(min, p.events)
    max = Math.max(max, p.events)
  }
  stats.held = pages.size
  stats.eventsPerPage = { min: pages.size ? min : 0, max }
  for (const [p, h] of lag) stats.lag[p] = sparse(h)
  stats.refetchMs = sparse(refetchHist)
  for (const p of pages) p.sock.destroy()
  agent.destroy()
  // Exits once the figures are handed over (a large message takes more than one write).
  process.send!({ type: 'stats', stats } satisfies FromPages, undefined, {}, () => {
    process.disconnect()
    process.exit(0)
  })
}

process.on('message', (m: ToPages) => {
  if (m.type === 'open') void openAll()
  else if (m.type === 'phase') phase = m.phase
  else void finish()
})
process.on('disconnect', () => process.exit(0))
