import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import pg from 'pg'
import { sql } from 'kysely'
import { SESSION_COOKIE } from '@tipping/contract/constants'
import { parseCliArgs } from '../../packages/server/src/cli/usage.ts'
import { REPO_ROOT } from '../../packages/server/src/config.ts'
import { openDatabase, type DatabaseHandle } from '../../packages/server/src/db/database.ts'
import { migrateToLatest } from '../../packages/server/src/db/migrate.ts'
import type { MatchRow } from '../../packages/server/src/db/schema.ts'
import { runLockouts } from '../../packages/server/src/modules/lifecycle/service.ts'
import {
  AUTOPILOT_BATCH_SIZE,
  runAutopilot,
} from '../../packages/server/src/modules/autopilot/service.ts'
import { refreshRoundStatuses } from '../../packages/server/src/modules/lifecycle/queries.ts'
import { rescore } from '../../packages/server/src/modules/scoring/service.ts'
import { rebuildSeasonHistories } from '../../packages/server/src/modules/season/service.ts'
import {
  benchSessionId,
  generateDataset,
  leagueMemberIds,
  type DatasetSummary,
  type SportInfo,
} from './dataset.ts'
import { SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs'
import {
  canRaiseFdLimit,
  fdLimitFor,
  spawnNodeWithFdLimit,
  startLivePages,
  type LivePages,
  type LivePagesReport,
} from './live-pages.ts'
import type { LoadResult, LoadSpec, PoolEntry } from './load.ts'
import { createCpuCap, postmasterOf, throttling, type CpuCap } from './cpu-cap.ts'
import { PAGES_PER_ADDRESS } from './pages-lib.ts'

// npm run bench -- [--users N] [--engine pglite|postgres] [--scenarios a,b] [--duration s]
// Generates the dataset, measures a bare Fastify route and the real server under autocannon (run
// from a child process), times the jobs, measures the web app, prints one table and writes JSON.

const BENCH_DIR = path.join(REPO_ROOT, 'bench')
const ALL_SCENARIOS = [
  'predictions',
  'rankings-page',
  'rankings-own',
  'ladder-50',
  'ladder-public',
  'ladder-weeks',
  'head-to-head',
  'my-season',
  'snapshot',
  'register-burst',
  'rush',
  'rush-autopilot',
  'result-in',
  'web',
  'lockout',
  'autopilot',
  'rescore',
  'history',
  'live-pages',
] as const
type Scenario = (typeof ALL_SCENARIOS)[number]
// live-pages holds 100,000 sockets and needs a raised descriptor limit: asked for by name only.
const DEFAULT_SCENARIOS = ALL_SCENARIOS.filter((s) => s !== 'live-pages')

const USAGE = `Usage: npm run bench -- [flags]   (bench/README.md has the whole story)
  --users N                tippers per competition (1000000)
  --engine pglite|postgres the database engine (pglite)
  --pg-url URL             a PostgreSQL server the bench may create databases on
  --scenarios a,b          any of ${ALL_SCENARIOS.join(', ')} (all but live-pages)
  --duration S             seconds of load per scenario (20)
  --connections C          concurrent connections (100)
  --sessions N             signed-in tippers the load picks from (min(users, 20000))
  --port P                 the server's port; hello-world uses P+1 (3550)
  --reuse                  reuse the last dataset of this engine and size
  --cpu-cap F              run the servers and PostgreSQL on F of the machine's CPU (0.67:
                           a box 1.5x slower), in a cgroup v1 CPU group; needs root
  --autopilot-batch N      tippers per autopilot batch transaction (the job's default, ${AUTOPILOT_BATCH_SIZE})
 live-pages (bench/README.md):
  --pages N                open push-channel pages on the one API process (100000)
  --page-clients K         client processes holding them (2)
  --pages-per-address N    pages per loopback source address (${PAGES_PER_ADDRESS})
  --ball-ms MS             one live score every MS (5000)
  --balls N                balls with nothing else running (24)
  --refetch-spread-ms MS   pages refetch scores within MS of the result (10000)
  --pages-under-load       keep the pages open, balls going, through the other scenarios`
const { values: flags } = parseCliArgs(USAGE, {
  options: {
    users: { type: 'string', default: '1000000' },
    engine: { type: 'string', default: 'pglite' },
    scenarios: { type: 'string', default: DEFAULT_SCENARIOS.join(',') },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '100' },
    sessions: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    port: { type: 'string', default: '3550' },
    pages: { type: 'string', default: '100000' },
    'page-clients': { type: 'string', default: '2' },
    'pages-per-address': { type: 'string', default: String(PAGES_PER_ADDRESS) },
    'ball-ms': { type: 'string', default: '5000' },
    balls: { type: 'string', default: '24' },
    'refetch-spread-ms': { type: 'string', default: '10000' },
    'pages-under-load': { type: 'boolean', default: false },
    'cpu-cap': { type: 'string' },
    'autopilot-batch': { type: 'string', default: String(AUTOPILOT_BATCH_SIZE) },
    'pg-url': {
      type: 'string',
      default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:55445',
    },
  },
})

const users = Number(flags.users)
// Made now, so a machine without the controller says so before minutes of dataset; it holds no
// process until the measurements start (the dataset is generated uncapped).
const cpuCap: CpuCap | null =
  flags['cpu-cap'] === undefined ? null : createCpuCap(Number(flags['cpu-cap']))
const engine = flags.engine as 'pglite' | 'postgres'
// The job's batch size is a trade (decision 026): fewer, longer transactions against the savers'
// waits on the registrations a batch holds; the flag lets a run weigh both on one dataset.
const autopilotBatch = Number(flags['autopilot-batch'])
if (!Number.isInteger(autopilotBatch) || autopilotBatch < 1)
  throw new Error('--autopilot-batch must be a positive integer')
if (!Number.isInteger(users) || users < 100) throw new Error('--users must be an integer >= 100')
if (engine !== 'pglite' && engine !== 'postgres')
  throw new Error('--engine must be pglite or postgres')
