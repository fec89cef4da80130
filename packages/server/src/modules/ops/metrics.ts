import type { Server } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Clock } from '../../clock.ts'
import type { PoolStats } from '../../db/database.ts'
import type { Database } from '../../db/schema.ts'
import { transactionsRetried } from '../../db/transaction.ts'
import { outboxDepth, type OutboxDepth } from './queries.ts'

// What an operator scrapes (Prometheus text format), served only on the private metrics
// listener (metrics-server.ts), never on the public port. One registry per process part that
// builds it, so two apps in one test process never share a series.

/** What the scheduler reports of each job (jobs/scheduler.ts). */
export interface JobObserver {
  /** One run of a job: how long it took and whether it failed. */
  job(name: string, seconds: number, failed: boolean): void
  /** How late a pass started against its interval. */
  lag(seconds: number): void
}

const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'] as const
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
/** The route label of requests no route matched (the app page, refusals). */
const UNMATCHED = 'unmatched'

/**
 * One route and method's series, found once when the route is registered: a request then costs
 * an index into `byClass` and prom-client's observe, no label object or string built per request.
 */
class RouteSeries {
  private readonly byClass: (Histogram.Internal<string> | undefined)[] = []
  private errors: Counter.Internal | undefined

  constructor(
    private readonly duration: Histogram<string>,
    private readonly serverErrors: Counter<string>,
    private readonly method: string,
    private readonly route: string,
  ) {}

  observe(reply: FastifyReply): void {
    const status = reply.statusCode
    const cls = status >= 100 && status < 600 ? (status / 100) | 0 : 0
    let child = this.byClass[cls]
    if (child === undefined) {
      child = this.duration.labels(this.method, this.route, STATUS_CLASSES[cls]!)
      this.byClass[cls] = child
    }
    // Fastify's own timer (from routing to the response sent), in milliseconds.
    child.observe(reply.elapsedTime / 1000)
    if (cls === 5) (this.errors ??= this.serverErrors.labels(this.method, this.route)).inc()
  }
}

export interface MetricsOptions {
  db: Database
  clock: Clock
  /** The database pool's figures at scrape time; absent: no pool series. */
  pool?: (() => PoolStats) | undefined
}

export class Metrics implements JobObserver {
  readonly registry = new Registry()
  private readonly duration: Histogram<string>
  private readonly serverErrors: Counter<string>
  private readonly jobDuration: Histogram<string>
  private readonly jobFailures: Counter<string>
  private readonly jobLastSuccess: Gauge<string>
  private readonly schedulerLag: Gauge
  private readonly jobSeries = new Map<
    string,
    { duration: Histogram.Internal<string>; failures: Counter.Internal; ok: Gauge.Internal<string> }
  >()
  private server: Server | null = null

