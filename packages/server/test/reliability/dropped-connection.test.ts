import pg from 'pg'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts'
import { attachCluster, sleep, type Cluster } from './harness.ts'

/**
 * A connection the database drops while a transaction holds it between two statements (the server
 * stopped or restarted, an administrator's pg_terminate_backend, a failover). pg's pool listens for
 * errors only on its idle connections; a checked-out one with no query running emitted 'error' with
 * no listener, which Node turns into an uncaught exception: the whole process died, and every
 * request in flight lost its connection (CI saw it in outage.test.ts, where PostgreSQL is stopped
 * while the scheduler's job holds a transaction). Now only that transaction fails.
 */
describe('a connection dropped while a transaction holds it', () => {
  let cluster: Cluster
  let handle: DatabaseHandle
  let admin: pg.Client

  beforeAll(async () => {
    cluster = attachCluster(inject('reliabilityCluster'))
    admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
    await admin.query('DROP DATABASE IF EXISTS tipping_dropped WITH (FORCE)')
    await admin.query('CREATE DATABASE tipping_dropped')
    handle = await openDatabase({
      databaseUrl: cluster.url.replace(/\/postgres$/, '/tipping_dropped'),
      poolSize: 2,
    })
  })

  afterAll(async () => {
    await handle?.close()
    await admin?.end()
  })

  it('fails that transaction only; the process and the pool carry on', async () => {
    const uncaught: unknown[] = []
    const onUncaught = (err: unknown) => uncaught.push(err)
    process.on('uncaughtException', onUncaught)
    try {
      const outcome = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)
          // Between two statements, nothing running on the connection: the moment a job's
          // transaction spends in Node between its queries.
          await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid])
          await sleep(200)
          await sql`SELECT 1`.execute(trx)
          return 'committed'
        })
        .catch((err: Error) => `failed: ${err.message}`)
      expect(outcome).toMatch(/^failed: /)
      expect(uncaught).toEqual([])
      // The broken connection left the pool; the next query gets a fresh one.
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db)
      expect(rows).toEqual([{ one: 1 }])
    } finally {
      process.off('uncaughtException', onUncaught)
    }
  })
})
