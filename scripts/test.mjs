// `npm test`: every test tier. Unit and integration tests run on PGlite, and on PostgreSQL too
// when DATABASE_URL is set; end-to-end specs drive Debian's Chromium against the built app.
import { buildWeb, ensureDependencies, run } from './prepare.mjs'

ensureDependencies()
buildWeb()
run('npx', ['vitest', 'run', ...process.argv.slice(2)])
