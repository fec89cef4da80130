import fs from 'node:fs/promises'
import path from 'node:path'
import { matchIdParamSchema } from '@tipping/contract/ids'
import { sportSchema } from '@tipping/contract/sport'
import { systemClock } from '../clock.ts'
import { replayCricsheet } from '../modules/live/feed.ts'
import { LiveService } from '../modules/live/service.ts'
import { ResultsService } from '../modules/results/service.ts'
import { runCli } from './context.ts'
import { parseCliArgs, usageError } from './usage.ts'

// npm run feed:replay -- --sport bbl --match <id> --file <cricsheet json> [--speed 60]
// [--no-result]: plays a Cricsheet match, ball by ball, as the live feed of a fixture match in
// progress, through the same live service an admin's entry uses; then sets its result through the
// result use case (re-scores, re-publishes). Every API process on the same database pushes each
// ball to its open pages (decision 015).
const USAGE = `Usage: npm run feed:replay -- --sport bbl|wbbl --match <fixture match id> --file <cricsheet match json> [--speed 60] [--no-result]
  Replays a Cricsheet match file as the live feed of a fixture match in progress (its squads
  matched by name), one live score per delivery. --speed is times real time (a ball every
  40 s at 1; 60 plays a match in about three minutes). At the end the match's result is set
  and scored, unless --no-result.`
const { values } = parseCliArgs(USAGE, {
  options: {
    sport: { type: 'string' },
    match: { type: 'string' },
    file: { type: 'string' },
    speed: { type: 'string', default: '60' },
    'no-result': { type: 'boolean', default: false },
  },
})
const sport = sportSchema.safeParse(values.sport)
// The match id is read as a path's would be (a positive row id), and so comes out a MatchId.
const matchId = matchIdParamSchema.safeParse(values.match)
const speed = Number(values.speed)
if (!sport.success) usageError(USAGE, '--sport must be bbl or wbbl')
if (!matchId.success) usageError(USAGE, '--match must be a match id')
if (!values.file) usageError(USAGE, '--file is required')
if (!Number.isFinite(speed) || speed <= 0) usageError(USAGE, '--speed must be a positive number')
const file = path.resolve(values.file)

await runCli(async ({ db, publisher }) => {
  const raw: unknown = JSON.parse(await fs.readFile(file, 'utf8'))
  const results = new ResultsService(db, systemClock, publisher)
  let shown = ''
  const { balls, result } = await replayCricsheet(db, new LiveService(db, systemClock), {
    sport: sport.data,
    matchId: matchId.data,
    file: raw,
    speed,
    ...(values['no-result']
      ? {}
      : { setResult: (s, id, body) => results.setResult(s, id, body, null) }),
    onBall: (body) => {
      const line = body.innings.map((i) => `${i.runs}/${i.wickets} (${i.overs})`).join(', ')
      if (line !== shown) console.log(line)
      shown = line
    },
  })
  console.log(
    `${balls} deliveries replayed` + (result ? `; result set: ${result.outcome}` : '; no result'),
  )
})
