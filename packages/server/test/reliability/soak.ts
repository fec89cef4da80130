import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { parseCliArgs } from '../../src/cli/usage.ts'
import { REPO_ROOT } from '../../src/config.ts'
import { openDatabase } from '../../src/db/database.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { seedDemo } from '../../src/seed/demo.ts'
import { Client, openMatches, sleep, slope, startCluster, startServer } from './harness.ts'

/**
 * `npm run soak [-- --minutes 10]` (docs/RELIABILITY.md): a real server on a throwaway PostgreSQL
 * cluster, its capacity measured with a mix of reads and tip saves, then the same mix offered at
 * half that rate for the given minutes. Passes with zero errors (every answer a 2xx) and reports
 * latency and the server's RSS over time with its least-squares slope (MB per minute). Not part
 * of CI (too long); run it by hand and record the figures.
 */

const USAGE = `Usage: npm run soak -- [--minutes 10] [--users 20] [--out FILE]
  Mixed load at half the measured capacity on a throwaway PostgreSQL cluster (docs/RELIABILITY.md).`
const { values } = parseCliArgs(USAGE, {
  options: {
    minutes: { type: 'string', default: '10' },
    users: { type: 'string', default: '20' },
    out: { type: 'string' },
  },
})
const minutes = Number(values.minutes)
const userCount = Number(values.users)
if (!(minutes > 0) || !(userCount > 0)) throw new Error('--minutes and --users must be positive')

interface Tally {
  requests: number
  statuses: Record<string, number>
  transportErrors: number
  latencies: number[]
}
const newTally = (): Tally => ({ requests: 0, statuses: {}, transportErrors: 0, latencies: [] })

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0

