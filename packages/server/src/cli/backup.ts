import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { REPO_ROOT, loadConfig } from '../config.ts'
import { parseCliArgs } from './usage.ts'

/**
 * `npm run backup [-- --out FILE]` and `npm run restore -- --in FILE [--force]` for the engine the
 * configuration names (docs/RELIABILITY.md, "Backups").
 *
 * PostgreSQL (DATABASE_URL set): pg_dump's custom format, a consistent snapshot taken while the
 * server runs; restore is pg_restore --clean in one transaction (all or nothing). Restart the
 * server afterwards so nothing it cached outlives the old data.
 *
 * PGlite (PGLITE_DIR): a gzip tarball of the data directory made by PGlite itself. PGlite is one
 * process: only back up or restore while the server is STOPPED (two processes on one data directory
 * corrupt it). Restore refuses a non-empty directory unless --force, and then moves it aside.
 */

const USAGE = `Usage:
  npm run backup [-- --out FILE]
  npm run restore -- --in FILE [--force]`

/** pg_dump/pg_restore: PG_BIN, else the newest /usr/lib/postgresql/<v>/bin, else PATH. */
export function postgresTool(name: 'pg_dump' | 'pg_restore'): string {
  if (process.env.PG_BIN) return path.join(process.env.PG_BIN, name)
  const base = '/usr/lib/postgresql'
  if (fs.existsSync(base)) {
    const newest = fs
      .readdirSync(base)
      .filter((v) => fs.existsSync(path.join(base, v, 'bin', name)))
      .sort((a, b) => Number(a) - Number(b))
      .at(-1)
    if (newest) return path.join(base, newest, 'bin', name)
  }
  return name
}

/** Paths as typed: npm runs scripts from the repo root, INIT_CWD is where the command was typed. */
function fromCwd(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file)
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-')
}

async function backup(out: string | undefined): Promise<string> {
  const config = loadConfig()
  if (config.DATABASE_URL) {
    const file = out ?? path.join(REPO_ROOT, 'backups', `tipping-postgres-${stamp()}.dump`)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    execFileSync(
      postgresTool('pg_dump'),
      ['--format=custom', '--no-owner', `--file=${file}`, config.DATABASE_URL],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    )
    return file
  }
  const dir = config.PGLITE_DIR
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new Error(`No PGlite database in ${dir} (set PGLITE_DIR, or DATABASE_URL for PostgreSQL)`)
  }
  const file = out ?? path.join(REPO_ROOT, 'backups', `tipping-pglite-${stamp()}.tar.gz`)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const pglite = await PGlite.create({ dataDir: dir })
  try {
    const tarball = await pglite.dumpDataDir('gzip')
    fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()))
  } finally {
    await pglite.close()
  }
  return file
}

async function restore(file: string, force: boolean): Promise<string> {
  if (!fs.existsSync(file)) throw new Error(`No backup at ${file}`)
  const config = loadConfig()
  if (config.DATABASE_URL) {
    execFileSync(
      postgresTool('pg_restore'),
      [
        '--clean',
        '--if-exists',
        '--no-owner',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${config.DATABASE_URL}`,
        file,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    )
    return 'PostgreSQL database restored (restart the server)'
  }
  const dir = config.PGLITE_DIR
  let movedTo = ''
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    if (!force) {
      throw new Error(
        `${dir} is not empty: stop the server and pass --force (the directory is moved aside)`,
      )
    }
    movedTo = `${dir}.before-restore-${stamp()}`
    fs.renameSync(dir, movedTo)
  }
  fs.mkdirSync(dir, { recursive: true })
  const pglite = await PGlite.create({
    dataDir: dir,
    loadDataDir: new Blob([fs.readFileSync(file)]),
  })
  try {
    await pglite.query('select 1')
  } finally {
    await pglite.close()
  }
  return `PGlite data directory ${dir} restored${movedTo ? ` (previous one kept in ${movedTo})` : ''}`
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2)
  const { values } = parseCliArgs(USAGE, {
    args: rest,
    options: {
      out: { type: 'string' },
      in: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  })
  if (command === 'backup') {
    console.log(`Backup written to ${await backup(values.out && fromCwd(values.out))}`)
  } else if (command === 'restore' && values.in) {
    console.log(await restore(fromCwd(values.in), values.force))
  } else {
    console.error(USAGE)
    process.exitCode = 2
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
})