const scenarios = new Set(flags.scenarios.split(',').map((s) => s.trim()) as Scenario[])
for (const s of scenarios) {
  if (!ALL_SCENARIOS.includes(s))
    throw new Error(`Unknown scenario ${s}; one of ${ALL_SCENARIOS.join(', ')}`)
}
const API_PORT = Number(flags.port)
const HELLO_PORT = API_PORT + 1
const METRICS_PORT = API_PORT + 2
const livePagesOn = scenarios.has('live-pages')
const livePageCount = Number(flags.pages)
const pageClients = Number(flags['page-clients'])
for (const [name, v] of [
  ['--pages', livePageCount],
  ['--page-clients', pageClients],
  ['--pages-per-address', Number(flags['pages-per-address'])],
  ['--ball-ms', Number(flags['ball-ms'])],
  ['--balls', Number(flags.balls)],
] as const)
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`)
if (livePagesOn) {
  // Checked before the dataset, not after minutes of generating it.
  const need = [fdLimitFor(livePageCount), fdLimitFor(Math.ceil(livePageCount / pageClients))]
  for (const n of need)
    if (!canRaiseFdLimit(n))
      throw new Error(
        `live-pages needs ${n} file descriptors per process and this shell may not raise its ` +
          `limit that far (ulimit -Hn is lower): raise the hard limit (root, or limits.conf) or ask for fewer --pages`,
      )
  // Where the kernel tracks connections, even loopback ones take an entry each; a full table
  // drops new connections' packets without a word, and the pages would only time out.
  try {
    const max = Number(fs.readFileSync('/proc/sys/net/netfilter/nf_conntrack_max', 'utf8'))
    if (livePageCount + 10_000 > max)
      console.warn(
        `[bench] warning: net.netfilter.nf_conntrack_max is ${max}, too few for ${livePageCount} pages: ` +
          `raise it (sysctl -w net.netfilter.nf_conntrack_max=1048576)`,
      )
  } catch {
    // no connection tracking on this machine
  }
}
const duration = Number(flags.duration)
const connections = Number(flags.connections)
const sessions = Number(flags.sessions ?? Math.min(users, 20_000))

const work = path.join(os.tmpdir(), `tipping-bench-${engine}-${users}`)
const pgliteDir = path.join(work, 'pglite')
const staticDir = path.join(work, 'static')
const summaryFile = path.join(work, 'dataset.json')
const dbName = `tipping_bench_${users}`
const databaseUrl = engine === 'postgres' ? `${flags['pg-url']}/${dbName}` : undefined

const log = (line: string) => console.log(`[bench] ${line}`)
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!
}
const round2 = (x: number) => Math.round(x * 100) / 100
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const open = (): Promise<DatabaseHandle> =>
  openDatabase({ databaseUrl, pgliteDir: databaseUrl ? undefined : pgliteDir, poolSize: 4 })

// ---------------------------------------------------------------------------------------------
// Dataset

async function prepareDataset(): Promise<DatasetSummary> {
  if (flags.reuse && fs.existsSync(summaryFile)) {
    log(`reusing the dataset in ${work}`)
    // A dataset made before a schema change gets the migrations made since.
    const handle = await open()
    try {
      const applied = await migrateToLatest(handle.db)
      if (applied.length > 0) log(`  migrated: ${applied.join(', ')}`)
      // Scores from before the counters a result re-scores from (migration 2026-11-24T0100) are
      // re-scored in full once, as a deployment would after that migration.
      const stale = await sql<{ competition_id: number }>`
        SELECT DISTINCT competition_id FROM round_scores WHERE correct_own IS NULL
      `.execute(handle.db)
      for (const { competition_id } of stale.rows) {
        const t1 = performance.now()
        await rescore(handle.db, competition_id)
        log(
          `  re-scored competition ${competition_id}: ${round2((performance.now() - t1) / 1000)} s`,
        )
      }
      // The last run's results and re-scores left millions of dead rows behind; without this a
      // re-run may start while autovacuum is still at them, and measure that. Not tips: at 1M
      // vacuuming its 6.7 GB pushed the read scenarios' tables out of the page cache (the random
      // rankings page fell to 606 req/s), and only the rush writes tips, a few hundred thousand.
      const t0 = performance.now()
      await sql`VACUUM (ANALYZE) round_scores, standings`.execute(handle.db)
      log(`  vacuum: ${round2((performance.now() - t0) / 1000)} s`)
    } finally {
      await handle.close()
    }
    return JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as DatasetSummary
  }
  fs.rmSync(work, { recursive: true, force: true })
  fs.mkdirSync(work, { recursive: true })
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: `${flags['pg-url']}/postgres` })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${dbName}`)
    await admin.end()
  }
  log(`generating ${users.toLocaleString('en')} tippers per competition (${engine})`)
  const t0 = performance.now()
  const handle = await open()
  try {
    await migrateToLatest(handle.db)
    const summary = await generateDataset(handle.db, {
      users,
      sessions,
      leagues: Math.max(10, Math.round(users / 10)),
      publicLeagueSize: Math.min(100_000, users),
      now: new Date(),
      log,
    })
    summary.seconds.total = round2((performance.now() - t0) / 1000)
    fs.writeFileSync(summaryFile, JSON.stringify(summary))
    return summary
  } finally {
    await handle.close()
  }
}

// ---------------------------------------------------------------------------------------------
// Processes

interface Child {
  proc: ChildProcess
  stop(): Promise<void>
}

/** Children still running; killed if the bench stops early, so none keeps a port or database. */
const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const p of running) p.kill('SIGKILL')
})

/**
 * The API server's Node flags: the deployment's (scripts/server-flags.mjs), then the run's own
 * (BENCH_SERVER_FLAGS; NODE_OPTIONS refuses some, such as --cpu-prof). A later V8 flag wins.
 */
const serverNodeFlags = (): string[] => [
  ...SERVER_NODE_FLAGS,
  ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
]

function startNode(
  args: string[],
  env: Record<string, string>,
  name: string,
  nodeFlags = ['--import', 'tsx'],
  fdLimit?: number,
): Child {
  const proc =
    fdLimit === undefined
      ? spawn(process.execPath, [...nodeFlags, ...args], {
          cwd: REPO_ROOT,
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawnNodeWithFdLimit(fdLimit, [...nodeFlags, ...args], {
          cwd: REPO_ROOT,
          env: { ...process.env, ...env },
        })
  if (!proc.stdout || !proc.stderr) throw new Error(`${name}: no output pipes`)
  const tail: string[] = []
  const keep = (b: Buffer) => {
    tail.push(b.toString())
    if (tail.length > 40) tail.shift()
  }
  proc.stdout.on('data', keep)
  proc.stderr.on('data', keep)
  running.add(proc)
  proc.on('exit', (code, signal) => {
    running.delete(proc)
    if (code && code !== 0) console.error(`[${name}] exited ${code}\n${tail.join('')}`)
    else if (signal && signal !== 'SIGTERM') console.error(`[${name}] killed by ${signal}`)
  })
  return {
    proc,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
        proc.once('exit', () => resolve())
        proc.kill('SIGTERM')
        setTimeout(() => proc.kill('SIGKILL'), 30_000).unref()
      }),
  }
}

async function waitFor(url: string, child: Child, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (child.proc.exitCode !== null) throw new Error(`${url}: the process exited`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await sleep(250)
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

async function ensurePortFree(port: number): Promise<void> {
  try {
    await fetch(`http://127.0.0.1:${port}/`)
  } catch {
    return
  }
  throw new Error(`Port ${port} is already in use: stop what runs there first`)
}

/** Peak resident memory of a process, sampled from /proc every 100 ms. */
function rssSampler(pid: number) {
  let peak = 0
  let windowPeak = 0
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
      peak = Math.max(peak, kb)
      windowPeak = Math.max(windowPeak, kb)
    } catch {
      // process gone
    }
  }
  const timer = setInterval(read, 100)
  return {
    peakMb: () => Math.round(peak / 1024),
    /** Peak since the last call. */
    takeWindowMb: () => {
      read()
      const p = windowPeak
      windowPeak = 0
      return Math.round(p / 1024)
    },
    stop: () => clearInterval(timer),
  }
}

async function runLoad(spec: LoadSpec, name: string): Promise<LoadResult> {
  const slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()
  const specFile = path.join(work, `load-${slug}.json`)
  const outFile = path.join(work, `load-${slug}.result.json`)
  fs.writeFileSync(specFile, JSON.stringify(spec))
  fs.rmSync(outFile, { force: true })
  const child = startNode(
    [path.join(BENCH_DIR, 'src/load.ts'), specFile, outFile],
    {},
    `load ${name}`,
  )
  await new Promise<void>((resolve) => child.proc.once('exit', () => resolve()))
  if (!fs.existsSync(outFile)) throw new Error(`load ${name} wrote no result`)
  return JSON.parse(fs.readFileSync(outFile, 'utf8')) as LoadResult
}

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Row {
  scenario: string
  rps: number
  p50: number
  p99: number
  spread?: LoadResult['spread']
  errors: number
  ratio: number
  target: string
  met: boolean
  note?: string
}
interface Timed {
  job: string
  runsSeconds: number[]
  medianSeconds: number
  target: string
  met: boolean
  note?: string
}

interface LighthouseScore {
  performance: number
  cls: number
  lcpMs: number
}
interface PageScore extends LighthouseScore {
  runs: LighthouseScore[]
}
interface Extra {
  dataset: Record<string, number>
  apiPeakRssMb?: number
  rushPeakRssMb?: number
  rushCheck?: Awaited<ReturnType<typeof verifyRush>>
  web?: Awaited<ReturnType<typeof measureWeb>>
  livePages?: LivePagesReport & { underLoad: boolean }
  /** BENCH_SERVER_FLAGS of the run, when set (an old-space ceiling raised for the pages, say). */
  serverFlags?: string
  /** Every Node flag the API server ran with: SERVER_NODE_FLAGS, then BENCH_SERVER_FLAGS (decision 039). */
  nodeFlags: string
  /** --cpu-cap: the servers' and PostgreSQL's share of the machine, and how often it bit. */
  cpuCap?: {
    fraction: number
    quotaUs: number
    periodUs: number
    cpus: number
    group: string
    capped: string[]
    throttling?: Record<string, number>
  }
}

// ---------------------------------------------------------------------------------------------
// live-pages: the live match

/** The WBBL match the scenario plays live, as it was before (so a reused dataset stays as made). */
const LIVE_MATCH_FILE = path.join(work, 'live-match.json')
/** Its deliveries and result: a real WBBL match, its sides played by the fixture's two squads. */
const LIVE_CRICSHEET = path.join(REPO_ROOT, 'data/source/cricsheet/wbbl-2023-24/1387172.json')

interface LiveSetup {
  info: SportInfo
  matchId: number
  home: number
  away: number
  scoresVersion: number
  /** The signed-in tippers' WBBL ranks: a page refetches its tipper's own rankings page. */
  ranks: Map<number, number>
}

