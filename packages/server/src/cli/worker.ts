import path from 'node:path'
import pino from 'pino'
import { systemClock } from '../clock.ts'
import { appOriginOf, loadServingConfig, signingSecretOf, type Config } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { Scheduler } from '../jobs/scheduler.ts'
import { MailDelivery } from '../modules/mail/service.ts'
import { ReminderJob } from '../modules/reminders/service.ts'
import { siteAppConfig } from '../modules/site/service.ts'
import { Publisher } from '../modules/publisher/service.ts'
import { Metrics } from '../modules/ops/service.ts'
import { serveMetrics } from '../modules/ops/metrics-server.ts'
import { answerHelp, usageError } from './usage.ts'

// `npm run worker`: the scheduler as its own process (run API processes with SCHEDULER_INTERVAL_MS=0).
// The worker sends mail and publishes: the same production refusal as the server, before it starts.
const USAGE = `Usage: npm run worker
  Runs the scheduler (lockouts, scoring, publishing, mail, reminders) as its own process; run the
  API processes with SCHEDULER_INTERVAL_MS=0. Configured by the same environment as the server.`
answerHelp(USAGE)
if (process.argv.length > 2) usageError(USAGE)
let config: Config
try {
  config = loadServingConfig()
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}
const log = pino({ level: config.LOG_LEVEL })
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: config.PGLITE_DIR,
})
await migrateToLatest(handle.db)
const publisher = new Publisher(handle.db, systemClock, {
  staticDir: config.STATIC_DIR,
  logosDir: path.join(config.DATA_DIR, 'logos'),
  matchCentreUrl: config.MATCH_CENTRE_URL,
  siteConfig: siteAppConfig(config),
  engine: handle.engine,
})
// With METRICS_PORT set, the worker serves its own job metrics (durations, failures, lag), the
// outbox depth, its pool and the process figures on that port.
const metrics =
  config.METRICS_PORT === undefined
    ? null
    : new Metrics({ db: handle.db, clock: systemClock, pool: handle.pool })
const scheduler = new Scheduler({
  db: handle.db,
  clock: systemClock,
  publisher,
  mail: new MailDelivery(handle.db, systemClock, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    log,
    unsubscribe: { origin: appOriginOf(config), secret: signingSecretOf(config) },
  }),
  reminders: new ReminderJob(handle.db, systemClock, {
    leadHours: config.REMINDER_LEAD_HOURS,
    appOrigin: appOriginOf(config),
  }),
  log,
  intervalMs: config.SCHEDULER_INTERVAL_MS || 5000,
  pickSplitEveryMs: config.PICK_SPLIT_EVENT_MS,
  metrics: metrics ?? undefined,
})
scheduler.start()
const metricsServer =
  metrics && config.METRICS_PORT !== undefined
    ? await serveMetrics(metrics.registry, { host: config.METRICS_HOST, port: config.METRICS_PORT })
    : null
log.info(metricsServer ? { metrics: `${metricsServer.url}/metrics` } : {}, 'worker started')
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void scheduler
      .stop()
      .then(() => metricsServer?.close())
      .then(() => handle.close())
      .then(() => process.exit(0))
  })
}
