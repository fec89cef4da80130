import path from 'node:path'
import { systemClock } from '../clock.ts'
import { loadConfig, type Config } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import type { Database } from '../db/schema.ts'
import { Publisher } from '../modules/publisher/service.ts'
import { siteAppConfig } from '../modules/site/service.ts'

export interface CliContext {
  config: Config
  db: Database
  /** Re-publishes the static files after a change. */
  publish: () => Promise<void>
  /** The same publisher, for a use case that publishes what it changed itself. */
  publisher: Publisher
}

/**
 * The frame every command shares: configuration, a migrated database, a publisher; a failure is
 * printed as one line with exit code 1, and the database is always closed.
 */
export async function runCli(task: (ctx: CliContext) => Promise<number | void>): Promise<void> {
  const config = loadConfig()
  const handle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: config.PGLITE_DIR,
  })
  try {
    await migrateToLatest(handle.db)
    const publisher = new Publisher(handle.db, systemClock, {
      staticDir: config.STATIC_DIR,
      logosDir: path.join(config.DATA_DIR, 'logos'),
      matchCentreUrl: config.MATCH_CENTRE_URL,
      // The same app-config.json as the server's: a command's publish must not drop the brand.
      siteConfig: siteAppConfig(config),
      engine: handle.engine,
    })
    const code = await task({
      config,
      db: handle.db,
      publish: async () => void (await publisher.publishAll()),
      publisher,
    })
    if (typeof code === 'number') process.exitCode = code
  } catch (err) {
    console.error(err instanceof Error ? err.message : err)
    process.exitCode = 1
  } finally {
    await handle.close()
  }
}