/**
 * Makes the first match of the open WBBL round a match in progress (a live score needs one),
 * started an hour ago.
 * WBBL, so the BBL rush, reads and result corrections see the dataset they always did; the row is
 * saved first and put back by restoreLiveMatch once the server has stopped.
 */
async function prepareLiveMatch(h: DatabaseHandle, summary: DatasetSummary): Promise<LiveSetup> {
  const info = summary.sports.find((s) => s.sport === 'wbbl')!
  const m = info.openMatches[0]!
  const snap = await sql<{ row: Record<string, unknown> }>`
    SELECT to_jsonb(m) AS row FROM matches m WHERE id = ${m.id}
  `.execute(h.db)
  fs.writeFileSync(
    LIVE_MATCH_FILE,
    JSON.stringify({
      competitionId: info.competitionId,
      roundId: info.openRoundId,
      row: snap.rows[0]!.row,
    }),
  )
  await h.db.transaction().execute(async (trx) => {
    // Started an hour ago by the server's real clock: a result is refused before the start.
    await sql`
      UPDATE matches SET status = 'active', starts_at = now() - interval '1 hour' WHERE id = ${m.id}
    `.execute(trx)
    await refreshRoundStatuses(trx, [info.openRoundId])
  })
  const version = await sql<{ v: number }>`
    SELECT scores_version AS v FROM competitions WHERE id = ${info.competitionId}
  `.execute(h.db)
  const rankRows = await sql<{ user_id: number; rank: number }>`
    SELECT user_id, rank FROM standings
    WHERE competition_id = ${info.competitionId} AND user_id IN (${sql.join(summary.sessionUserIds)})
  `.execute(h.db)
  return {
    info,
    matchId: m.id,
    home: m.home,
    away: m.away,
    scoresVersion: version.rows[0]!.v,
    ranks: new Map(rankRows.rows.map((r) => [r.user_id, r.rank])),
  }
}

/**
 * Puts the live match back as it was saved (also after a run that stopped half-way): the row,
 * no live score, the round's status, and, when its result was set, the competition re-scored.
 */
async function restoreLiveMatch(h: DatabaseHandle): Promise<void> {
  if (!fs.existsSync(LIVE_MATCH_FILE)) return
  const saved = JSON.parse(fs.readFileSync(LIVE_MATCH_FILE, 'utf8')) as {
    competitionId: number
    roundId: number
    row: Record<string, unknown> & { id: number }
  }
  const id = saved.row.id
  const now = await sql<{ scored: boolean }>`
    SELECT outcome IS NOT NULL AS scored FROM matches WHERE id = ${id}
  `.execute(h.db)
  const cols = Object.keys(saved.row).filter((c) => c !== 'id')
  await h.db.transaction().execute(async (trx) => {
    await sql`DELETE FROM live_scores WHERE match_id = ${id}`.execute(trx)
    await sql`
      UPDATE matches m SET ${sql.join(cols.map((c) => sql`${sql.ref(c)} = ${sql.ref(`r.${c}`)}`))}
      FROM jsonb_populate_record(NULL::matches, ${JSON.stringify(saved.row)}::jsonb) r
      WHERE m.id = ${id}
    `.execute(trx)
    await refreshRoundStatuses(trx, [saved.roundId])
  })
  if (now.rows[0]?.scored) {
    const t0 = performance.now()
    await rescore(h.db, saved.competitionId)
    log(
      `live-pages: match ${id} put back, WBBL re-scored in ${round2((performance.now() - t0) / 1000)} s`,
    )
  } else log(`live-pages: match ${id} put back`)
  fs.rmSync(LIVE_MATCH_FILE)
}

const cookie = (summary: DatasetSummary, userId: number) =>
  `${SESSION_COOKIE}=${benchSessionId(summary.sessionSalt, userId)}`

/** The picks a bench user saves in the rush: fixed per user and run, so every ack is checkable. */
function rushPicks(info: SportInfo, userId: number, nonce: number) {
  return info.openMatches.map((m, i) => ({
    match: m.id,
    squad: (userId + i + nonce) % 2 === 0 ? m.home : m.away,
    margin: m.isMarginGame ? 1 + ((userId + nonce) % 40) : null,
  }))
}

