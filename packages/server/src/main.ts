import { AdjustableClock, systemClock, type Clock } from './clock.ts'
import { appOriginOf, loadServingConfig, signingSecretOf, type Config } from './config.ts'
import { openDatabase } from './db/database.ts'
import { migrateToLatest } from './db/migrate.ts'
import {
  DEMO_ADMIN_EMAIL,
  DEMO_ADMIN_PASSWORD,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  seedDemo,
} from './seed/demo.ts'
import { hasCompetitions } from './seed/queries.ts'
import { buildApp } from './app.ts'
import { Scheduler } from './jobs/scheduler.ts'
import { MailDelivery } from './modules/mail/service.ts'
import { ReminderJob } from './modules/reminders/service.ts'
import { serveMetrics, type MetricsServer } from './modules/ops/metrics-server.ts'
import { DEV_SSO_ACCOUNTS, DEV_SSO_PASSWORD } from './idp/accounts.ts'
import { usesDevProvider } from './modules/sso/setup.ts'

function makeClock(config: Config): Clock {
  if (config.CLOCK_NOW) return new AdjustableClock(new Date(config.CLOCK_NOW))
  return config.ENABLE_TEST_ROUTES ? new AdjustableClock() : systemClock
}

async function main(): Promise<void> {
  // Before the database is opened: an unsafe production start seeds nothing and serves nothing.
  const config = loadServingConfig()
  const handle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.PGLITE_DIR,
    poolSize: config.DB_POOL_SIZE,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
  })
  await migrateToLatest(handle.db)
  const clock = makeClock(config)

  let demo: Awaited<ReturnType<typeof seedDemo>> | null = null
  if (config.SEED === 'demo' && !(await hasCompetitions(handle.db))) {
    demo = await seedDemo(handle.db, {
      dataDir: config.DATA_DIR,
      sponsorPrefix: config.SPONSOR_PREFIX,
      now: clock.now(),
      users: config.DEMO_USERS,
    })
  }

  const { app, publisher, metrics } = await buildApp({
    config,
    db: handle.db,
    engine: handle.engine,
    clock,
    dbWaiting: handle.waiting,
    listen: handle.listen,
    dbPool: handle.pool,
  })
  await publisher.publishAll()
  const scheduler = new Scheduler({
    db: handle.db,
    clock,
    publisher,
    mail: new MailDelivery(handle.db, clock, {
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      log: app.log,
      unsubscribe: { origin: appOriginOf(config), secret: signingSecretOf(config) },
    }),
    reminders: new ReminderJob(handle.db, clock, {
      leadHours: config.REMINDER_LEAD_HOURS,
      appOrigin: appOriginOf(config),
    }),
    log: app.log,
    intervalMs: config.SCHEDULER_INTERVAL_MS,
    pickSplitEveryMs: config.PICK_SPLIT_EVENT_MS,
    metrics: metrics ?? undefined,
  })
  if (config.SCHEDULER_INTERVAL_MS > 0) scheduler.start()

  let metricsServer: MetricsServer | null = null
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    // Stop taking requests, let those in flight finish, then close the database.
    await scheduler.stop()
    await metricsServer?.close()
    await app.close()
    await handle.close()
    process.exit(0)
  }
  // A promise nobody awaited failing (e.g. a query cut off when the database stops) is logged,
  // not fatal: every request and job handles its own errors, so the process state is sound.
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled rejection')
  })
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  const address = await app.listen({ port: config.PORT, host: config.HOST })
  if (metrics && config.METRICS_PORT !== undefined) {
    metricsServer = await serveMetrics(metrics.registry, {
      host: config.METRICS_HOST,
      port: config.METRICS_PORT,
    })
    app.log.info({ url: `${metricsServer.url}/metrics` }, 'metrics listening')
  }
  const where = handle.engine === 'postgres' ? 'PostgreSQL' : `PGlite at ${config.PGLITE_DIR}`
  console.log(
    `\nBig Bash Tipping is up at ${address.replace('127.0.0.1', 'localhost')} (database: ${where})`,
  )
  if (demo) console.log(`Demo season seeded with ${demo.users} simulated tippers.`)
  if (config.SEED === 'demo') {
    console.log(
      `Demo account: email ${demo?.email ?? DEMO_EMAIL}  password ${demo?.password ?? DEMO_PASSWORD}`,
    )
    console.log(
      `Admin console (/admin): email ${DEMO_ADMIN_EMAIL}  password ${DEMO_ADMIN_PASSWORD}\n`,
    )
  }
  if (usesDevProvider(config)) {
    // Single sign-on runs against the development provider mounted at /oidc.
    const emails = DEV_SSO_ACCOUNTS.map((a) => a.email).join(', ')
    console.log(`Sign in with Big Bash Account (development provider): ${emails}`)
    console.log(`  password ${DEV_SSO_PASSWORD}\n`)
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
