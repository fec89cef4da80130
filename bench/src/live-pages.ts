import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { asSquadId, type SquadId } from '@tipping/contract/ids'
import { cricsheetMatchSchema } from '@tipping/contract/cricsheet'
import type { LiveScoreBody } from '@tipping/contract/live'
import {
  cricsheetLiveScores,
  cricsheetResult,
} from '../../packages/server/src/modules/live/feed.ts'
import {
  addSparse,
  histogramOf,
  newHistogram,
  perSecond,
  record,
  sourceAddress,
  summarise,
  type LagSummary,
} from './pages-lib.ts'
import type { FromPages, PagesSpec, PagesStats, ToPages } from './sse-pages.ts'

// The live-pages scenario (issue 30): N open pages of the push channel on the one API process,
// held by a few client processes (sse-pages.ts), a live match driven ball by ball through the
// admin live route, then its result through the admin result route; what it costs the server
// (RSS), how late each event reaches the pages, and the requests the result brings back.

/** Descriptors a process needs beyond its sockets (modules, pipes, the database's pool). */
const FD_SPARE = 4096

/** Whether this machine lets a process raise its descriptor limit to `n` (the hard limit). */
export function canRaiseFdLimit(n: number): boolean {
  return spawnSync('/bin/sh', ['-c', `ulimit -n ${n}`]).status === 0
}

/** The descriptors a process holding `sockets` connections is given. */
export const fdLimitFor = (sockets: number): number => sockets + FD_SPARE

/**
 * Node started through a shell that first raises the descriptor limit (soft and hard): `exec`
 * keeps the pid, so /proc sampling and signals reach Node itself.
 */
export function spawnNodeWithFdLimit(
  fdLimit: number,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; ipc?: boolean },
): ChildProcess {
  return spawn(
    '/bin/sh',
    ['-c', `ulimit -n ${fdLimit} && exec "$0" "$@"`, process.execPath, ...args],
    {
      cwd: opts.cwd,
      env: opts.env,
      stdio: opts.ipc ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    },
  )
}

export interface LivePagesOptions {
  repoRoot: string
  work: string
  log: (line: string) => void
  base: string
  port: number
  /** The server's private metrics listener: its request counter is the result's request rate. */
  metricsPort: number
  serverPid: number
  sport: string
  matchId: number
  home: number
  away: number
  /** A Cricsheet match file: its deliveries are the live scores, its result the result. */
  cricsheetFile: string
  adminCookie: string
  pages: number
  clients: number
  perAddress: number
  openConcurrency: number
  scoresVersion: number
  spreadMs: number
  refetch: { path: string; cookie: string }[]
  ballMs: number
  quietBalls: number
}

export interface LivePagesReport {
  requested: number
  held: number
  clients: number
  perAddress: number
  sourceAddresses: string
  openSeconds: number
  refusedRetried: number
  rssBeforeMb: number
  rssAfterOpenMb: number
  rssPerPageKb: number
  rssPeakMb: number
  heapBeforeMb: number
  heapAfterOpenMb: number
  /** With the pages still open, after the balls (collections since: less garbage in it). */
  heapBeforeResultMb: number
  /** Sent, applied (200), shed with a 503 and sent again, failed. */
  balls: {
    sent: number
    applied: number
    shed: number
    errors: number
    put: LagSummary
    ballMs: number
  }
  /** Delivery lag of live events to pages, by phase (quiet: balls only; load: beside the scenarios). */
  lag: Record<string, LagSummary>
  eventsPerPage: { min: number; max: number; expected: number }
  result: {
    status: number
    postSeconds: number
    deliveredTo: number
    lagFromSent: LagSummary
    lagFromAnswered: LagSummary
    /**
     * From the first page to have it: the fan-out's own lag. The event carries no time of its
     * commit, and the POST is answered after the static files are republished, later still.
     */
    lagFromFirst: LagSummary
  }
  refetch: {
    spreadMs: number
    sent: number
    clientPerSecond: number[]
    latency: LagSummary
    status: Record<string, number>
    /** The server's own count of HTTP requests, per second from the result's POST. */
    serverPerSecond: number[]
    serverTotal: number
    serverPeakPerSecond: number
  }
  errors: {
    connect: number
    status: number
    closed: number
    refetch: number
    balls: number
    result: number
    total: number
  }
  statusCodes: Record<string, number>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
  } catch {
    return NaN
  }
}

