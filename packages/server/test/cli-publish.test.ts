import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../src/config.ts'

const execFileAsync = promisify(execFile)

// The commands publish the same static files as the server (cli/context.ts): app-config.json
// written by `npm run import` must carry the site's settings (brand, store links), or an import on
// a live site would take them off every page until the server next republished its content.
describe('a command publishes what the server would', () => {
  it('npm run import writes app-config.json with the configured brand and store link', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-publish-'))
    // Always PGlite in a directory of its own, never a shared PostgreSQL.
    const { DATABASE_URL: _url, ...env } = process.env
    try {
      await execFileAsync(
        process.execPath,
        ['--import', 'tsx', 'packages/server/src/cli/import.ts', 'data/seasons/bbl-2025-26.json'],
        {
          cwd: REPO_ROOT,
          env: {
            ...env,
            PGLITE_DIR: path.join(dir, 'db'),
            STATIC_DIR: path.join(dir, 'static'),
            BRAND_NAME: 'Acme',
            APP_STORE_URL: 'https://apps.example/tipping',
            LOG_LEVEL: 'silent',
          },
        },
      )
      const config = JSON.parse(
        fs.readFileSync(path.join(dir, 'static', 'app-config.json'), 'utf8'),
      ) as { brand: string | null; appStoreUrl: string | null }
      expect(config).toMatchObject({ brand: 'Acme', appStoreUrl: 'https://apps.example/tipping' })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
