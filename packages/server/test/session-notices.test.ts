import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { AdjustableClock } from '../src/clock.ts'
import { testConfig } from '../src/config.ts'
import type { DatabaseHandle } from '../src/db/database.ts'
import { LISTENER_NAME } from '../src/db/listen.ts'
import { SESSION_CHANGES, SessionCache } from '../src/modules/auth/session-cache.ts'
import { engine, freshDatabase, registerUser } from './helpers.ts'

// Two API processes on one database, each with its own session cache (two apps here, on one
// handle): a change made through one, or straight in the database by a job or an operator,
// reaches the other's cache when it commits (migration 2026-11-24T0400, db/listen.ts). Without
// the notices the other would go on serving the session from memory for SESSION_CACHE_MS.

let handle: DatabaseHandle
let staticDir: string
let a: FastifyInstance
let b: FastifyInstance

beforeAll(async () => {
  handle = await freshDatabase()
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-static-'))
  const build = async () => {
    const { app } = await buildApp({
      config: testConfig({
        STATIC_DIR: staticDir,
        WEB_DIST_DIR: path.join(staticDir, 'no-web'),
        SESSION_CACHE_MS: 600_000,
      }),
      db: handle.db,
      engine: handle.engine,
      clock: new AdjustableClock(new Date('2025-12-01T00:00:00Z')),
      listen: handle.listen,
    })
    await app.ready()
    return app
  }
  a = await build()
  b = await build()
})

afterAll(async () => {
  await a.close()
  await b.close()
  await handle.close()
  await fs.rm(staticDir, { recursive: true, force: true })
})

const status = async (app: FastifyInstance, cookie: string) =>
  (await app.inject({ url: '/api/bbl/user', headers: { cookie } })).statusCode

/** PostgreSQL delivers a notice on another connection, a moment after the commit. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within the time allowed')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('session changes between processes', () => {
  it('a sign-out through one process ends the session in the other', async () => {
    const { cookie } = await registerUser(a)
    expect(await status(b, cookie)).toBe(200)
    expect(await status(b, cookie)).toBe(200)
    const out = await a.inject({
      method: 'POST',
      url: '/api/bbl/auth/logout',
      headers: { cookie },
    })
    expect(out.statusCode).toBe(200)
    await eventually(async () => (await status(b, cookie)) === 401)
  })

  it('a deactivation made straight in the database reaches every process', async () => {
    const { cookie, id } = await registerUser(a)
    expect(await status(a, cookie)).toBe(200)
    expect(await status(b, cookie)).toBe(200)
    await handle.db
      .updateTable('users')
      .set({ deactivated_at: new Date() })
      .where('id', '=', id)
      .execute()
    await eventually(async () => (await status(a, cookie)) === 401)
    await eventually(async () => (await status(b, cookie)) === 401)
  })

  it('announces ended sessions and changed users, not touches, and nothing rolled back', async () => {
    const heard: string[] = []
    const stop = await handle.listen(SESSION_CHANGES, {
      notice: (p) => heard.push(p),
      listening: () => {},
      lost: () => {},
    })
    try {
      const x = await registerUser(a)
      const y = await registerUser(a)
      const marker = async (id: number) => {
        await handle.db
          .updateTable('users')
          .set({ updated_at: new Date() })
          .where('id', '=', id)
          .execute()
        await eventually(() => heard.includes(String(id)))
      }
      await marker(y.id)
      heard.length = 0

      // Touches of last_seen_at, and a change that rolls back: nothing.
      await handle.db
        .updateTable('sessions')
        .set({ last_seen_at: new Date() })
        .where('user_id', '=', x.id)
        .execute()
      await handle.db
        .transaction()
        .execute(async (tx) => {
          await tx.updateTable('users').set({ first_name: 'Gone' }).where('id', '=', x.id).execute()
          throw new Error('roll back')
        })
        .catch(() => {})
      await marker(y.id)
      expect(heard).toEqual([String(y.id)])

      // A revoked session; one statement changing two users; a statement changing many.
      heard.length = 0
      await handle.db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', x.id)
        .execute()
      await handle.db
        .updateTable('users')
        .set({ team_name: 'Twice' })
        .where('id', 'in', [x.id, y.id])
        .execute()
      await sql`INSERT INTO users (email) SELECT 'bulk' || g || '@example.com'
        FROM generate_series(1, 501) g`.execute(handle.db)
      await sql`UPDATE users SET team_name = 'All' WHERE email LIKE 'bulk%'`.execute(handle.db)
      await eventually(() => heard.length >= 3)
      expect(heard).toEqual([String(x.id), [x.id, y.id].sort((m, n) => m - n).join(','), '*'])
    } finally {
      await stop()
    }
  })
})

// PGlite runs in the process that listens, so its notices cannot be missed: PostgreSQL only.
if (engine() === 'postgres') {
  it('serves nothing from memory while its listening connection is down, then listens again', async () => {
    const cache = new SessionCache(600_000)
    const events: string[] = []
    const follow = cache.followNotices()
    const stop = await handle.listen(SESSION_CHANGES, {
      notice: follow.notice,
      listening: () => {
        events.push('listening')
        follow.listening()
      },
      lost: () => {
        events.push('lost')
        follow.lost()
      },
    })
    try {
      const remember = () =>
        cache.set(
          Buffer.from('k'),
          { row: { id: 1 } as never, lastSeenAtMs: Date.now(), expiresAtMs: 1e13 },
          Date.now(),
          cache.generation,
        )
      remember()
      expect(cache.get(Buffer.from('k'), Date.now())).toBeDefined()
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = ${LISTENER_NAME} AND datname = current_database()`.execute(
        handle.db,
      )
      await eventually(() => events.includes('lost'))
      expect(cache.get(Buffer.from('k'), Date.now())).toBeUndefined()
      remember()
      expect(cache.size).toBe(0)
      await eventually(() => events.at(-1) === 'listening', 5000)
      remember()
      expect(cache.get(Buffer.from('k'), Date.now())).toBeDefined()
    } finally {
      await stop()
    }
  })
}