const scrape = async (metricsPort: number) =>
  (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()

/** The server's count of HTTP requests served so far (every route, every status). */
async function serverRequests(metricsPort: number): Promise<number> {
  let total = 0
  for (const m of (await scrape(metricsPort)).matchAll(
    /^http_request_duration_seconds_count\{[^}]*\} (\d+)/gm,
  ))
    total += Number(m[1])
  return total
}

/** The server's V8 heap in use (MB), which the old-space ceiling bounds, unlike the RSS. */
async function serverHeapMb(metricsPort: number): Promise<number> {
  const m = /^nodejs_heap_size_used_bytes (\d+)/m.exec(await scrape(metricsPort))
  return m ? Math.round(Number(m[1]) / 2 ** 20) : NaN
}

interface Client {
  proc: ChildProcess
  opened: Promise<{ held: number; failed: number }>
  stats: Promise<PagesStats>
  held: number
  send(m: ToPages): void
}

function startClient(o: LivePagesOptions, index: number, first: number, count: number): Client {
  const spec: PagesSpec = {
    port: o.port,
    path: `/api/${o.sport}/events`,
    pages: count,
    firstIndex: first,
    perAddress: o.perAddress,
    openConcurrency: o.openConcurrency,
    scoresVersion: o.scoresVersion,
    spreadMs: o.spreadMs,
    refetch: o.refetch,
    refetchSockets: Math.max(1, Math.round(100 / o.clients)),
  }
  const specFile = path.join(o.work, `pages-${index}.json`)
  fs.writeFileSync(specFile, JSON.stringify(spec))
  const proc = spawnNodeWithFdLimit(
    fdLimitFor(count),
    ['--import', 'tsx', path.join(o.repoRoot, 'bench/src/sse-pages.ts'), specFile],
    { cwd: o.repoRoot, env: process.env, ipc: true },
  )
  const client: Client = {
    proc,
    held: 0,
    opened: null!,
    stats: null!,
    send: (m) => proc.send(m),
  }
  const exited = new Promise<never>((_, reject) =>
    // 'close', not 'exit': the messages still in the channel are delivered first.
    proc.once('close', (code) => reject(new Error(`page client ${index} exited (${code})`))),
  )
  exited.catch(() => {})
  client.opened = Promise.race([
    new Promise<{ held: number; failed: number }>((resolve) => {
      proc.on('message', (m: FromPages) => {
        if (m.type === 'progress') client.held = m.held
        if (m.type === 'opened') {
          client.held = m.held
          resolve(m)
        }
      })
    }),
    exited,
  ])
  client.stats = Promise.race([
    new Promise<PagesStats>((resolve) =>
      proc.on('message', (m: FromPages) => {
        if (m.type === 'stats') resolve(m.stats)
      }),
    ),
    exited,
  ])
  return client
}

/**
 * Opens the pages and starts the ball feed; `quiet()` waits out the balls with nothing else
 * running, `underLoad()` marks what follows (the other scenarios) as a phase of its own, and
 * `finish()` sets the result and collects everything.
 */
