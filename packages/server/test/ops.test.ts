import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { adminHealthResponseSchema } from '@tipping/contract/admin'
import { buildApp } from '../src/app.ts'
import { AdjustableClock } from '../src/clock.ts'
import { REPO_ROOT, testConfig } from '../src/config.ts'
import type { DatabaseHandle } from '../src/db/database.ts'
import { inTransaction, transactionsRetried } from '../src/db/transaction.ts'
import { Scheduler } from '../src/jobs/scheduler.ts'
import { MailDelivery, queueEmails } from '../src/modules/mail/service.ts'
import { serveMetrics, type MetricsServer } from '../src/modules/ops/metrics-server.ts'
import type { Metrics } from '../src/modules/ops/metrics.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { withDatabase } from './global-setup.ts'
import { freshDatabase, loadSeasons, makeAdmin, registerUser, unsubscribeLinks } from './helpers.ts'

// What an operator watches (issue 26): Prometheus metrics on their own listener only, and the
// admin console's System health reading what the scheduler recorded in job_runs.

// BBL|15 match 1 starts 2025-12-14; a day later the scheduler has it to lock.
const NOW = new Date('2025-12-15T00:00:00Z')
const INTERVAL_MS = 5000
const quietLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() })

interface Built {
  app: FastifyInstance
  metrics: Metrics | null
  handle: DatabaseHandle
  clock: AdjustableClock
  dir: string
  close(): Promise<void>
}

