import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { REPO_ROOT } from '../../src/config.ts'
import { openDatabase } from '../../src/db/database.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { seedDemo } from '../../src/seed/demo.ts'
import { attachCluster, seededDatabase, type Cluster } from './harness.ts'

/**
 * Backups (docs/RELIABILITY.md): `npm run backup` then `npm run restore`, exactly as an operator
 * types them, on both engines. A demo season is backed up, the database wiped (or damaged), and
 * the restore must give back every table with the same row count and the same content checksum.
 */

type Query = (sql: string) => Promise<Record<string, unknown>[]>
type Fingerprint = Record<string, { rows: number; md5: string }>

/** Row count and an order-independent checksum of every table's content. */
async function fingerprint(query: Query): Promise<Fingerprint> {
  const tables = await query(
    `select table_name as name from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )
  const result: Fingerprint = {}
  for (const { name } of tables) {
    const [row] = await query(
      `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '')
       as md5 from "${String(name)}" t`,
    )
    result[String(name)] = { rows: Number(row!.rows), md5: String(row!.md5) }
  }
  return result
}

async function postgresFingerprint(url: string): Promise<Fingerprint> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fingerprint(async (sql) => (await client.query(sql)).rows)
  } finally {
    await client.end()
  }
}

async function pgliteFingerprint(dir: string): Promise<Fingerprint> {
  const db = await PGlite.create({ dataDir: dir })
  try {
    return await fingerprint(async (sql) => (await db.query<Record<string, unknown>>(sql)).rows)
  } finally {
    await db.close()
  }
}

/** `npm run <script> -- <args>` from the repo root with only the given database configured. */
function npmRun(script: 'backup' | 'restore', args: string[], db: Record<string, string>) {
  const env = { ...process.env, ...db }
  if (!('DATABASE_URL' in db)) delete env.DATABASE_URL
  const run = spawnSync('npm', ['run', '--silent', script, '--', ...args], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
  })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

let work: string
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-rel-backup-'))
})
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true })
})

describe('PostgreSQL backup and restore', () => {
  let cluster: Cluster
  let url: string
  beforeAll(async () => {
    cluster = attachCluster(inject('reliabilityCluster'))
    url = await seededDatabase(cluster, 'tipping_backup')
  })

  async function recreateEmpty() {
    const admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
    await admin.query('DROP DATABASE tipping_backup WITH (FORCE)')
    await admin.query('CREATE DATABASE tipping_backup')
    await admin.end()
  }

  it('round-trips the demo season through pg_dump/pg_restore, onto a damaged and a new database', async () => {
    const before = await postgresFingerprint(url)
    expect(before.tips!.rows).toBeGreaterThan(0)
    expect(before.users!.rows).toBeGreaterThan(0)
    const file = path.join(work, 'season.dump')

    const started = Date.now()
    const made = npmRun('backup', ['--out', file], { DATABASE_URL: url })
    const backupMs = Date.now() - started
    expect(made.status, made.output).toBe(0)
    expect(fs.statSync(file).size).toBeGreaterThan(0)

    // Damaged: rows lost and changed after the backup; the restore puts back the backed-up state.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('delete from tips where match_id % 2 = 0')
    await client.query(`update users set first_name = 'Changed'`)
    await client.end()
    expect(await postgresFingerprint(url)).not.toEqual(before)
    const fixed = npmRun('restore', ['--in', file], { DATABASE_URL: url })
    expect(fixed.status, fixed.output).toBe(0)
    expect(await postgresFingerprint(url)).toEqual(before)

    // Wiped: a new, empty database.
    await recreateEmpty()
    expect(await postgresFingerprint(url)).toEqual({})
    const restoreStarted = Date.now()
    const restored = npmRun('restore', ['--in', file], { DATABASE_URL: url })
    const restoreMs = Date.now() - restoreStarted
    expect(restored.status, restored.output).toBe(0)
    expect(await postgresFingerprint(url)).toEqual(before)
    console.log(
      `[reliability] backup postgres: ${JSON.stringify({
        tables: Object.keys(before).length,
        rows: Object.values(before).reduce((s, t) => s + t.rows, 0),
        bytes: fs.statSync(file).size,
        backupMs,
        restoreMs,
      })}`,
    )
  })

  it('fails loudly, changing nothing, on a backup that is not one', async () => {
    const before = await postgresFingerprint(url)
    const junk = path.join(work, 'junk.dump')
    fs.writeFileSync(junk, 'not a backup')
    const run = npmRun('restore', ['--in', junk], { DATABASE_URL: url })
    expect(run.status).not.toBe(0)
    expect(await postgresFingerprint(url)).toEqual(before)
  })
})

describe('PGlite backup and restore', () => {
  let dir: string
  beforeAll(async () => {
    dir = path.join(work, 'pglite')
    const handle = await openDatabase({ pgliteDir: dir })
    await migrateToLatest(handle.db)
    await seedDemo(handle.db, {
      dataDir: path.join(REPO_ROOT, 'data'),
      sponsorPrefix: 'xyz',
      now: new Date(),
      users: 2,
    })
    await handle.close()
  })

  it('round-trips the data directory (server stopped), refusing to overwrite without --force, restoring into a new directory with it', async () => {
    const before = await pgliteFingerprint(dir)
    expect(before.tips!.rows).toBeGreaterThan(0)
    const file = path.join(work, 'season.tar.gz')
    const made = npmRun('backup', ['--out', file], { PGLITE_DIR: dir })
    expect(made.status, made.output).toBe(0)

    // Damaged after the backup; a restore without --force leaves the directory alone.
    const db = await PGlite.create({ dataDir: dir })
    await db.query('delete from tips')
    const [left] = (await db.query<{ n: number }>('select count(*)::int as n from tips')).rows
    await db.close()
    expect(left!.n).toBe(0)
    const refused = npmRun('restore', ['--in', file], { PGLITE_DIR: dir })
    expect(refused.status).toBe(1)
    expect(refused.output).toContain('--force')
    const aside = () => fs.readdirSync(work).filter((f) => f.startsWith('pglite.before-restore-'))
    expect(aside()).toEqual([])

    // --force: the damaged directory is moved aside and the backup unpacked into a new one (the
    // same path as a restore into a wiped directory).
    const forced = npmRun('restore', ['--in', file, '--force'], { PGLITE_DIR: dir })
    expect(forced.status, forced.output).toBe(0)
    expect(await pgliteFingerprint(dir)).toEqual(before)
    expect(aside()).toHaveLength(1)
  })
})
