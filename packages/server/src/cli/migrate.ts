import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { answerHelp, usageError } from './usage.ts'

const USAGE = `Usage: npm run migrate
  Applies the database migrations not yet applied (DATABASE_URL, else PGLITE_DIR).`
answerHelp(USAGE)
if (process.argv.length > 2) usageError(USAGE)

const config = loadConfig()
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: config.PGLITE_DIR,
})
try {
  const applied = await migrateToLatest(handle.db)
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Schema is up to date')
} finally {
  await handle.close()
}
