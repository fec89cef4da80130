import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../src/db/database.ts'
import { migrateToLatest } from '../src/db/migrate.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    postgresTemplate: string | null
  }
}

/**
 * Migrates one template database per run. PGlite tests load its data directory (well under a
 * second) instead of running initdb each time; PostgreSQL tests clone it with CREATE DATABASE.
 */
export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-template-'))
  const handle = await openDatabase({ pgliteDir: path.join(dir, 'db') })
  await migrateToLatest(handle.db)
  await handle.close()
  const tarball = path.join(dir, 'template.tar.gz')
  await dumpPgliteDir(path.join(dir, 'db'), tarball)
  project.provide('pgliteTemplate', tarball)

  project.provide('postgresTemplate', null)
  return async () => fs.rm(dir, { recursive: true, force: true })
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

async function dumpPgliteDir(dataDir: string, tarball: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create({ dataDir })
  const blob = await db.dumpDataDir('gzip')
  await fs.writeFile(tarball, Buffer.from(await blob.arrayBuffer()))
  await db.close()
}
