import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../src/config.ts'

// The first hour with the project (issue 28): every command answers --help with its usage, and a
// call it cannot understand gets the usage and exit code 2, not a stack trace or an attempt to
// open a file called --help.

const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    // No database settings: --help must answer before configuration or a database is touched.
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    timeout: 60_000,
  })

const COMMANDS: [string, string, string[]][] = [
  ['npm run import', 'packages/server/src/cli/import.ts', []],
  ['npm run import:cricsheet', 'packages/server/src/cli/import-cricsheet.ts', []],
  ['npm run admin:create', 'packages/server/src/cli/admin-create.ts', []],
  ['npm run migrate', 'packages/server/src/cli/migrate.ts', []],
  ['npm run worker', 'packages/server/src/cli/worker.ts', []],
  ['npm run backup', 'packages/server/src/cli/backup.ts', ['backup']],
  ['npm run restore', 'packages/server/src/cli/backup.ts', ['restore']],
  ['npm run bench', 'bench/src/run.ts', []],
  ['npm run soak', 'packages/server/test/reliability/soak.ts', []],
]

describe('every command line answers --help', () => {
  it.each(COMMANDS)('%s -- --help prints its usage and exits 0', (name, script, before) => {
    // -h too, once: every command reads flags through the same answerHelp.
    const r = run(script, ...before, name === 'npm run import' ? '-h' : '--help')
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^Usage:/)
    expect(r.stdout).toContain(name.replace('npm run ', ''))
    expect(r.stderr).toBe('')
  })

  it.each([
    ['packages/server/src/cli/import.ts', ['--sport']],
    ['packages/server/src/cli/import-cricsheet.ts', ['--nope']],
    ['packages/server/src/cli/migrate.ts', ['extra']],
    ['packages/server/src/cli/backup.ts', ['backup', '--nope']],
    ['bench/src/run.ts', ['--nope']],
  ])('%s %j: the usage on stderr, exit 2, no stack trace', (script, args) => {
    const r = run(script, ...args)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('Usage:')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})
