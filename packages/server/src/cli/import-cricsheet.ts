import fs from 'node:fs/promises'
import path from 'node:path'
import { summariseCricsheet } from '@tipping/contract/cricsheet'
import { sportSchema } from '@tipping/contract/sport'
import { systemClock } from '../clock.ts'
import { currentCompetitionIn } from '../modules/competitions/service.ts'
import { importCricsheetResults } from '../modules/seasons/service.ts'
import { runCli } from './context.ts'
import { parseCliArgs, usageError } from './usage.ts'

// npm run import:cricsheet -- --sport bbl <match.json>... : completes the current season's
// fixture matches from Cricsheet files (paired by date and squads), re-scores and re-publishes.
const USAGE = `Usage: npm run import:cricsheet -- --sport bbl|wbbl <cricsheet match json>...
  Completes the current season's matches from Cricsheet match files (paired by date and squads),
  re-scores and re-publishes. Exit code 1 when a file matches no fixture match.`
const { values, positionals } = parseCliArgs(USAGE, {
  options: { sport: { type: 'string' } },
  allowPositionals: true,
})
const sport = sportSchema.safeParse(values.sport)
if (!sport.success || positionals.length === 0) usageError(USAGE)
await runCli(async ({ db, publish }) => {
  const competition = await currentCompetitionIn(db, sport.data)
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