async function main(): Promise<void> {
  const started = new Date()
  const summary = await prepareDataset()
  const bbl = summary.sports.find((s) => s.sport === 'bbl')!
  const rows: Row[] = []
  const timed: Timed[] = []
  const extra: Extra = {
    dataset: summary.seconds,
    ...(process.env.BENCH_SERVER_FLAGS ? { serverFlags: process.env.BENCH_SERVER_FLAGS } : {}),
    nodeFlags: serverNodeFlags().join(' '),
  }

  // Facts the load pools need, read before the server starts (PGlite is one process's).
  let ranks = new Map<number, number>()
  let fiftyMembers: number[] = []
  let tippers = 0
  let resultMatch: MatchRow | null = null
  let liveSetup: LiveSetup | null = null
  {
    const h = await open()
    await restoreLiveMatch(h)
    const rankRows = await sql<{ user_id: number; rank: number }>`
      SELECT user_id, rank FROM standings
      WHERE competition_id = ${bbl.competitionId} AND user_id IN (${sql.join(summary.sessionUserIds)})
    `.execute(h.db)
    ranks = new Map(rankRows.rows.map((r) => [r.user_id, r.rank]))
    fiftyMembers = await leagueMemberIds(h.db, bbl.fiftyLeagueId, 50)
    const count = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM standings WHERE competition_id = ${bbl.competitionId}
    `.execute(h.db)
    tippers = count.rows[0]!.n
    const m = await sql<MatchRow>`
      SELECT m.* FROM matches m JOIN rounds r ON r.id = m.round_id
      WHERE r.competition_id = ${bbl.competitionId} AND r.number = ${bbl.lastCompleteRound}
        AND m.outcome = 'win'
      ORDER BY m.starts_at DESC LIMIT 1
    `.execute(h.db)
    resultMatch = m.rows[0] ?? null
    if (livePagesOn) liveSetup = await prepareLiveMatch(h, summary)
    // My season's rank history (decision 021) as the scheduler would have left it: the server runs
    // here without its scheduler, so what the dataset's scoring (or the last run's results)
    // marked stale is rebuilt now, before any read. Timed as the "history" jobs below.
    const t0 = performance.now()
    const built = await rebuildSeasonHistories(h.db)
    if (built > 0)
      log(
        `  season history: ${built} competition(s) brought up to date in ${round2((performance.now() - t0) / 1000)} s`,
      )
    await h.close()
  }
  const pages = Math.max(1, Math.ceil(tippers / 20))
  const poolUsers = summary.sessionUserIds
  const rand = (n: number) => 1 + Math.floor(Math.random() * n)

  if (cpuCap) {
    extra.cpuCap = {
      fraction: cpuCap.fraction,
      quotaUs: cpuCap.quotaUs,
      periodUs: cpuCap.periodUs,
      cpus: cpuCap.cpus,
      group: cpuCap.dir,
      capped: [],
    }
    log(
      `CPU capped to ${cpuCap.fraction} of ${cpuCap.cpus} CPUs: ${cpuCap.quotaUs} us every ` +
        `${cpuCap.periodUs} us (${cpuCap.dir})`,
    )
    if (engine === 'postgres') {
      // The postmaster and every backend it has; backends it forks later join by inheritance.
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      let postmaster: number
      try {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
        // While the backend still lives: its parent is the postmaster.
        postmaster = postmasterOf(rows[0]!.pid)
      } finally {
        await client.end()
      }
      cpuCap.addTree(postmaster)
      extra.cpuCap.capped.push(`postgres (postmaster ${postmaster})`)
    }
  }

  // 1. The yardstick, capped like the server: on a slower box it is slower too, and the ratios
  // to it stay comparable across boxes.
  let helloRps = NaN
  {
    await ensurePortFree(HELLO_PORT)
    const hello = startNode([path.join(BENCH_DIR, 'src/hello.ts'), String(HELLO_PORT)], {}, 'hello')
    if (cpuCap) {
      cpuCap.addTree(hello.proc.pid!)
      extra.cpuCap!.capped.push('hello-world')
    }
    await waitFor(`http://127.0.0.1:${HELLO_PORT}/hello`, hello)
    const r = await runLoad(
      {
        url: `http://127.0.0.1:${HELLO_PORT}`,
        method: 'GET',
        connections,
        durationSeconds: duration,
        pool: [{ path: '/hello' }],
      },
      'hello',
    )
    await hello.stop()
    helloRps = r.rps
    // First, so figures from different boxes can be compared as they come.
    log(
      `hello-world: ${r.rps.toLocaleString('en')} req/s, p50 ${r.p50}, p99 ${r.p99} ms` +
        (cpuCap ? ` (CPU capped to ${cpuCap.fraction})` : ''),
    )
    rows.push({
      scenario: 'hello-world (bare Fastify)',
      ...pick(r),
      ratio: 1,
      target: '-',
      met: true,
    })
  }

  // 2. The real server.
  fs.mkdirSync(staticDir, { recursive: true })
  const serverEnv: Record<string, string> = {
    PORT: String(API_PORT),
    HOST: '127.0.0.1',
    SEED: 'none',
    LOG_LEVEL: 'warn',
    SCHEDULER_INTERVAL_MS: '0',
    STATIC_DIR: staticDir,
    SSO_DEV_PROVIDER: 'false',
    // the registration burst signs up from one address, on more connections than hashes queue
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    PASSWORD_HASH_QUEUE: '1000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { PGLITE_DIR: pgliteDir }),
    // live-pages: room for every page, and the server's own request counter (on its private
    // listener) for the requests the result brings; other runs leave both as they were.
    ...(livePagesOn
      ? {
          SSE_MAX_CONNECTIONS: String(livePageCount + 1000),
          METRICS_PORT: String(METRICS_PORT),
        }
      : {}),
  }
  await ensurePortFree(API_PORT)
  log('starting the server')
  const server = startNode(
    [path.join(REPO_ROOT, 'packages/server/src/main.ts')],
    serverEnv,
    'server',
    serverNodeFlags(),
    livePagesOn ? fdLimitFor(livePageCount) : undefined,
  )
  if (cpuCap) {
    // Its launcher too, where the descriptor limit needs one: what it starts inherits the group.
    cpuCap.addTree(server.proc.pid!)
    extra.cpuCap!.capped.push('API server')
  }
  const base = `http://127.0.0.1:${API_PORT}`
  await waitFor(`${base}/api/health`, server)
  const rss = rssSampler(server.proc.pid!)
  rss.takeWindowMb()
  // A server answers its health check at once, then builds what it keeps warm (the open rounds'
  // pick counts, the biggest leagues' ladders: tens of seconds of database work at 1M). A
  // deployment routes readers to a new process once it has settled; so does the bench.
  await databaseIdle('start-up', server.proc.pid)

  // live-pages: the pages open and a quiet run of balls; then either the result at once, or (with
  // --pages-under-load) the other scenarios below run with the pages open and the balls going.
  let live: LivePages | null = null
  const underLoadFrom = rows.length
  if (liveSetup) {
    const setup = liveSetup
    live = await startLivePages({
      repoRoot: REPO_ROOT,
      work,
      log,
      base,
      port: API_PORT,
      metricsPort: METRICS_PORT,
      serverPid: server.proc.pid!,
      sport: 'wbbl',
      matchId: setup.matchId,
      home: setup.home,
      away: setup.away,
      cricsheetFile: LIVE_CRICSHEET,
      adminCookie: cookie(summary, summary.adminUserId),
      pages: livePageCount,
      clients: pageClients,
      perAddress: Number(flags['pages-per-address']),
      // 400 handshakes in flight in all: under the server's listen backlog (511).
      openConcurrency: Math.max(1, Math.floor(400 / pageClients)),
      scoresVersion: setup.scoresVersion,
      spreadMs: Number(flags['refetch-spread-ms']),
      refetch: poolUsers.map((u) => ({
        path: `/api/wbbl/rankings/overall/rankings?page=${Math.max(1, Math.ceil((setup.ranks.get(u) ?? 1) / 20))}`,
        cookie: cookie(summary, u),
      })),
      ballMs: Number(flags['ball-ms']),
      quietBalls: Number(flags.balls),
    })
    const started = live
    process.on('exit', () => started.kill())
    await live.quiet()
    if (flags['pages-under-load']) {
      log('live-pages: the other scenarios run with the pages open')
      live.underLoad()
    } else {
      extra.livePages = { ...(await live.finish()), underLoad: false }
      live = null
    }
  }

  const get = (name: string, target: { rps: number; p99: number }, pool: PoolEntry[]) =>
    measure(name, target, {
      url: base,
      method: 'GET',
      connections,
      durationSeconds: duration,
      pool,
    })
  async function measure(
    name: string,
    target: { rps: number; p99: number },
    spec: LoadSpec,
  ): Promise<LoadResult> {
    log(`scenario ${name}`)
    const r = await runLoad(spec, name)
    const errors = r.errors + r.non2xx
    rows.push({
      scenario: name,
      ...pick(r),
      ratio: round2(r.rps / helloRps),
      target: `>= ${target.rps}/s, p99 <= ${target.p99} ms, 0 errors`,
      met: r.rps >= target.rps && r.p99 <= target.p99 && errors === 0,
      ...(errors ? { note: `status codes ${JSON.stringify(r.statusCodes)}` } : {}),
    })
    return r
  }

  if (scenarios.has('predictions')) {
    await get(
      `GET predictions/${bbl.openRound} (pick %)`,
      { rps: 3000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/predictions/${bbl.openRound}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('rankings-page')) {
    await get(
      'GET rankings, random page',
      { rps: 3000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/rankings/overall/rankings?page=${rand(pages)}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('rankings-own')) {
    await get(
      "GET rankings, caller's own page",
      { rps: 3000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/rankings/overall/rankings?page=${Math.max(1, Math.ceil((ranks.get(u) ?? 1) / 20))}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('ladder-50')) {
    await get(
      'GET ladder, 50-member league',
      { rps: 2000, p99: 50 },
      fiftyMembers.map((u) => ({
        path: `/api/bbl/rankings/${bbl.fiftyLeagueId}/rankings?page=${rand(3)}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('ladder-public')) {
    const size = Math.min(100_000, summary.users)
    await get(
      `GET ladder, ${size.toLocaleString('en')}-member public league`,
      { rps: 2000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/rankings/${bbl.publicLeagueId}/rankings?page=${rand(Math.ceil(size / 20))}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('ladder-weeks')) {
    // Decision 038: the crowd browsing the public league's weeks as well as its overall ladder,
    // every played week at random (each a 100,000-member build of its own the first time). Kept
    // as row objects, a dozen of them no longer fitted the API process's heap.
    const size = Math.min(100_000, summary.users)
    const weeks = Math.max(1, bbl.openRound - 1)
    await get(
      `GET ladder, ${size.toLocaleString('en')}-member public league, random week (1-${weeks})`,
      { rps: 2000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/rankings/${bbl.publicLeagueId}/rankings?page=${rand(Math.ceil(size / 20))}&round=${rand(weeks)}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('head-to-head')) {
    // Issue 31: a member of the public league (the session users are its first members) against
    // another at random, the latest round's tips compared; pairs are random, so no two requests
    // are likely to share an answer.
    const other = (u: number) => {
      const i = Math.floor(Math.random() * (poolUsers.length - 1))
      const v = poolUsers[i]!
      return v === u ? poolUsers[poolUsers.length - 1]! : v
    }
    await get(
      'GET head-to-head, random pair in the public league',
      { rps: 3000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/league/${bbl.publicLeagueId}/head-to-head?a=${u}&b=${other(u)}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('my-season')) {
    // Issue 31: the My season page's two reads, each a random signed-in tipper's: their season
    // (numbers, rank after each round from the history's groups, points against the round's
    // average and best), and the chart of one of their leagues (the public league: the biggest).
    await get(
      'GET My season (numbers, rank history)',
      { rps: 3000, p99: 50 },
      poolUsers.map((u) => ({ path: '/api/bbl/season', cookie: cookie(summary, u) })),
    )
    const size = Math.min(100_000, summary.users)
    await get(
      `GET My season league chart, ${size.toLocaleString('en')}-member public league`,
      { rps: 3000, p99: 50 },
      poolUsers.map((u) => ({
        path: `/api/bbl/season/leagues/${bbl.publicLeagueId}`,
        cookie: cookie(summary, u),
      })),
    )
  }
  if (scenarios.has('snapshot')) {
    await measure(
      'POST snapshot',
      { rps: 3000, p99: 50 },
      {
        url: base,
        method: 'POST',
        connections,
        durationSeconds: duration,
        pool: poolUsers.map((u) => ({
          path: '/api/bbl/predictions/snapshot',
          cookie: cookie(summary, u),
          body: '{}',
        })),
      },
    )
  }

  if (scenarios.has('register-burst')) {
    // GAME_RULES "Who is ranked": each sign-up ranks the new tipper in both competitions in its
    // own transaction (placeTipper). New tippers, each once, for as long as the other scenarios,
    // on a fifth of the connections, while the rest read random rankings pages: sign-ups a
    // second (bounded by argon2 and by placing them one at a time, decision 050) and the p99 of
    // the reads beside them.
    const nonce = Date.now().toString(36)
    const signups: PoolEntry[] = Array.from({ length: 100_000 }, (_, i) => ({
      path: '/api/auth/register',
      body: JSON.stringify({
        email: `burst-${nonce}-${i}@bench.example`,
        password: 'bench-burst-password',
        firstName: 'Burst',
        lastName: 'Tipper',
      }),
    }))
    const writers = Math.max(1, Math.round(connections / 5))
    log('scenario register-burst')
    const [signed, read] = await Promise.all([
      runLoad(
        {
          url: base,
          method: 'POST',
          connections: writers,
          durationSeconds: duration,
          pool: signups,
          sequential: true,
        },
        'register-burst',
      ),
      runLoad(
        {
          url: base,
          method: 'GET',
          connections: connections - writers,
          durationSeconds: duration,
          pool: poolUsers.map((u) => ({
            path: `/api/bbl/rankings/overall/rankings?page=${rand(pages)}`,
            cookie: cookie(summary, u),
          })),
        },
        'register-burst-read',
      ),
    ])
    const errorsOf = (r: LoadResult) => r.errors + r.non2xx
    rows.push({
      scenario: `registration burst: POST auth/register (${writers} connections)`,
      ...pick(signed),
      ratio: round2(signed.rps / helloRps),
      target: 'as hashing and placing allow (decision 050), 0 errors',
      met: errorsOf(signed) === 0,
      ...(errorsOf(signed) ? { note: `status codes ${JSON.stringify(signed.statusCodes)}` } : {}),
    })
    rows.push({
      scenario: `GET rankings, random page, during the burst (${connections - writers} connections)`,
      ...pick(read),
      ratio: round2(read.rps / helloRps),
      target: 'p99 <= 50 ms, 0 errors',
      met: read.p99 <= 50 && errorsOf(read) === 0,
      ...(errorsOf(read) ? { note: `status codes ${JSON.stringify(read.statusCodes)}` } : {}),
    })
  }

  /** The deadline rush: every signed-in tipper saving the open BBL round, picks from `nonce`. */
  const rushSpec = (nonce: number): LoadSpec => ({
    url: base,
    method: 'POST',
    connections,
    durationSeconds: duration,
    pool: poolUsers.map((u) => ({
      path: '/api/bbl/predictions_list',
      cookie: cookie(summary, u),
      body: JSON.stringify({ predictions: rushPicks(bbl, u, nonce) }),
      ack: u,
    })),
  })
  let rush: { nonce: number; startedAt: Date; acked: number[] } | null = null
  let rushPeakMb = NaN
  if (scenarios.has('rush')) {
    const nonce = Math.floor(Math.random() * 1000)
    rss.takeWindowMb()
    const startedAt = new Date(Date.now() - 1000)
    const r = await measure(
      `deadline rush: POST predictions_list (${bbl.openMatches.length} tips)`,
      { rps: 2000, p99: 100 },
      rushSpec(nonce),
    )
    rushPeakMb = rss.takeWindowMb()
    rush = { nonce, startedAt, acked: r.acked }
  }

  if (scenarios.has('rush-autopilot') && databaseUrl) {
    // Issue 32: the rush again, with the autopilot job (30 % of tippers on, as in the autopilot
    // job below) run from this process on the database a few seconds in, as the scheduler would
    // half an hour before the kick-off. Its p99 against the rush's alone is the job's cost to
    // savers. PostgreSQL only: PGlite's database lives in the server process. The picks checked
    // after the server stops are this rush's (its nonce replaces the first rush's picks).
    const nonce = 1000 + Math.floor(Math.random() * 1000)
    const h = await open()
    try {
      await autopilotOn(h, bbl)
      const at = new Date(Date.parse(bbl.openMatches[0]!.startsAt) - 30 * 60_000)
      const startedAt = new Date(Date.now() - 1000)
      const job = (async () => {
        await sleep(Math.min(5, duration / 4) * 1000)
        const t0 = performance.now()
        const r = await runAutopilot(h.db, { now: () => at }, { batchSize: autopilotBatch })
        return { seconds: round2((performance.now() - t0) / 1000), placed: r.placed }
      })()
      const r = await measure(
        `deadline rush with the autopilot job running (${bbl.openMatches.length} tips)`,
        { rps: 2000, p99: 100 },
        rushSpec(nonce),
      )
      const ran = await job
      rows.at(-1)!.note =
        `autopilot placed ${ran.placed.toLocaleString('en')} tips in ${ran.seconds} s during the load` +
        (rows.at(-1)!.note ? `; ${rows.at(-1)!.note}` : '')
      log(`  ${rows.at(-1)!.note}`)
      rush = { nonce, startedAt, acked: r.acked }
    } finally {
      await autopilotOff(h, bbl)
      await h.close()
    }
  }

  if (live) {
    extra.livePages = { ...(await live.finish()), underLoad: true }
    const note = ` (with ${extra.livePages.held.toLocaleString('en')} live pages open)`
    for (const row of rows.slice(underLoadFrom)) row.scenario += note
  }

  if (scenarios.has('web')) extra.web = await measureWeb(base, cookie(summary, poolUsers[0]!))

  if (scenarios.has('result-in') && resultMatch) {
    // A result correction through the admin route: the answer comes after every tipper of the
    // round is re-scored, the competition re-ranked and the static files republished.
    const m = resultMatch
    const innings = (runs: number, wickets: number | null, balls: number | null) => ({
      runs,
      wickets: wickets ?? 0,
      overs: balls === null ? '20' : `${Math.floor(balls / 6)}.${balls % 6}`,
    })
    const body = (winner: number) =>
      JSON.stringify({
        outcome: 'win',
        winnerSquadId: winner,
        home: m.home_runs === null ? null : innings(m.home_runs, m.home_wickets, m.home_balls),
        away: m.away_runs === null ? null : innings(m.away_runs, m.away_wickets, m.away_balls),
        sixes: m.sixes,
      })
    const real = m.winner_squad_id ?? m.home_squad_id
    const other = real === m.home_squad_id ? m.away_squad_id : m.home_squad_id
    const runs: number[] = []
    // Each result is timed on its own: the work the previous one set off after its answer (each
    // API process rebuilding its big leagues' ladders, about 4 s of a core per 100,000-member
    // league at 1M) is let finish first, as it would between two real results minutes apart.
    // The run without waiting is quoted in bench/README.md (2026-11-27: 10.9 s on this box).
    for (const winner of [other, real, other, real]) {
      await databaseIdle('result-in', server.proc.pid)
      const send = () =>
        fetch(`${base}/api/admin/bbl/matches/${m.id}/result`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            cookie: cookie(summary, summary.adminUserId),
          },
          body: body(winner),
        })
      let t0 = performance.now()
      let res = await send()
      // On PGlite the database runs on the server's event loop: the previous correction's
      // seconds of SQL leave the load shedder refusing the next request for a moment. A refused
      // request did no work; the job is timed from the attempt that is accepted.
      for (let tries = 0; res.status === 503 && tries < 10; tries++) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000))
        t0 = performance.now()
        res = await send()
      }
      const took = (performance.now() - t0) / 1000
      if (!res.ok) throw new Error(`result-in: ${res.status} ${await res.text()}`)
      runs.push(round2(took))
    }
    // Four runs (the last puts the real winner back); the median of the first three is quoted.
    const target = engine === 'postgres' ? 10 : 60
    const med = median(runs.slice(0, 3))
    timed.push({
      job: `result in -> ${tippers.toLocaleString('en')} scored, ranked, published`,
      runsSeconds: runs,
      medianSeconds: med,
      target: `<= ${target} s`,
      met: med <= target,
    })
  }

  const peakMb = rss.peakMb()
  rss.stop()
  await server.stop()
  extra.apiPeakRssMb = peakMb
  extra.rushPeakRssMb = rushPeakMb

  // 3. Afterwards: nothing lost, then the timed jobs on the database directly. PGlite runs them
  // in this process, which joins the capped group for them.
  if (cpuCap && engine === 'pglite') {
    cpuCap.add(process.pid)
    extra.cpuCap!.capped.push('bench process (PGlite jobs)')
  }
  const h = await open()
  try {
    await restoreLiveMatch(h)
    if (rush) extra.rushCheck = await verifyRush(h, bbl, rush)
    if (scenarios.has('lockout')) timed.push(await timeLockout(h, bbl))
    if (scenarios.has('autopilot')) timed.push(await timeAutopilot(h, bbl))
    if (scenarios.has('rescore')) {
      const runs: number[] = []
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now()
        await rescore(h.db, bbl.competitionId)
        runs.push(round2((performance.now() - t0) / 1000))
        log(`  full season re-score: ${runs.at(-1)} s`)
      }
      timed.push({
        job: `full season re-score (${tippers.toLocaleString('en')} tippers)`,
        runsSeconds: runs,
        medianSeconds: median(runs),
        target: '<= 180 s',
        met: median(runs) <= 180,
      })
    }
    if (scenarios.has('history')) timed.push(...(await timeHistory(h, bbl)))
  } finally {
    await h.close()
  }

  if (cpuCap) {
    extra.cpuCap!.throttling = throttling(cpuCap)
    cpuCap.remove()
  }
  report({ started, summary, rows, timed, extra, helloRps })
}

/**
 * Waits (up to 60 s) for quiet, so that what a measurement times is its own work and not what came
 * before it (the server's start-up warm-up, the previous result's ladder rebuilds): no other
 * statement on the bench's database and, given the API process's pid, that process under a tenth
 * of a core, both for QUIET_MS on end. A job of several statements leaves gaps between them, and
 * a single idle look taken in such a gap let the next scenario or result start beside the rest of
 * it. PostgreSQL only; PGlite's database is the server's.
 */
async function databaseIdle(what: string, serverPid?: number): Promise<void> {
  if (!databaseUrl) return
  const h = await open()
  const t0 = performance.now()
  let quietSince: number | null = null
  try {
    while (performance.now() - t0 < 60_000) {
      const busy = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
      `.execute(h.db)
      // Each look spans 250 ms: the CPU is measured over it, or it is simply waited.
      const cpu =
        serverPid === undefined ? await sleep(250).then(() => 0) : await cpuShare(serverPid, 250)
      const quiet = busy.rows[0]!.n === 0 && cpu < 0.1
      quietSince = quiet ? (quietSince ?? performance.now()) : null
      if (quietSince !== null && performance.now() - quietSince >= QUIET_MS) break
    }
  } finally {
    await h.close()
  }
  const waited = round2((performance.now() - t0) / 1000)
  if (waited > 0.5 + QUIET_MS / 1000) log(`  ${what}: waited ${waited} s for quiet`)
}

const QUIET_MS = 2000

/** The share of one core process `pid` used over the next `ms` milliseconds, from /proc. */
async function cpuShare(pid: number, ms: number): Promise<number> {
  const ticks = () => {
    try {
      // utime and stime, fields 14 and 15 of stat; the command name before them may hold spaces.
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      return Number(f[11]) + Number(f[12])
    } catch {
      return 0
    }
  }
  const before = ticks()
  await sleep(ms)
  // Linux counts them in 1/100 s (USER_HZ).
  return (ticks() - before) / 100 / (ms / 1000)
}

function pick(r: LoadResult) {
  return { rps: r.rps, p50: r.p50, p99: r.p99, spread: r.spread, errors: r.errors + r.non2xx }
}

async function verifyRush(
  h: DatabaseHandle,
  info: SportInfo,
  rush: { nonce: number; startedAt: Date; acked: number[] },
) {
  const ackedUsers = [...new Set(rush.acked)]
  const expected = ackedUsers.flatMap((u) =>
    rushPicks(info, u, rush.nonce).map((p) => ({ u, ...p })),
  )
  // Compare in the database: every acknowledged pick must be there, saved during the rush.
  let found = 0
  for (let i = 0; i < expected.length; i += 20_000) {
    const chunk = expected.slice(i, i + 20_000)
    const res = await sql<{ n: number }>`
      SELECT count(*)::int AS n
      FROM unnest(${chunk.map((e) => e.u)}::int[], ${chunk.map((e) => e.match)}::int[],
                  ${chunk.map((e) => e.squad)}::int[], ${chunk.map((e) => e.margin ?? -1)}::int[])
        AS e(user_id, match_id, squad_id, margin)
      JOIN tips t ON t.user_id = e.user_id AND t.match_id = e.match_id
      WHERE t.squad_id = e.squad_id AND coalesce(t.margin, -1) = e.margin
        AND t.updated_at >= ${rush.startedAt} AND NOT t.is_auto_tip
    `.execute(h.db)
    found += res.rows[0]!.n
  }
  const changed = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM tips
    WHERE round_id = ${info.openRoundId} AND updated_at >= ${rush.startedAt}
  `.execute(h.db)
  const out = {
    acknowledgedSaves: rush.acked.length,
    distinctUsers: ackedUsers.length,
    expectedTips: expected.length,
    tipsFound: found,
    tipsChangedInRound: changed.rows[0]!.n,
    lost: expected.length - found,
  }
  log(`rush check: ${JSON.stringify(out)}`)
  return out
}

/**
 * The scheduler's season_history job (decision 021), three times each way: after a result in the
 * last round played (the mark a result leaves: that round counted again), and cold (a mark from
 * round 1, as after a full re-score or on the first pass on a live database: every round
 * played). Each run is checked to have rebuilt the competition and left nothing due.
 */
async function timeHistory(h: DatabaseHandle, info: SportInfo): Promise<Timed[]> {
  const out: Timed[] = []
  for (const [label, fromRound, target] of [
    [`after a result in round ${info.lastCompleteRound}`, info.lastCompleteRound, 10],
    ['cold, every round played', 1, 60],
  ] as const) {
    const runs: number[] = []
    for (let i = 0; i < 3; i++) {
      await sql`INSERT INTO season_history_stale (competition_id, from_round)
        VALUES (${info.competitionId}, ${fromRound})`.execute(h.db)
      const t0 = performance.now()
      const built = await rebuildSeasonHistories(h.db)
      runs.push(round2((performance.now() - t0) / 1000))
      const left = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM season_history_stale`.execute(h.db)
      if (built < 1 || left.rows[0]!.n !== 0)
        throw new Error(`history: ${built} rebuilt, ${left.rows[0]!.n} marks left`)
      log(`  season history ${label}: ${runs.at(-1)} s`)
    }
    out.push({
      job: `season history (My season ranks), ${label}`,
      runsSeconds: runs,
      medianSeconds: median(runs),
      target: `<= ${target} s`,
      met: median(runs) <= target,
    })
  }
  return out
}

/**
 * The lockout job on the first open kick-off, three times. It writes only the match status; the
 * auto-tips follow from it (the effective_tips view), so each run is then checked: the view's
 * auto-tips on the locked matches must number the users registered before the start with no
 * stored tip, counted from the tables themselves.
 */
async function timeLockout(h: DatabaseHandle, info: SportInfo): Promise<Timed> {
  const first = info.openMatches[0]!
  const at = new Date(Date.parse(first.startsAt) + 1000)
  const runs: number[] = []
  let autoTips = 0
  let locked = 0
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    const result = await runLockouts(h.db, { now: () => at })
    runs.push(round2((performance.now() - t0) / 1000))
    locked = result.locked
    const lockedIds = await sql<{ id: number }>`
      SELECT id FROM matches WHERE status = 'active' AND starts_at <= ${at} AND starts_at > ${new Date(at.getTime() - 86_400_000)}
    `.execute(h.db)
    const ids = lockedIds.rows.map((r) => r.id)
    const seen = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM effective_tips WHERE match_id IN (${sql.join(ids)}) AND is_auto_tip
    `.execute(h.db)
    const expected = await sql<{ n: number }>`
      SELECT count(*)::int AS n
      FROM matches m
      JOIN competition_registrations cr
        ON cr.competition_id = m.competition_id AND cr.registered_at < m.starts_at
      WHERE m.id IN (${sql.join(ids)})
        AND NOT EXISTS (SELECT 1 FROM tips t WHERE t.user_id = cr.user_id AND t.match_id = m.id)
    `.execute(h.db)
    autoTips = seen.rows[0]!.n
    if (autoTips !== expected.rows[0]!.n || autoTips === 0)
      throw new Error(`lockout: ${autoTips} auto-tips seen, ${expected.rows[0]!.n} expected`)
    // Undo, so the next run (and a reused dataset) starts from the same state.
    await h.db.transaction().execute(async (trx) => {
      await sql`UPDATE matches SET status = 'scheduled' WHERE id IN (${sql.join(ids)})`.execute(trx)
      await refreshRoundStatuses(trx, [info.openRoundId])
    })
    log(`  lockout: ${runs.at(-1)} s, ${locked} match(es), ${autoTips} auto-tips (checked)`)
  }
  return {
    job: `lockout: auto-tips on one kick-off (${autoTips.toLocaleString('en')} auto-tips, ${locked} match(es) locked)`,
    runsSeconds: runs,
    medianSeconds: median(runs),
    target: '<= 10 s',
    met: median(runs) <= 10,
  }
}

/**
 * 30 % of the tippers (user id mod 10 below 3) on autopilot an hour ahead, by all three rules,
 * after clearing what an interrupted run may have left (a reused dataset).
 */
async function autopilotOn(h: DatabaseHandle, info: SportInfo): Promise<void> {
  await autopilotOff(h, info)
  await sql`
    INSERT INTO autopilot_settings (user_id, sport, strategy, lead_minutes)
    SELECT cr.user_id, ${info.sport},
      (ARRAY['favourite', 'home', 'team'])[cr.user_id % 3 + 1], 60
    FROM competition_registrations cr
    WHERE cr.competition_id = ${info.competitionId} AND cr.user_id % 10 < 3
    ON CONFLICT DO NOTHING
  `.execute(h.db)
}

/** Takes autopilot's settings, passes and tips in the open round away again. */
async function autopilotOff(h: DatabaseHandle, info: SportInfo): Promise<void> {
  await sql`DELETE FROM tips WHERE round_id = ${info.openRoundId} AND is_autopilot`.execute(h.db)
  await sql`DELETE FROM autopilot_passes`.execute(h.db)
  await sql`DELETE FROM autopilot_settings`.execute(h.db)
}

/**
 * The autopilot job (decision 026) on the first open kick-off, three times: 30 % of the tippers
 * (user id mod 10 below 3) have autopilot on, an hour ahead, by all three rules; the job runs half
 * an hour before the kick-off, so one checkpoint per match of that kick-off places their tips.
 * Each run is checked against the tables (a tip for every such tipper with none of their own) and
 * undone, so the next run and a reused dataset start from the same state.
 */
async function timeAutopilot(h: DatabaseHandle, info: SportInfo): Promise<Timed> {
  const first = info.openMatches[0]!
  const at = new Date(Date.parse(first.startsAt) - 30 * 60_000)
  await autopilotOn(h, info)
  const runs: number[] = []
  let placed = 0
  let checkpoints = 0
  try {
    for (let i = 0; i < 3; i++) {
      const due = await sql<{ id: number }>`
        SELECT id FROM matches WHERE status = 'scheduled' AND starts_at > ${at}
          AND starts_at <= ${new Date(at.getTime() + 60 * 60_000)}
      `.execute(h.db)
      const ids = due.rows.map((r) => r.id)
      const expected = await sql<{ n: number }>`
        SELECT count(*)::int AS n
        FROM matches m
        JOIN competitions c ON c.id = m.competition_id
        JOIN autopilot_settings s ON s.sport = c.sport
        JOIN competition_registrations cr
          ON cr.competition_id = m.competition_id AND cr.user_id = s.user_id
        JOIN users u ON u.id = s.user_id AND u.deactivated_at IS NULL
        WHERE m.id IN (${sql.join(ids)})
          AND NOT EXISTS (SELECT 1 FROM tips t WHERE t.user_id = s.user_id AND t.match_id = m.id)
      `.execute(h.db)
      const t0 = performance.now()
      const result = await runAutopilot(h.db, { now: () => at }, { batchSize: autopilotBatch })
      runs.push(round2((performance.now() - t0) / 1000))
      placed = result.placed
      checkpoints = result.checkpoints
      if (placed !== expected.rows[0]!.n || placed === 0)
        throw new Error(`autopilot: ${placed} tips placed, ${expected.rows[0]!.n} expected`)
      await sql`DELETE FROM tips WHERE match_id IN (${sql.join(ids)}) AND is_autopilot`.execute(
        h.db,
      )
      await sql`DELETE FROM autopilot_passes`.execute(h.db)
      log(`  autopilot: ${runs.at(-1)} s, ${checkpoints} checkpoint(s), ${placed} tips (checked)`)
    }
  } finally {
    await autopilotOff(h, info)
  }
  return {
    job: `autopilot: one kick-off, 30 % of tippers on (${placed.toLocaleString('en')} tips, ${checkpoints} checkpoint(s))`,
    runsSeconds: runs,
    medianSeconds: median(runs),
    target: '<= 10 s',
    met: median(runs) <= 10,
  }
}

// ---------------------------------------------------------------------------------------------
// Web

async function measureWeb(
  base: string,
  signedIn: string,
): Promise<{
  error?: string
  initialJsKb?: number
  initialJsFiles?: Record<string, number>
  /** Lighthouse's CPU slowdown for the emulated phone (4, or 4 / the cap under --cpu-cap). */
  cpuSlowdownMultiplier?: number
  lighthouse?: Record<string, PageScore | { error: string }>
}> {
  const dist = path.join(REPO_ROOT, 'packages/web/dist')
  const indexFile = path.join(dist, 'index.html')
  if (!fs.existsSync(indexFile)) return { error: 'packages/web/dist is missing: run npm run build' }
  const html = fs.readFileSync(indexFile, 'utf8')
  const files = new Set<string>()
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) files.add(m[1]!)
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
    files.add(m[1]!)
  let gzipBytes = 0
  const parts: Record<string, number> = {}
  for (const f of files) {
    const bytes = gzipSync(fs.readFileSync(path.join(dist, f.replace(/^\//, ''))), { level: 9 })
    parts[f] = bytes.length
    gzipBytes += bytes.length
  }
  const initialJsKb = round2(gzipBytes / 1024)
  log(`web: landing page initial JavaScript ${initialJsKb} KB gzipped (${files.size} files)`)
  const lighthouse: Record<string, PageScore | { error: string }> = {}
  for (const [name, url, headers] of [
    ['landing', `${base}/`, null],
    ['tipping', `${base}/bbl/tipping`, { Cookie: signedIn }],
  ] as const) {
    const scores: LighthouseScore[] = []
    for (let i = 0; i < 3; i++) {
      const s = await runLighthouse(url, headers, `${name}-${i}`)
      if (s) scores.push(s)
    }
    if (scores.length === 0) {
      lighthouse[name] = { error: 'lighthouse failed' }
      continue
    }
    lighthouse[name] = {
      runs: scores,
      performance: median(scores.map((s) => s.performance)),
      cls: median(scores.map((s) => s.cls)),
      lcpMs: median(scores.map((s) => s.lcpMs)),
    }
    log(`web: lighthouse ${name} ${JSON.stringify(lighthouse[name])}`)
  }
  return {
    initialJsKb,
    initialJsFiles: parts,
    cpuSlowdownMultiplier: lighthouseCpuSlowdown,
    lighthouse,
  }
}

// Lighthouse's mobile run slows the page's main-thread work by this factor (its own default for a
// mid-range phone). A cgroup cannot imitate a slower box for Chromium: its renderer is one thread,
// and a quota of 0.67 of two CPUs still leaves it a whole core. So under --cpu-cap the phone is
// made slower the same way the servers are: 4 / 0.67 = 6, the page's work on a box 1.5x slower.
const LIGHTHOUSE_MOBILE_CPU_SLOWDOWN = 4
const lighthouseCpuSlowdown =
  Math.round((LIGHTHOUSE_MOBILE_CPU_SLOWDOWN / (cpuCap?.fraction ?? 1)) * 100) / 100

async function runLighthouse(
  url: string,
  headers: Record<string, string> | null,
  name: string,
): Promise<LighthouseScore | null> {
  const out = path.join(work, `lighthouse-${name}.json`)
  const cli = path.join(REPO_ROOT, 'node_modules/lighthouse/cli/index.js')
  const args = [
    cli,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    '--only-categories=performance',
    '--form-factor=mobile',
    `--throttling.cpuSlowdownMultiplier=${lighthouseCpuSlowdown}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
  ]
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()))
  const code = await new Promise<number | null>((r) => proc.once('exit', r))
  if (code !== 0 || !fs.existsSync(out)) {
    console.error(`lighthouse ${name} failed (${code}): ${err.slice(-2000)}`)
    return null
  }
  const lhr = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    categories: { performance: { score: number | null } }
    audits: Record<string, { numericValue: number }>
  }
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function report(r: {
  started: Date
  summary: DatasetSummary
  rows: Row[]
  timed: Timed[]
  extra: Extra
  helloRps: number
}) {
  const lines: string[] = []
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
  lines.push(
    `Big Bash Tipping bench, ${r.started.toISOString()}, ${engine}, ${users.toLocaleString('en')} tippers per competition, ` +
      `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GB, node ${process.version}, ` +
      `${connections} connections x ${duration} s` +
      (r.extra.cpuCap
        ? `, servers and PostgreSQL capped to ${r.extra.cpuCap.fraction} of the CPU`
        : ''),
  )
  lines.push('')
  lines.push('| scenario | req/s | p50 ms | p99 ms | errors | ratio to hello | target | met |')
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |')
  for (const x of r.rows) {
    lines.push(
      `| ${x.scenario} | ${x.rps} | ${x.p50} | ${x.p99} | ${x.errors} | ${x.ratio} | ${x.target} | ${x.met ? 'yes' : 'NO'} |`,
    )
  }
  const check = r.extra.rushCheck
  if (check) {
    lines.push(
      `| rush: saves lost | ${check.lost} of ${check.expectedTips} acknowledged tips (${check.acknowledgedSaves} saves, ${check.distinctUsers} users) | | | | | 0 lost | ${check.lost === 0 ? 'yes' : 'NO'} |`,
    )
  }
  lines.push('')
  lines.push('| job | median s | runs s | target | met |')
  lines.push('| --- | ---: | --- | --- | --- |')
  for (const t of r.timed) {
    lines.push(
      `| ${t.job} | ${t.medianSeconds} | ${t.runsSeconds.join(', ')} | ${t.target} | ${t.met ? 'yes' : 'NO'} |`,
    )
  }
  // Only a run with the rush has a rush figure (the window's peak is NaN otherwise).
  const rushRss = r.extra.rushPeakRssMb
  if (rushRss !== undefined && Number.isFinite(rushRss)) {
    lines.push(
      `| API process peak RSS during the rush | ${rushRss} MB | (whole run ${r.extra.apiPeakRssMb} MB) | <= 350 MB | ${rushRss <= 350 ? 'yes' : 'NO'} |`,
    )
  }
  const web = r.extra.web
  if (web?.initialJsKb !== undefined) {
    lines.push(
      `| web: landing page initial JS, gzipped | ${web.initialJsKb} KB | | <= 170 KB | ${web.initialJsKb <= 170 ? 'yes' : 'NO'} |`,
    )
    for (const page of ['landing', 'tipping']) {
      const l = web.lighthouse?.[page]
      if (!l || 'error' in l) {
        lines.push(`| web: Lighthouse mobile ${page} | failed | | >= 90, CLS <= 0.05 | NO |`)
        continue
      }
      lines.push(
        `| web: Lighthouse mobile ${page}, CPU slowdown ${web.cpuSlowdownMultiplier}x (performance / CLS / LCP ms) | ${l.performance} / ${l.cls} / ${l.lcpMs} | ${l.runs.map((s) => s.performance).join(', ')} | >= 90, CLS <= 0.05 | ${l.performance >= 90 && l.cls <= 0.05 ? 'yes' : 'NO'} |`,
      )
    }
  }
  const lp = r.extra.livePages
  if (lp) lines.push('', ...livePagesTable(lp))
  lines.push('')
  lines.push(`dataset generation (s): ${JSON.stringify(r.summary.seconds)}`)
  const text = lines.join('\n')
  console.log(`\n${text}\n`)
  const resultsDir = path.join(BENCH_DIR, 'results')
  fs.mkdirSync(resultsDir, { recursive: true })
  const file = path.join(
    resultsDir,
    `${r.started.toISOString().slice(0, 16).replace(':', '')}-${engine}-${users}${r.extra.cpuCap ? `-cap${r.extra.cpuCap.fraction}` : ''}.json`,
  )
  fs.writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: r.started.toISOString(),
        engine,
        users,
        machine: { cpus: os.cpus().length, cpu, memGb: Math.round(os.totalmem() / 2 ** 30) },
        connections,
        durationSeconds: duration,
        helloRps: r.helloRps,
        cpuCap: r.extra.cpuCap ?? null,
        autopilotBatch,
        scenarios: r.rows,
        jobs: r.timed,
        ...r.extra,
        table: text,
      },
      null,
      2,
    )}\n`,
  )
  log(`written ${path.relative(REPO_ROOT, file)}`)
}

/** The live-pages figures as a table of their own (their shape is not a load scenario's). */
function livePagesTable(lp: NonNullable<Extra['livePages']>): string[] {
  const n = (x: number) => x.toLocaleString('en')
  const lag = (l: { count: number; p50: number; p99: number; max: number }) =>
    `p50 ${n(l.p50)}, p99 ${n(l.p99)}, max ${n(l.max)} ms (${n(l.count)} deliveries)`
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO')
  const out = [
    '| live pages (WBBL push channel, one API process) | figure | target | met |',
    '| --- | --- | --- | --- |',
    `| pages held | ${n(lp.held)} of ${n(lp.requested)}, opened in ${lp.openSeconds} s (${lp.clients} client processes, ${lp.sourceAddresses}, ${lp.perAddress} per address; ${n(lp.refusedRetried)} refused and retried) | all | ${yes(lp.held === lp.requested)} |`,
    `| API RSS: before / with the pages open / peak | ${lp.rssBeforeMb} / ${lp.rssAfterOpenMb} / ${lp.rssPeakMb} MB (${lp.rssPerPageKb} KB a page; V8 heap used ${lp.heapBeforeMb} -> ${lp.heapAfterOpenMb} MB, ${lp.heapBeforeResultMb} MB after the balls) | - | - |`,
  ]
  for (const [phase, l] of Object.entries(lp.lag)) {
    const what =
      phase === 'quiet'
        ? `balls alone, one every ${lp.balls.ballMs} ms`
        : phase === 'load'
          ? 'beside the other scenarios'
          : phase
    out.push(
      `| live event delivery lag (${what}) | ${lag(l)} | p99 <= 2,000 ms | ${yes(l.p99 <= 2000)} |`,
    )
  }
  out.push(
    `| live scores sent (admin PUT) | ${n(lp.balls.sent)} (${n(lp.balls.applied)} applied, ${n(lp.balls.shed)} times shed and sent again), PUT p50 ${lp.balls.put.p50}, p99 ${lp.balls.put.p99} ms | - | - |`,
    `| events per page | ${n(lp.eventsPerPage.min)}-${n(lp.eventsPerPage.max)} of ${n(lp.eventsPerPage.expected)} | every one | ${yes(lp.eventsPerPage.min === lp.eventsPerPage.expected)} |`,
    `| result: POST answered in / event at the pages from the POST sent / from its answer (0: before it) | ${lp.result.postSeconds} s (status ${lp.result.status}) / p50 ${n(lp.result.lagFromSent.p50)}, p99 ${n(lp.result.lagFromSent.p99)} ms / p99 ${n(lp.result.lagFromAnswered.p99)} ms | - | - |`,
    `| result event: fan-out, from the first page to have it | ${lag(lp.result.lagFromFirst)} | every page, p99 <= 2,000 ms | ${yes(lp.result.status === 200 && lp.result.deliveredTo === lp.held && lp.result.lagFromFirst.p99 <= 2000)} |`,
    `| requests the result caused (server's count, per second from the POST) | ${n(lp.refetch.serverTotal)} in ${lp.refetch.serverPerSecond.length} s, peak ${n(lp.refetch.serverPeakPerSecond)}/s (${lp.refetch.serverPerSecond.join(', ')}) | - | - |`,
    `| pages' score refetches (spread over ${n(lp.refetch.spreadMs)} ms) | ${n(lp.refetch.sent)}, ${lag(lp.refetch.latency).replace('deliveries', 'answers')}, status ${JSON.stringify(lp.refetch.status)} | - | - |`,
    `| errors | ${lp.errors.total} (${Object.entries(lp.errors)
      .filter(([k]) => k !== 'total')
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}) | 0 | ${yes(lp.errors.total === 0)} |`,
  )
  return out
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
