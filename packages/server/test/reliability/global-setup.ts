import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { REPO_ROOT } from '../../src/config.ts'
import { openDatabase } from '../../src/db/database.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { seedDemo } from '../../src/seed/demo.ts'
import path from 'node:path'
import { SEEDED_TEMPLATE, startCluster } from './harness.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    reliabilityCluster: { dataDir: string; port: number }
  }
}

/**
 * The reliability project's own PostgreSQL cluster (never the one in DATABASE_URL: these tests stop
 * and crash it), with the demo season seeded once into a template database each file copies.
 */
export default async function setup(project: TestProject) {
  const cluster = await startCluster()
  const admin = new pg.Client({ connectionString: cluster.url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${SEEDED_TEMPLATE}`)
  await admin.end()
  const handle = await openDatabase({
    databaseUrl: cluster.url.replace(/\/postgres$/, `/${SEEDED_TEMPLATE}`),
  })
  await migrateToLatest(handle.db)
  await seedDemo(handle.db, {
    dataDir: path.join(REPO_ROOT, 'data'),
    sponsorPrefix: 'xyz',
    now: new Date(),
    users: 40,
  })
  await handle.close()
  project.provide('reliabilityCluster', { dataDir: cluster.dataDir, port: cluster.port })
  return () => cluster.destroy()
}
