// Shared by `npm start` and `npm test`: install what is missing and build the web app,
// so both work as the first command on a fresh clone.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts })
  if (res.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.signal})`)
    process.exit(res.status ?? 1)
  }
}

/** npm install when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules/.package-lock.json')
  const lock = path.join(root, 'package-lock.json')
  const stale = !fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(lock).mtimeMs
  if (stale) {
    console.log('Installing dependencies (npm install)...')
    run('npm', ['install', '--no-audit', '--no-fund'])
  }
}

export function buildWeb() {
  console.log('Building the web app...')
  run('npm', ['run', 'build', '-w', 'packages/web'])
}