/** The real app with METRICS_PORT set (its metrics are what main.ts would serve). */
async function build(web?: string): Promise<Built> {
  const handle = await freshDatabase()
  const clock = new AdjustableClock(NOW)
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-ops-'))
  const { app, metrics } = await buildApp({
    config: testConfig({
      STATIC_DIR: path.join(dir, 'static'),
      WEB_DIST_DIR: web ?? path.join(dir, 'no-web'),
      METRICS_PORT: 0,
    }),
    db: handle.db,
    engine: handle.engine,
    clock,
    dbPool: handle.pool,
  })
  await app.ready()
  return {
    app,
    metrics,
    handle,
    clock,
    dir,
    close: async () => {
      await app.close()
      await handle.close()
      await fs.rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A migrated database for a separate process: a clone of the PostgreSQL template, or the PGlite
 * template unpacked into a directory (the worker would otherwise spend a minute on initdb).
 */
async function databaseForProcess(dir: string): Promise<{
  env: Record<string, string | undefined>
  drop(): Promise<void>
}> {
  const url = process.env.DATABASE_URL
  const template = inject('postgresTemplate')
  if (url && template) {
    const name = `tipping_test_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`)
    await admin.end()
    return {
      env: { DATABASE_URL: withDatabase(url, name) },
      drop: async () => {
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await client.end()
      },
    }
  }
  const dataDir = path.join(dir, 'db')
  const tarball = await fs.readFile(inject('pgliteTemplate'))
  const unpacked = await PGlite.create({ dataDir, loadDataDir: new Blob([tarball]) })
  await unpacked.close()
  // No DATABASE_URL: spawn leaves out variables set to undefined.
  return { env: { DATABASE_URL: undefined, PGLITE_DIR: dataDir }, drop: async () => {} }
}

const email = (to: string) => ({ kind: 'test', to, subject: 'Hi', text: 'Hello', html: null })

describe('metrics', () => {
  let b: Built
  let server: MetricsServer
  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    return res.text()
  }
  /** The value of one sample line, or undefined when the series is absent. */
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `))
    return line === undefined ? undefined : Number(line.slice(series.length + 1))
  }

  beforeAll(async () => {
    b = await build()
    expect(b.metrics).not.toBeNull()
    server = await serveMetrics(b.metrics!.registry, { host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await server?.close()
    await b?.close()
  })

  it('times each request under its route pattern, method and status class, never the raw URL', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await b.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    }
    const refused = await b.app.inject({
      method: 'GET',
      url: '/api/admin/competitions/98765/rounds?secret=abc',
    })
    expect(refused.statusCode).toBe(401)
    await b.app.inject({ method: 'GET', url: '/api/no-such-route/424242' })
    // A transaction PostgreSQL aborted once (as it does to break a deadlock), run again.
    let runs = 0
    await inTransaction(b.handle.db, () =>
      ++runs === 1
        ? Promise.reject(Object.assign(new Error('deadlock'), { code: '40P01' }))
        : Promise.resolve(),
    )
    const text = await scrape()
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/health",status_class="2xx"}',
      ),
    ).toBe(3)
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/admin/competitions/:id/rounds",status_class="4xx"}',
      ),
    ).toBe(1)
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}',
      ),
    ).toBe(1)
    // Buckets are cumulative: the +Inf bucket holds every request.
    expect(
      sample(
        text,
        'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/health",status_class="2xx"}',
      ),
    ).toBe(3)
    for (const raw of ['98765', '424242', 'secret', 'no-such-route'])
      expect(text).not.toContain(raw)
    // The process, pool and connection figures are there too.
    expect(text).toContain('process_cpu_seconds_total')
    expect(text).toContain('nodejs_eventloop_lag_seconds')
    expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1)
    expect(text).toContain('http_server_connections')
    // Transactions run again after PostgreSQL aborted them (decision 045): the process's count.
    expect(sample(text, 'db_transactions_retried_total')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'db_transactions_retried_total')).toBe(transactionsRetried())
  })

  it('counts 5xx answers per route', async () => {
    // The database gone mid-flight: the health route answers 503 (a server-side failure).
    const broken = await build()
    const s = await serveMetrics(broken.metrics!.registry, { host: '127.0.0.1', port: 0 })
    try {
      await broken.handle.close()
      const res = await broken.app.inject({ method: 'GET', url: '/api/health' })
      expect(res.statusCode).toBe(503)
      const text = await (await fetch(`${s.url}/metrics`)).text()
      expect(text).toContain('http_server_errors_total{method="GET",route="/api/health"} 1')
      expect(text).toContain(
        'http_request_duration_seconds_count{method="GET",route="/api/health",status_class="5xx"} 1',
      )
    } finally {
      await s.close()
      await broken.app.close()
      await fs.rm(broken.dir, { recursive: true, force: true })
    }
  })

  it('reads the email outbox depth at scrape time: queued, failed, oldest queued age', async () => {
    let text = await scrape()
    expect(sample(text, 'email_outbox_emails{state="queued"}')).toBe(0)
    expect(sample(text, 'email_outbox_oldest_queued_age_seconds')).toBe(0)
    const db = b.handle.db
    await queueEmails(db, [email('a@example.com')], new Date(NOW.getTime() - 90_000))
    await queueEmails(db, [email('b@example.com'), email('c@example.com')], NOW)
    await db
      .updateTable('email_outbox')
      .set({ failed_at: NOW, error: 'refused' })
      .where('to_address', '=', 'c@example.com')
      .execute()
    text = await scrape()
    expect(sample(text, 'email_outbox_emails{state="queued"}')).toBe(2)
    expect(sample(text, 'email_outbox_emails{state="failed"}')).toBe(1)
    expect(sample(text, 'email_outbox_oldest_queued_age_seconds')).toBe(90)
  })

  it("exports the scheduler's job durations, failures and lag", async () => {
    const scheduler = new Scheduler({
      db: b.handle.db,
      clock: b.clock,
      publisher: new Publisher(b.handle.db, b.clock, {
        staticDir: path.join(b.dir, 'static'),
        logosDir: path.join(b.dir, 'logos'),
      }),
      mail: new MailDelivery(b.handle.db, b.clock, {
        unsubscribe: unsubscribeLinks('http://localhost:3000'),
        from: 'x@example.com',
        log: quietLog(),
      }),
      log: quietLog(),
      intervalMs: INTERVAL_MS,
      metrics: b.metrics!,
    })
    await scheduler.tick()
    await scheduler.stop()
    const text = await scrape()
    for (const job of ['scheduler', 'autopilot', 'lockouts', 'email_delivery']) {
      expect(sample(text, `job_duration_seconds_count{job="${job}"}`), job).toBe(1)
      expect(sample(text, `job_failures_total{job="${job}"}`), job).toBe(0)
    }
    expect(sample(text, 'scheduler_lag_seconds')).toBe(0)
  })

  it('answers nothing but GET /metrics on its own listener', async () => {
    expect((await fetch(`${server.url}/`)).status).toBe(404)
    expect((await fetch(`${server.url}/api/health`)).status).toBe(404)
    expect((await fetch(`${server.url}/metrics`, { method: 'POST' })).status).toBe(404)
  })

  it('is never served on the public port, even where the web app answers its pages', async () => {
    const web = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-web-'))
    await fs.writeFile(path.join(web, 'index.html'), '<!doctype html><html><head></head></html>')
    const withWeb = await build(web)
    try {
      // The app page answers its pages; /metrics is refused outright, with the envelope.
      expect((await withWeb.app.inject({ method: 'GET', url: '/bbl/leagues' })).statusCode).toBe(
        200,
      )
      for (const url of ['/metrics', '/metrics?format=text']) {
        const res = await withWeb.app.inject({ method: 'GET', url })
        expect(res.statusCode, url).toBe(404)
        expect(res.json().errors[0].code).toBe('NOT_FOUND')
        expect(res.body).not.toContain('http_request_duration_seconds')
      }
    } finally {
      await withWeb.close()
      await fs.rm(web, { recursive: true, force: true })
    }
  })

  it('is served by the worker process too, with its job metrics, when METRICS_PORT is set', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-worker-'))
    const database = await databaseForProcess(dir)
    const worker = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/cli/worker.ts'],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          ...database.env,
          STATIC_DIR: path.join(dir, 'static'),
          SCHEDULER_INTERVAL_MS: '200',
          METRICS_PORT: '0',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    try {
      // The worker logs where its metrics listen (the port the system gave for 0).
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        worker.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          const found = /"metrics":"([^"]+)"/.exec(out)
          if (found) resolve(found[1]!)
        })
        worker.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)))
      })
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
      await vi.waitFor(
        async () => {
          const text = await (await fetch(url)).text()
          expect(sample(text, 'job_duration_seconds_count{job="lockouts"}')).toBeGreaterThan(0)
          expect(sample(text, 'email_outbox_emails{state="queued"}')).toBe(0)
          expect(text).toContain('process_resident_memory_bytes')
        },
        { timeout: 30_000, interval: 250 },
      )
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.kill('SIGTERM')
      await exited
      await database.drop()
      await fs.rm(dir, { recursive: true, force: true })
    }
    // A process of its own to start (tsx, the database): more than a request takes.
  }, 120_000)

  it('adds no timing when METRICS_PORT is unset', async () => {
    const handle = await freshDatabase()
    const built = await buildApp({
      config: testConfig({ WEB_DIST_DIR: path.join(os.tmpdir(), 'no-web-here') }),
      db: handle.db,
      engine: handle.engine,
      clock: new AdjustableClock(NOW),
    })
    expect(built.metrics).toBeNull()
    await built.app.close()
    await handle.close()
  })
})

describe('GET /api/admin/health', () => {
  let b: Built
  let admin: { cookie: string }
  let tipper: { cookie: string }
  const health = async (cookie?: string) =>
    b.app.inject({
      method: 'GET',
      url: '/api/admin/health',
      ...(cookie ? { headers: { cookie } } : {}),
    })

  beforeAll(async () => {
    b = await build()
    await loadSeasons(b.handle.db)
    const a = await registerUser(b.app)
    await makeAdmin(b.handle.db, a.id)
    admin = a
    tipper = await registerUser(b.app)
  })
  afterAll(() => b?.close())

  it('refuses a visitor (401) and a tipper (403)', async () => {
    const visitor = await health()
    expect(visitor.statusCode).toBe(401)
    expect(visitor.json().errors[0]).toHaveProperty('code')
    const user = await health(tipper.cookie)
    expect(user.statusCode).toBe(403)
    expect(user.json().errors[0]).toHaveProperty('code')
  })

  it('says the scheduler never ran before any pass', async () => {
    const res = await health(admin.cookie)
    expect(res.statusCode).toBe(200)
    const body = adminHealthResponseSchema.parse(res.json().success)
    expect(body.scheduler).toMatchObject({ status: 'never', lastTickAt: null })
    expect(body.lockouts).toBeNull()
    expect(body.jobs).toEqual([])
  })

  it('shows a pass run by another process: lockouts, the failed publish, outbox and lag', async () => {
    // A publisher that cannot write its files: the pass locks the started match, then fails to
    // publish. The scheduler is not the app's: it stands for a separate worker process.
    const blocked = path.join(b.dir, 'not-a-directory')
    await fs.writeFile(blocked, 'a file where the static directory should be')
    await queueEmails(
      b.handle.db,
      [email('waiting@example.com')],
      new Date(NOW.getTime() - 600_000),
    )
    const log = quietLog()
    const scheduler = new Scheduler({
      db: b.handle.db,
      clock: b.clock,
      publisher: new Publisher(b.handle.db, b.clock, {
        staticDir: blocked,
        logosDir: path.join(b.dir, 'logos'),
      }),
      mail: new MailDelivery(b.handle.db, b.clock, {
        unsubscribe: unsubscribeLinks('http://localhost:3000'),
        from: 'x@example.com',
        log: quietLog(),
      }),
      log,
      intervalMs: INTERVAL_MS,
    })
    await scheduler.tick()
    await scheduler.stop()
    expect(log.error).toHaveBeenCalled()

    const res = await health(admin.cookie)
    expect(res.statusCode).toBe(200)
    const body = adminHealthResponseSchema.parse(res.json().success)
    expect(body.now).toBe(NOW.toISOString())
    expect(body.scheduler).toEqual({
      status: 'ok',
      lastTickAt: NOW.toISOString(),
      intervalMs: INTERVAL_MS,
      lagMs: 0,
      overdueMs: 0,
    })
    expect(body.lockouts).toMatchObject({
      job: 'lockouts',
      lastRunAt: NOW.toISOString(),
      error: null,
      runs: 1,
      failures: 0,
    })
    expect(body.publishing).toMatchObject({ job: 'publishing', runs: 1, failures: 1 })
    expect(body.publishing!.error).toMatch(/not-a-directory|ENOTDIR|EEXIST/)
    // In the order a pass runs them, the pass itself first.
    expect(body.jobs.map((j) => j.job)).toEqual([
      'scheduler',
      'autopilot',
      'lockouts',
      'pick_split',
      'season_history',
      'publishing',
      'email_delivery',
    ])
    expect(body.recentFailures).toEqual([
      { job: 'publishing', at: NOW.toISOString(), error: body.publishing!.error },
    ])
    // No SMTP_URL here: the email waits, ten minutes old.
    expect(body.emailOutbox).toEqual({ queued: 1, failed: 0, oldestQueuedAgeSeconds: 600 })

    // A scheduler that stops: three intervals on, the next pass is two intervals overdue.
    b.clock.advance(3 * INTERVAL_MS)
    const late = adminHealthResponseSchema.parse((await health(admin.cookie)).json().success)
    expect(late.scheduler).toMatchObject({ status: 'late', overdueMs: 2 * INTERVAL_MS })
  })

  it('keeps the last failure after a later success, counting runs', async () => {
    const scheduler = new Scheduler({
      db: b.handle.db,
      clock: b.clock,
      publisher: new Publisher(b.handle.db, b.clock, {
        staticDir: path.join(b.dir, 'static'),
        logosDir: path.join(b.dir, 'logos'),
      }),
      log: quietLog(),
      intervalMs: INTERVAL_MS,
    })
    // Nothing more to lock: lockouts run, publishing does not.
    await scheduler.tick()
    await scheduler.stop()
    const body = adminHealthResponseSchema.parse((await health(admin.cookie)).json().success)
    expect(body.scheduler.status).toBe('ok')
    expect(body.lockouts).toMatchObject({ runs: 2, failures: 0, error: null })
    expect(body.publishing).toMatchObject({ runs: 1, failures: 1 })
    expect(body.publishing!.lastError).toBe(body.publishing!.error)
    expect(body.recentFailures.map((f) => f.job)).toEqual(['publishing'])
  })
})
