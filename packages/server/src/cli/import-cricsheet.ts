import fs from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { summariseCricsheet } from '@tipping/contract/cricsheet'
import { sportSchema } from '@tipping/contract/sport'
import { systemClock } from '../clock.ts'
import { currentCompetition } from '../modules/predictions/service.ts'
import { importCricsheetResults } from '../modules/seasons/service.ts'
import { runCli } from './context.ts'

// npm run import:cricsheet -- --sport bbl <match.json>... : completes the current season's
// fixture matches from Cricsheet files (paired by date and squads), re-scores and re-publishes.
const { values, positionals } = parseArgs({
  options: { sport: { type: 'string' } },
  allowPositionals: true,
})
const sport = sportSchema.safeParse(values.sport)
if (!sport.success || positionals.length === 0) {
  console.error('Usage: npm run import:cricsheet -- --sport bbl|wbbl <cricsheet match json>...')
  process.exit(2)
}
await runCli(async ({ db, publish }) => {
  const competition = await currentCompetition(db, sport.data)
  const summaries = await Promise.all(
    positionals.map(async (f) =>
      summariseCricsheet(JSON.parse(await fs.readFile(path.resolve(f), 'utf8'))),
    ),
  )
  const result = await importCricsheetResults(db, competition.id, summaries, systemClock.now())
  console.log(`${result.applied.length} results applied`)
  for (const u of result.unmatched)
    console.log(`No fixture match for ${u.date} ${u.teams.join(' v ')}`)
  await publish()
  return result.unmatched.length > 0 ? 1 : 0
})