async function main() {
  const log = (line: string) => console.log(`[soak] ${line}`)
  log(`${minutes} min at half capacity, ${userCount} users`)
  const cluster = await startCluster()
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  try {
    const admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
    await admin.query('CREATE DATABASE tipping_soak')
    await admin.end()
    const url = cluster.url.replace(/\/postgres$/, '/tipping_soak')
    const handle = await openDatabase({ databaseUrl: url })
    await migrateToLatest(handle.db)
    await seedDemo(handle.db, {
      dataDir: path.join(REPO_ROOT, 'data'),
      sponsorPrefix: 'xyz',
      now: new Date(),
      users: 40,
    })
    await handle.close()
    // Production settings (default thresholds, scheduler running), one process.
    server = await startServer({ DATABASE_URL: url, LOG_LEVEL: 'error' })
    const pid = server.child.pid!

    const clients = Array.from({ length: userCount }, () => new Client(server!.baseURL))
    for (const [i, c] of clients.entries()) await c.register(`soak${i}@reliability.example`)
    const matches = (await openMatches(clients[0]!, 'bbl', 4)).slice(0, 8)

    // The mix: mostly reads, a fifth tip-list saves (weights sum to 100).
    const mix: { weight: number; run: (c: Client, k: number) => Promise<{ status: number }> }[] = [
      { weight: 40, run: (c) => c.request('GET', '/api/bbl/predictions/4') },
      {
        weight: 20,
        run: (c, k) =>
          c.request('POST', '/api/bbl/predictions_list', {
            predictions: matches.map((m, j) => ({
              match: m.id,
              squad: ((k + j) & 1) === 0 ? m.homeSquadId : m.awaySquadId,
            })),
          }),
      },
      { weight: 15, run: (c) => c.request('GET', '/api/bbl/rankings/overall/rankings') },
      { weight: 10, run: (c) => c.request('GET', '/api/tipping/dashboard') },
      { weight: 10, run: (c) => c.request('GET', '/api/bbl/leagues') },
      { weight: 5, run: (c) => c.request('GET', '/api/health') },
    ]
    let k = 0
    const fire = async (tally: Tally) => {
      const n = k++
      const client = clients[n % clients.length]!
      let pick = (n * 37) % 100
      const entry = mix.find((m) => (pick -= m.weight) < 0)!
      const started = performance.now()
      tally.requests++
      try {
        const res = await entry.run(client, n)
        tally.latencies.push(performance.now() - started)
        tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1
      } catch {
        tally.transportErrors++
      }
    }

    // Capacity: the mix flat out from 16 concurrent clients for 15 s.
    const capacityTally = newTally()
    const capacityEnd = Date.now() + 15_000
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (Date.now() < capacityEnd) await fire(capacityTally)
      }),
    )
    const capacity = Math.round((capacityTally.statuses['200'] ?? 0) / 15)
    const rate = Math.max(1, Math.floor(capacity / 2))
    log(`capacity ${capacity}/s (${JSON.stringify(capacityTally.statuses)}); offering ${rate}/s`)

    // Half capacity, paced: one request every 1000/rate ms, not waiting for answers.
    const tally = newTally()
    const rss: { x: number; y: number }[] = []
    const rssMb = () => {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
    }
    const start = Date.now()
    const end = start + minutes * 60_000
    const inFlight = new Set<Promise<void>>()
    let nextSample = start
    let nextReport = start + 60_000
    for (let i = 0; Date.now() < end; i++) {
      const due = start + (i * 1000) / rate
      if (due > Date.now()) await sleep(due - Date.now())
      const p = fire(tally).finally(() => inFlight.delete(p))
      inFlight.add(p)
      if (Date.now() >= nextSample) {
        rss.push({ x: (Date.now() - start) / 60_000, y: rssMb() })
        nextSample += 10_000
      }
      if (Date.now() >= nextReport) {
        log(
          `${Math.round((Date.now() - start) / 60_000)} min: ${tally.requests} requests, RSS ${rss.at(-1)!.y.toFixed(1)} MB, ${JSON.stringify(tally.statuses)}`,
        )
        nextReport += 60_000
      }
    }
    await Promise.all(inFlight)
    rss.push({ x: (Date.now() - start) / 60_000, y: rssMb() })

    const sorted = tally.latencies.sort((a, b) => a - b)
    const ok = Object.entries(tally.statuses)
      .filter(([s]) => s.startsWith('2'))
      .reduce((s, [, n]) => s + n, 0)
    const errors = tally.requests - ok
    const warm = rss.filter((p) => p.x >= 1)
    const figures = {
      date: new Date().toISOString(),
      minutes,
      capacityPerSecond: capacity,
      offeredPerSecond: rate,
      requests: tally.requests,
      achievedPerSecond: Math.round((tally.requests / (Date.now() - start)) * 1000),
      statuses: tally.statuses,
      transportErrors: tally.transportErrors,
      errors,
      latencyMs: {
        p50: Math.round(percentile(sorted, 50)),
        p99: Math.round(percentile(sorted, 99)),
        max: Math.round(sorted.at(-1) ?? 0),
      },
      rssMb: {
        first: Number(rss[0]!.y.toFixed(1)),
        last: Number(rss.at(-1)!.y.toFixed(1)),
        max: Number(Math.max(...rss.map((p) => p.y)).toFixed(1)),
        slopePerMinute: Number(slope(rss).toFixed(2)),
        slopePerMinuteAfterFirstMinute: Number(slope(warm).toFixed(2)),
        samples: rss.length,
      },
      serverAlive: server.child.exitCode === null,
    }
    console.log(JSON.stringify(figures, null, 2))
    if (values.out)
      fs.writeFileSync(
        path.resolve(process.env.INIT_CWD ?? '.', values.out),
        `${JSON.stringify(figures, null, 2)}\n`,
      )
    if (errors > 0 || !figures.serverAlive) {
      log(`FAILED: ${errors} errors`)
      process.exitCode = 1
    } else log('passed: zero errors')
  } finally {
    await server?.stop()
    cluster.destroy()
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