export async function startLivePages(o: LivePagesOptions) {
  const raw: unknown = JSON.parse(fs.readFileSync(o.cricsheetFile, 'utf8'))
  const teams = cricsheetMatchSchema.parse(raw).info.teams
  // The file's first side plays as the fixture's home squad, its second as the away squad.
  const squadOf = (team: string): SquadId => asSquadId(team === teams[0] ? o.home : o.away)
  const scores = [...cricsheetLiveScores(raw, squadOf)]
  const result = cricsheetResult(raw, squadOf, asSquadId(o.home))

  const rssBeforeMb = rssMb(o.serverPid)
  const heapBeforeMb = await serverHeapMb(o.metricsPort)
  o.log(
    `live-pages: opening ${o.pages.toLocaleString('en')} pages from ${o.clients} client processes ` +
      `(${sourceAddress(0, o.perAddress)}-${sourceAddress(o.pages - 1, o.perAddress)}, ${o.perAddress} per address); API RSS ${rssBeforeMb} MB`,
  )
  const clients: Client[] = []
  const share = Math.ceil(o.pages / o.clients)
  for (let c = 0, first = 0; first < o.pages; c++, first += share)
    clients.push(startClient(o, c, first, Math.min(share, o.pages - first)))
  const t0 = performance.now()
  for (const c of clients) c.send({ type: 'open' })
  const progress = setInterval(() => {
    const held = clients.reduce((s, c) => s + c.held, 0)
    o.log(`  ${held.toLocaleString('en')} pages held, API RSS ${rssMb(o.serverPid)} MB`)
  }, 5000)
  const opened = await Promise.all(clients.map((c) => c.opened)).finally(() =>
    clearInterval(progress),
  )
  const openSeconds = Math.round((performance.now() - t0) / 100) / 10
  const heldAtOpen = opened.reduce((s, x) => s + x.held, 0)
  // The sockets' first buffers and the hub's maps settle before memory is read.
  await sleep(2000)
  const rssAfterOpenMb = rssMb(o.serverPid)
  const heapAfterOpenMb = await serverHeapMb(o.metricsPort)
  o.log(
    `live-pages: ${heldAtOpen.toLocaleString('en')} held in ${openSeconds} s; API RSS ${rssAfterOpenMb} MB, heap ${heapAfterOpenMb} MB`,
  )
  let rssPeakMb = rssAfterOpenMb
  const rssTimer = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb(o.serverPid) || 0)
  }, 200)

  // The ball feed: one live score every ballMs through the admin route, the file's deliveries in
  // order (from the start again if the feed outlasts them).
  const put = newHistogram()
  let sent = 0
  let applied = 0
  let shed = 0
  let ballErrors = 0
  let feeding = true
  let quietDone: () => void = () => {}
  const quiet = new Promise<void>((r) => (quietDone = r))
  const feed = (async () => {
    const start = performance.now()
    while (feeding) {
      const body: LiveScoreBody = scores[sent % scores.length]!
      const t = performance.now()
      try {
        const send = () =>
          fetch(`${o.base}/api/admin/${o.sport}/matches/${o.matchId}/live`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', cookie: o.adminCookie },
            body: JSON.stringify(body),
          })
        let res = await send()
        // Shed by the overload guard: a feed sends the ball again after Retry-After.
        for (let tries = 0; res.status === 503 && tries < 5; tries++) {
          shed++
          await res.arrayBuffer()
          await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000)
          res = await send()
        }
        await res.arrayBuffer()
        if (res.status === 200) applied++
        else {
          ballErrors++
          if (ballErrors <= 3) o.log(`  live PUT ${res.status}`)
        }
      } catch {
        ballErrors++
      }
      record(put, performance.now() - t)
      sent++
      if (sent === o.quietBalls) quietDone()
      const wait = start + sent * o.ballMs - performance.now()
      if (wait > 0) await sleep(wait)
    }
  })()
  const setPhase = (phase: string) => {
    for (const c of clients) c.send({ type: 'phase', phase })
  }
  setPhase('quiet')

  return {
    /** Resolves when the quiet phase's balls have been sent. */
    quiet: async () => {
      await quiet
      // The last ball's delivery, before the phase changes.
      await sleep(Math.min(o.ballMs, 2000))
    },
    underLoad: () => setPhase('load'),
    finish: async (): Promise<LivePagesReport> => {
      feeding = false
      await feed
      await sleep(1000)
      const heapBeforeResultMb = await serverHeapMb(o.metricsPort)
      setPhase('result')
      const before = await serverRequests(o.metricsPort)
      const counts: { at: number; n: number }[] = []
      const sample = setInterval(() => {
        serverRequests(o.metricsPort)
          .then((n) => counts.push({ at: Date.now(), n }))
          .catch(() => {})
      }, 1000)
      const sentAt = Date.now()
      let status = 0
      let answeredAt = sentAt
      try {
        const send = () =>
          fetch(`${o.base}/api/admin/${o.sport}/matches/${o.matchId}/result`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: o.adminCookie },
            body: JSON.stringify(result),
          })
        let res = await send()
        for (let tries = 0; res.status === 503 && tries < 10; tries++) {
          await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000)
          res = await send()
        }
        status = res.status
        const text = await res.text()
        if (status !== 200) o.log(`  result POST ${status}: ${text.slice(0, 300)}`)
      } catch (err) {
        o.log(`  result POST failed: ${String(err)}`)
      }
      answeredAt = Date.now()
      // Every page's refetch is due within spreadMs of the event; then a few seconds' margin,
      // and the clients wait for the answers still out (the count goes on meanwhile).
      await sleep(o.spreadMs + 5000)
      for (const c of clients) c.send({ type: 'finish' })
      const all = await Promise.all(clients.map((c) => c.stats))
      clearInterval(sample)
      clearInterval(rssTimer)
      const serverPerSecond: number[] = []
      let last = before
      for (const c of counts) {
        serverPerSecond.push(c.n - last)
        last = c.n
      }

      const lagByPhase = new Map<string, Uint32Array>()
      const refetchMs = newHistogram()
      const resultAt: number[] = []
      const refetchSentAt: number[] = []
      const statusCodes: Record<string, number> = {}
      const refetchStatus: Record<string, number> = {}
      const errors = { connect: 0, status: 0, closed: 0, refetch: 0 }
      let held = 0
      let refused = 0
      let minEvents = Infinity
      let maxEvents = 0
      for (const s of all) {
        held += s.held
        refused += s.refusedRetried
        for (const k of Object.keys(errors) as (keyof typeof errors)[]) errors[k] += s.errors[k]
        for (const [p, pairs] of Object.entries(s.lag)) {
          let h = lagByPhase.get(p)
          if (!h) lagByPhase.set(p, (h = newHistogram()))
          addSparse(h, pairs)
        }
        addSparse(refetchMs, s.refetchMs)
        for (const t of s.resultAt) resultAt.push(t)
        for (const t of s.refetchSentAt) refetchSentAt.push(t)
        for (const [k, v] of Object.entries(s.statusCodes))
          statusCodes[k] = (statusCodes[k] ?? 0) + v
        for (const [k, v] of Object.entries(s.refetchStatus))
          refetchStatus[k] = (refetchStatus[k] ?? 0) + v
        if (s.held > 0) {
          minEvents = Math.min(minEvents, s.eventsPerPage.min)
          maxEvents = Math.max(maxEvents, s.eventsPerPage.max)
        }
      }
      const lag: Record<string, LagSummary> = {}
      for (const [p, h] of lagByPhase) lag[p] = summarise(h)
      const resultErrors = status === 200 ? 0 : 1
      // A page opened before the first ball gets every live event and the result.
      const expected = applied + (status === 200 ? 1 : 0)
      const report: LivePagesReport = {
        requested: o.pages,
        held,
        clients: clients.length,
        perAddress: o.perAddress,
        sourceAddresses: `${sourceAddress(0, o.perAddress)}-${sourceAddress(o.pages - 1, o.perAddress)}`,
        openSeconds,
        refusedRetried: refused,
        rssBeforeMb,
        rssAfterOpenMb,
        rssPerPageKb: heldAtOpen
          ? Math.round(((rssAfterOpenMb - rssBeforeMb) * 1024 * 10) / heldAtOpen) / 10
          : NaN,
        rssPeakMb,
        heapBeforeMb,
        heapAfterOpenMb,
        heapBeforeResultMb,
        balls: {
          sent,
          applied,
          shed,
          errors: ballErrors,
          put: summarise(put),
          ballMs: o.ballMs,
        },
        lag,
        eventsPerPage: { min: held ? minEvents : 0, max: maxEvents, expected },
        result: {
          status,
          postSeconds: Math.round((answeredAt - sentAt) / 10) / 100,
          deliveredTo: resultAt.length,
          lagFromSent: summarise(histogramOf(resultAt.map((t) => t - sentAt))),
          lagFromAnswered: summarise(histogramOf(resultAt.map((t) => t - answeredAt))),
          lagFromFirst: summarise(
            histogramOf(resultAt.map((t) => t - resultAt.reduce((a, b) => Math.min(a, b), t))),
          ),
        },
        refetch: {
          spreadMs: o.spreadMs,
          sent: refetchSentAt.length,
          clientPerSecond: perSecond(refetchSentAt, sentAt),
          latency: summarise(refetchMs),
          status: refetchStatus,
          serverPerSecond,
          serverTotal: serverPerSecond.reduce((s, n) => s + n, 0),
          serverPeakPerSecond: Math.max(0, ...serverPerSecond),
        },
        errors: {
          ...errors,
          balls: ballErrors,
          result: resultErrors,
          total:
            errors.connect +
            errors.status +
            errors.closed +
            errors.refetch +
            ballErrors +
            resultErrors,
        },
        statusCodes,
      }
      await Promise.all(
        clients.map((c) =>
          c.proc.exitCode !== null
            ? Promise.resolve()
            : new Promise<void>((r) => {
                c.proc.once('exit', () => r())
                setTimeout(() => c.proc.kill('SIGKILL'), 10_000).unref()
              }),
        ),
      )
      return report
    },
    /** Ends the clients at once (the bench is failing). */
    kill: () => {
      feeding = false
      clearInterval(rssTimer)
      for (const c of clients) c.proc.kill('SIGKILL')
    },
  }
}

export type LivePages = Awaited<ReturnType<typeof startLivePages>>
