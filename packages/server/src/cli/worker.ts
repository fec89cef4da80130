import path from 'node:path'
import pino from 'pino'
import { systemClock } from '../clock.ts'
import { appOriginOf, loadConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { Scheduler } from '../jobs/scheduler.ts'
import { MailDelivery } from '../modules/mail/service.ts'
import { ReminderJob } from '../modules/reminders/service.ts'
import { siteAppConfig } from '../modules/site/service.ts'
import { Publisher } from '../modules/publisher/service.ts'

// `npm run worker`: the scheduler as its own process (run API processes with SCHEDULER_INTERVAL_MS=0).
const config = loadConfig()
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
})
const scheduler = new Scheduler({
  db: handle.db,
  clock: systemClock,
  publisher,
  mail: new MailDelivery(handle.db, systemClock, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    log,
  }),
  reminders: new ReminderJob(handle.db, systemClock, {
    leadHours: config.REMINDER_LEAD_HOURS,
    appOrigin: appOriginOf(config),
  }),
  log,
  intervalMs: config.SCHEDULER_INTERVAL_MS || 5000,
})
scheduler.start()
log.info('worker started')
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void scheduler
      .stop()
      .then(() => handle.close())
      .then(() => process.exit(0))
  })
}
