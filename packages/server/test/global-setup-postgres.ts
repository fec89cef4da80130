import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../src/db/database.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { withDatabase } from './global-setup.ts'

/**
 * The same integration suite on a real PostgreSQL server (project `server-postgres`, present when
 * DATABASE_URL is set): one migrated template database, cloned per test file.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('server-postgres needs DATABASE_URL')
  const template = `tipping_template_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${template}`)
  await admin.query(`CREATE DATABASE ${template}`)
  const handle = await openDatabase({ databaseUrl: withDatabase(url, template) })
  await migrateToLatest(handle.db)
  await handle.close()
  project.provide('postgresTemplate', template)
  project.provide('pgliteTemplate', '')
  return async () => {
    const stale = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'tipping_test_%' OR datname = $1`,
      [template],
    )
    for (const { datname } of stale.rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
    await admin.end()
  }
}