  constructor(private readonly opts: MetricsOptions) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry })
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status class, and how long they took',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    })
    this.serverErrors = new Counter({
      name: 'http_server_errors_total',
      help: 'HTTP responses with a 5xx status, by method and route pattern',
      labelNames: ['method', 'route'],
      registers,
    })
    this.jobDuration = new Histogram({
      name: 'job_duration_seconds',
      help: 'Scheduler job runs (scheduler is the whole pass), and how long they took',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers,
    })
    this.jobFailures = new Counter({
      name: 'job_failures_total',
      help: 'Scheduler job runs that failed',
      labelNames: ['job'],
      registers,
    })
    this.jobLastSuccess = new Gauge({
      name: 'job_last_success_timestamp_seconds',
      help: 'When each scheduler job last finished without an error (Unix time)',
      labelNames: ['job'],
      registers,
    })
    this.schedulerLag = new Gauge({
      name: 'scheduler_lag_seconds',
      help: 'How late the last scheduler pass started against its interval',
      registers,
    })

    // Read at scrape time: one query for the three outbox figures, shared by both gauges.
    let depth: Promise<OutboxDepth> | null = null
    const readDepth = () =>
      (depth ??= outboxDepth(opts.db).finally(() => {
        depth = null
      }))
    new Gauge({
      name: 'email_outbox_emails',
      help: 'Emails in the outbox waiting to go (queued) or given up (failed)',
      labelNames: ['state'],
      registers,
      async collect() {
        try {
          const d = await readDepth()
          this.set({ state: 'queued' }, d.queued)
          this.set({ state: 'failed' }, d.failed)
        } catch {
          // Database unreachable: no sample rather than a stale one (its absence is the alert).
          this.reset()
        }
      },
    })
    new Gauge({
      name: 'email_outbox_oldest_queued_age_seconds',
      help: 'Age of the oldest email still waiting to go (0 when none waits)',
      registers,
      async collect() {
        try {
          const d = await readDepth()
          const at = d.oldestQueuedAt
          this.set(at ? Math.max(0, (opts.clock.now().getTime() - at.getTime()) / 1000) : 0)
        } catch {
          this.reset()
        }
      },
    })
    if (opts.pool) {
      const pool = opts.pool
      new Gauge({
        name: 'db_pool_connections',
        help: 'Database connections: total open, idle, and queries waiting for one (PGlite: one in-process connection)',
        labelNames: ['state'],
        registers,
        collect() {
          const stats = pool()
          this.set({ state: 'total' }, stats.total)
          if (stats.idle !== null) this.set({ state: 'idle' }, stats.idle)
          if (stats.waiting !== null) this.set({ state: 'waiting' }, stats.waiting)
        },
      })
    }
    new Counter({
      name: 'db_transactions_retried_total',
      help: 'Transactions run again after PostgreSQL aborted them (a deadlock or a serialization failure): each a lock order to look at',
      registers,
      collect() {
        this.reset()
        this.inc(transactionsRetried())
      },
    })
    const server = () => this.server
    new Gauge({
      name: 'http_server_connections',
      help: 'Open HTTP connections to the public server',
      registers,
      async collect() {
        const s = server()
        if (!s) return
        const open = await new Promise<number>((resolve) =>
          s.getConnections((err, count) => resolve(err ? 0 : count)),
        )
        this.set(open)
      },
    })
  }

  /**
   * Times every request of `app` by route pattern. Call before any route is registered: each
   * route gets its own onResponse hook holding its series (onRoute), and requests no route
   * matched are counted under one label.
   */
  instrumentHttp(app: FastifyInstance): void {
    this.server = app.server
    const { duration, serverErrors } = this
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      const series = new Map(
        methods.map((m) => [m, new RouteSeries(duration, serverErrors, m, route.url)] as const),
      )
      const single = methods.length === 1 ? series.get(methods[0]!)! : null
      // Callback style: no promise per request.
      const hook: onResponseHookHandler = (request, reply, done) => {
        ;(single ?? series.get(request.method))?.observe(reply)
        done()
      }
      const existing = route.onResponse
      route.onResponse = existing
        ? [...(Array.isArray(existing) ? existing : [existing]), hook]
        : [hook]
    })
    const unmatched = new Map<string, RouteSeries>()
    const unmatchedOf = (request: FastifyRequest) => {
      const method = METHODS.has(request.method) ? request.method : 'OTHER'
      let series = unmatched.get(method)
      if (!series) {
        series = new RouteSeries(duration, serverErrors, method, UNMATCHED)
        unmatched.set(method, series)
      }
      return series
    }
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) unmatchedOf(request).observe(reply)
      done()
    })
  }

  job(name: string, seconds: number, failed: boolean): void {
    let s = this.jobSeries.get(name)
    if (!s) {
      s = {
        duration: this.jobDuration.labels(name),
        failures: this.jobFailures.labels(name),
        ok: this.jobLastSuccess.labels(name),
      }
      // A job that never failed still shows its counter, at 0.
      s.failures.inc(0)
      this.jobSeries.set(name, s)
    }
    s.duration.observe(seconds)
    if (failed) s.failures.inc()
    else s.ok.set(Date.now() / 1000)
  }

  lag(seconds: number): void {
    this.schedulerLag.set(seconds)
  }
}
