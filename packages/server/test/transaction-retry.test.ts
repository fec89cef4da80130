import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../src/db/database.ts'
import { inTransaction, transactionsRetried } from '../src/db/transaction.ts'
import { AppError } from '../src/errors.ts'
import { engine, freshDatabase } from './helpers.ts'

// Decision 045: a transaction PostgreSQL aborts to break a deadlock is run again, not answered 500.

let handle: DatabaseHandle
beforeAll(async () => {
  handle = await freshDatabase()
  await sql`CREATE TABLE retry_probe (id int PRIMARY KEY, n int NOT NULL)`.execute(handle.db)
  await sql`INSERT INTO retry_probe VALUES (1, 0), (2, 0)`.execute(handle.db)
})
afterAll(() => handle.close())

const aborted = (code: string) => Object.assign(new Error(`aborted (${code})`), { code })

describe('inTransaction', () => {
  it('runs both of two transactions that deadlock to the end, the one PostgreSQL aborted again', async () => {
    const before = transactionsRetried()
    // Each takes its own row, waits until the other has taken its own, then asks for the other's:
    // each waits for the other, and PostgreSQL aborts one (after deadlock_timeout, 1 s). PGlite
    // has one connection, so its two run one after the other and never meet.
    let arrived = 0
    let release!: () => void
    const bothHold = new Promise<void>((resolve) => (release = resolve))
    const crossing = async (first: number, second: number) =>
      inTransaction(handle.db, async (trx) => {
        await sql`UPDATE retry_probe SET n = n + 1 WHERE id = ${first}`.execute(trx)
        if (engine() === 'postgres') {
          if (++arrived === 2) release()
          await bothHold
        }
        await sql`UPDATE retry_probe SET n = n + 10 WHERE id = ${second}`.execute(trx)
      })
    await Promise.all([crossing(1, 2), crossing(2, 1)])
    const { rows } = await sql<{
      id: number
      n: number
    }>`SELECT id, n FROM retry_probe ORDER BY id`.execute(handle.db)
    // Both transactions' changes, each once: the aborted run left nothing behind.
    expect(rows).toEqual([
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ])
    if (engine() === 'postgres') expect(transactionsRetried()).toBe(before + 1)
  })

  it('runs a transaction again after a serialization failure, at most three times in all', async () => {
    let runs = 0
    await expect(
      inTransaction(handle.db, async () => {
        runs++
        if (runs < 3) throw aborted('40001')
        return 'done'
      }),
    ).resolves.toBe('done')
    expect(runs).toBe(3)

    runs = 0
    const error = await inTransaction(handle.db, () => {
      runs++
      return Promise.reject(aborted('40P01'))
    }).catch((e: unknown) => e)
    expect(runs).toBe(3)
    expect(error).toMatchObject({ code: '40P01' })
  })

  it('does not run again what failed for any other reason, and keeps none of it', async () => {
    let runs = 0
    const error = await inTransaction(handle.db, async (trx) => {
      runs++
      await sql`UPDATE retry_probe SET n = 0`.execute(trx)
      throw new AppError('CONFLICT', 'no', 'id')
    }).catch((e: unknown) => e)
    expect(runs).toBe(1)
    expect(error).toBeInstanceOf(AppError)
    const { rows } = await sql<{ n: number }>`SELECT n FROM retry_probe`.execute(handle.db)
    expect(rows.map((r) => r.n)).toEqual([11, 11])
  })
})
