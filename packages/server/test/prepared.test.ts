import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PREPARED, type DatabaseHandle } from '../src/db/database.ts'
import { engine, freshDatabase } from './helpers.ts'

// db/database.ts: SQL marked PREPARED runs as a named statement on PostgreSQL (parsed and planned
// once per connection); everything else stays unnamed. On PGlite the mark is a comment.

let handle: DatabaseHandle
beforeAll(async () => {
  handle = await freshDatabase()
})
afterAll(() => handle.close())

it('runs marked statements as named ones, one name per text, with fresh values each call', async () => {
  await handle.db.connection().execute(async (c) => {
    const add = async (n: number) =>
      (await sql<{ n: number }>`${PREPARED}SELECT ${n}::int + 1 AS n`.execute(c)).rows[0]!.n
    const times = async (n: number) =>
      (await sql<{ n: number }>`${PREPARED}SELECT ${n}::int * 3 AS n`.execute(c)).rows[0]!.n
    expect(await add(1)).toBe(2)
    expect(await add(41)).toBe(42)
    expect(await times(5)).toBe(15)
    expect((await sql<{ n: number }>`SELECT ${7}::int AS n`.execute(c)).rows[0]!.n).toBe(7)
    if (engine() !== 'postgres') return
    const named = await sql<{ name: string; statement: string }>`
      SELECT name, statement FROM pg_prepared_statements ORDER BY statement`.execute(c)
    expect(named.rows.map((r) => r.statement)).toEqual([
      '/* prepared */ SELECT $1::int * 3 AS n',
      '/* prepared */ SELECT $1::int + 1 AS n',
    ])
    expect(named.rows.every((r) => /^p_[0-9a-f]{16}$/.test(r.name))).toBe(true)
  })
})
