import fs from 'node:fs'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { DB } from './schema.ts'

export interface DatabaseHandle {
  db: Kysely<DB>
  engine: 'pglite' | 'postgres'
  /** Queries waiting for a pooled connection (PostgreSQL; PGlite queues inside its driver: 0). */
  waiting: () => number
  close(): Promise<void>
}

// BIGINT and NUMERIC come back as strings from pg by default; counts here fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10))

export interface DatabaseOptions {
  databaseUrl?: string | undefined
  pgliteDir?: string | undefined
  /** A tarball of a migrated data directory (tests load it instead of running initdb). */
  pgliteLoadDataDir?: Blob | undefined
  poolSize?: number
  /** How long a query waits for a connection (PostgreSQL down: fail fast, answer 503). */
  connectTimeoutMs?: number
}

/**
 * PostgreSQL when a URL is given, otherwise PGlite persisted under pgliteDir (ARCHITECTURE.md:
 * one SQL dialect). PGlite is one connection; Kysely's PGlite driver queues queries on it.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    })
    // An idle connection the server drops (restart, failover, a dropped test database) emits
    // 'error' on the pool; unheard, that would crash the process. The pool replaces it on demand.
    pool.on('error', (err) => {
      process.emitWarning(`PostgreSQL dropped an idle connection: ${err.message}`)
    })
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    return {
      db,
      engine: 'postgres',
      waiting: () => pool.waitingCount,
      close: () => db.destroy(),
    }
  }
  if (opts.pgliteDir) fs.mkdirSync(opts.pgliteDir, { recursive: true })
  const pglite = await PGlite.create({
    ...(opts.pgliteDir ? { dataDir: opts.pgliteDir } : {}),
    ...(opts.pgliteLoadDataDir ? { loadDataDir: opts.pgliteLoadDataDir } : {}),
  })
  // PGlite's integer-8 parser: keep numbers as numbers for counts.
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) })
  return {
    db,
    engine: 'pglite',
    waiting: () => 0,
    close: async () => {
      await db.destroy()
      if (!pglite.closed) await pglite.close()
    },
  }
}
