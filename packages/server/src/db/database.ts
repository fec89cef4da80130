import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { pgliteListen, postgresListen, type Listen } from './listen.ts'
import type { DB } from './schema.ts'

/** The connection pool's figures for the metrics (null: not something this engine has). */
export interface PoolStats {
  total: number
  idle: number | null
  waiting: number | null
}

export interface DatabaseHandle {
  db: Kysely<DB>
  engine: 'pglite' | 'postgres'
  /** Queries waiting for a pooled connection (PostgreSQL; PGlite queues inside its driver: 0). */
  waiting: () => number
  /** Open, idle and awaited connections (PGlite: its one in-process connection). */
  pool: () => PoolStats
  /** Hears the database's notices on a channel (NOTIFY), from any process's commits. */
  listen: Listen
  close(): Promise<void>
}

// BIGINT and NUMERIC come back as strings from pg by default; counts here fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10))

/**
 * Put first in a statement's SQL (sql`${PREPARED}SELECT ...`) to have PostgreSQL parse and plan
 * it once per connection and keep the plan (a named statement) instead of planning it at every
 * call. Only for statements whose best plan is the same for every value of their parameters:
 * after five calls PostgreSQL may settle on one generic plan, which on a skewed table can be far
 * worse (decision 009, "Prepared statements, by choice"). PGlite reads it as a comment.
 */
const PREPARED_TEXT = '/* prepared */ '
export const PREPARED = sql.raw(PREPARED_TEXT)

/** Each prepared text's name: from the text, so that two texts never share one (pg refuses). */
const statementNames = new Map<string, string>()
const statementName = (text: string) => {
  let name = statementNames.get(text)
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`
    statementNames.set(text, name)
  }
  return name
}

/** pg's client, running SQL that starts with PREPARED as a named statement. */
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config)
    // The pool hears a connection's 'error' only while it is idle. A connection a transaction
    // holds between two statements that the database drops (stop, restart, pg_terminate_backend)
    // would emit 'error' to no one, and Node would end the process. Heard here, the error reaches
    // its owner anyway: that transaction's next statement fails, and on release the pool discards
    // the connection (test/reliability/dropped-connection.test.ts).
    this.on('error', () => {})
    const unnamed = this.query.bind(this) as (...args: unknown[]) => unknown
    this.query = ((config: unknown, ...rest: unknown[]) => {
      if (typeof config !== 'string' || !config.startsWith(PREPARED_TEXT))
        return unnamed(config, ...rest)
      const [values, ...callback] = rest
      return unnamed({ name: statementName(config), text: config, values }, ...callback)
    }) as typeof this.query
  }
}

/**
 * The URL with `-c jit=off` put first in its startup `options`, so every session the pool opens
 * runs without PostgreSQL's JIT compiler (decision 040). The app's big statements (pick counts,
 * a round's stats, a big league's scores, the season history) are costed above jit_above_cost and
 * were compiled at every run, in the leader and in each parallel worker: compiling took longer
 * than it saved (pick counts at 1M: 1.1-1.4 s with it, 0.4-0.5 s without). Scoring already turned
 * it off for its own transactions. An operator's own `-c jit=...` in the URL comes later and wins.
 */
export function withoutJit(databaseUrl: string): string {
  let url: URL
  try {
    url = new URL(databaseUrl)
  } catch {
    // Not a URL (a form pg-connection-string reads that URL does not): left as the operator
    // wrote it, with the server's own JIT setting.
    return databaseUrl
  }
  const theirs = url.searchParams.get('options')
  url.searchParams.set('options', theirs ? `-c jit=off ${theirs}` : '-c jit=off')
  return url.toString()
}

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
      Client: PreparingClient,
      connectionString: withoutJit(opts.databaseUrl),
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
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: postgresListen(opts.databaseUrl),
      close: () => db.destroy(),
    }
  }
  if (opts.pgliteDir) fs.mkdirSync(opts.pgliteDir, { recursive: true })
  // Loaded only for the embedded database, so a process on PostgreSQL does not carry its code.
  const { PGlite } = await import('@electric-sql/pglite')
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
    pool: () => ({ total: 1, idle: null, waiting: null }),
    listen: pgliteListen(pglite),
    close: async () => {
      await db.destroy()
      if (!pglite.closed) await pglite.close()
    },
  }
}
