import fs from 'node:fs/promises'
import path from 'node:path'
import { summariseCricsheet } from '@tipping/contract/cricsheet'
import { sportSchema } from '@tipping/contract/sport'
import { systemClock } from '../clock.ts'
import { currentCompetitionIn } from '../modules/competitions/service.ts'
import { importCricsheetResults } from '../modules/results/service.ts'
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
await runCli(async ({ db, publisher }) => {
  const competition = await currentCompetitionIn(db, sport.data)
  const summaries = await Promise.all(
    positionals.map(async (f) =>
      summariseCricsheet(JSON.parse(await fs.readFile(path.resolve(f), 'utf8'))),
    ),
  )
  // The same use case as the console's upload: audited (no actor), republished when it applied any.
  const result = await importCricsheetResults({ db, publisher }, competition.id, summaries, {
    now: systemClock.now(),
    actorUserId: null,
  })
  console.log(`${result.applied.length} results applied`)
  for (const u of result.unmatched)
    console.log(`No fixture match for ${u.date} ${u.teams.join(' v ')}`)
  return result.unmatched.length > 0 ? 1 : 0
})
