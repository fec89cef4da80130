import { systemClock } from '../clock.ts'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import {
  applyResults,
  importSeason,
  readResultsFile,
  readSeasonFile,
} from '../modules/seasons/service.ts'
import { Publisher } from '../modules/publisher/service.ts'
import path from 'node:path'

// npm run import -- data/seasons/bbl-2025-26.json [data/results/bbl-2025-26.json ...]
// A season file loads a fixture; a results file completes the matches it lists.
const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('Usage: npm run import -- <season or results file> [more files]')
  process.exit(2)
}
const config = loadConfig()
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: config.PGLITE_DIR,
})
try {
  await migrateToLatest(handle.db)
  for (const file of files) {
    const json = path.resolve(file)
    if (json.includes(`${path.sep}results${path.sep}`)) {
      const n = await applyResults(handle.db, await readResultsFile(json))
      console.log(`${file}: ${n} results applied`)
    } else {
      const id = await importSeason(handle.db, await readSeasonFile(json), {
        sponsorPrefix: config.SPONSOR_PREFIX,
      })
      console.log(`${file}: competition ${id} imported`)
    }
  }
  await new Publisher(handle.db, systemClock, {
    staticDir: config.STATIC_DIR,
    logosDir: path.join(config.DATA_DIR, 'logos'),
  }).publishAll()
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exitCode = 1
} finally {
  await handle.close()
}
