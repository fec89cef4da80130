import path from 'node:path'
import { systemClock } from '../clock.ts'
import { applyResultsFile, readResultsFile } from '../modules/results/service.ts'
import { importSeason, readSeasonFile } from '../modules/seasons/service.ts'
import { runCli } from './context.ts'
import { answerHelp, usageError } from './usage.ts'

// npm run import -- data/seasons/bbl-2025-26.json [data/results/bbl-2025-26.json ...]
// A season file loads a fixture; a results file completes the matches it lists.
const USAGE = `Usage: npm run import -- <season or results file> [more files]
  A season file (data/seasons/) loads a competition's fixture; a results file (a path with a
  results/ folder, as data/results/) completes the matches it lists. Then re-publishes.`
answerHelp(USAGE)
const files = process.argv.slice(2)
if (files.length === 0) usageError(USAGE)
const option = files.find((f) => f.startsWith('-'))
if (option) usageError(USAGE, `Unknown option ${option}`)
await runCli(async ({ config, db, publish }) => {
  for (const file of files) {
    const json = path.resolve(file)
    if (json.includes(`${path.sep}results${path.sep}`)) {
      const n = await applyResultsFile({ db }, await readResultsFile(json))
      console.log(`${file}: ${n} results applied`)
    } else {
      // As in the admin console: a round already started keeps its margin game.
      const id = await importSeason(db, await readSeasonFile(json), {
        sponsorPrefix: config.SPONSOR_PREFIX,
        now: systemClock.now(),
      })
      console.log(`${file}: competition ${id} imported`)
    }
  }
  await publish()
})
