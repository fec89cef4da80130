import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ResultsFile } from '@tipping/contract/season-file'
import { roundsFileSchema } from '@tipping/contract/static-files'
import { REPO_ROOT } from '../src/config.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { applyResultsFile } from '../src/modules/results/service.ts'
import { importSeason, readSeasonFile } from '../src/modules/seasons/service.ts'
import {
  createTestApp,
  makeAdmin,
  registerUser,
  replaySeasonFile,
  seasonPath,
  type TestApp,
} from './helpers.ts'

// One result, entered through each of its three doors on a fresh database each: the console's
// result form, a results file (npm run import, the demo seed) and a Cricsheet upload. Whichever
// door, the same match is stored, the same scores follow, and the same audit rows are written.

const CRICSHEET = path.join(REPO_ROOT, 'data/source/cricsheet/bbl-2023-24')
/** Sydney Sixers 175/6 (20) beat Melbourne Renegades 167/7 (20), 13 sixes: a margin game here. */
const cricsheetFile = JSON.parse(fs.readFileSync(path.join(CRICSHEET, '1386095.json'), 'utf8'))
const AFTER = new Date('2023-12-09T00:00:00Z')

const apps: TestApp[] = []
afterAll(() => Promise.all(apps.map((t) => t.close())))

/** A one-round replay season (Heat v Stars, then Sixers v Renegades as the margin game). */
async function replaySeason(t: TestApp): Promise<void> {
  const season = await replaySeasonFile(
    [
      { date: '2023-12-07', teams: ['Brisbane Heat', 'Melbourne Stars'] },
      { date: '2023-12-08', teams: ['Sydney Sixers', 'Melbourne Renegades'] },
    ],
    1,
  )
  await importSeason(t.db, season, { sponsorPrefix: 'xyz' })
}

interface Setting {
  t: TestApp
  admin: { cookie: string; id: number }
  tipper: { id: number }
  match: { id: number; home: number; away: number }
  competitionId: number
}

/** A fresh app with the season, an admin, and a tipper who tipped both matches before they began. */
async function setting(): Promise<Setting> {
  const t = await createTestApp({ now: new Date('2023-12-01T00:00:00Z') })
  apps.push(t)
  await replaySeason(t)
  const admin = await registerUser(t.app)
  await makeAdmin(t.db, admin.id)
  const tipper = await registerUser(t.app)
  const matches = await t.db
    .selectFrom('matches')
    .select(['id', 'number', 'home_squad_id as home', 'away_squad_id as away', 'competition_id'])
    .orderBy('number')
    .execute()
  const tipped = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: tipper.cookie },
    payload: {
      predictions: matches.map((m) => ({
        match: m.id,
        squad: m.home,
        margin: m.number === 2 ? 10 : null,
      })),
    },
  })
  expect(tipped.statusCode).toBe(200)
  t.clock.set(AFTER)
  const m = matches[1]!
  return {
    t,
    admin,
    tipper,
    match: { id: m.id, home: m.home, away: m.away },
    competitionId: m.competition_id,
  }
}

/** Everything the result leaves behind, with ids that differ between databases left out. */
async function outcome(s: Setting) {
  const { t } = s
  const match = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .leftJoin('squads', 'squads.id', 'matches.winner_squad_id')
    .select([
      'matches.status',
      'rounds.status as round_status',
      'outcome',
      'squads.code as winner',
      'home_runs',
      'home_wickets',
      'home_balls',
      'home_balls_allotted',
      'home_nrr_runs',
      'home_nrr_balls',
      'away_runs',
      'away_wickets',
      'away_balls',
      'away_balls_allotted',
      'away_nrr_runs',
      'away_nrr_balls',
      'sixes',
      'sixes_simulated',
      'method',
      'cricsheet_id',
      'completed_at',
    ])
    .where('matches.id', '=', s.match.id)
    .executeTakeFirstOrThrow()
  const round = await t.db
    .selectFrom('round_scores')
    .select(['points', 'bonus', 'margin', 'correct', 'rank'])
    .where('user_id', '=', s.tipper.id)
    .execute()
  const standing = await t.db
    .selectFrom('standings')
    .select(['total_points', 'rank'])
    .where('user_id', '=', s.tipper.id)
    .execute()
  const audit = await t.db
    .selectFrom('audit_log')
    .select(['action', 'entity', 'entity_id', 'data', 'created_at'])
    .where('action', 'like', 'result.%')
    .orderBy('id')
    .execute()
  const published = roundsFileSchema.parse(
    JSON.parse(fs.readFileSync(path.join(t.staticDir, 'bbl/rounds.json'), 'utf8')),
  )
  return { match, round, standing, audit, published: published.rounds[0]!.matches[1] }
}

describe('applying a result is one use case, whichever door', () => {
  it('stores the same match, scores and audit rows from the console, a results file and Cricsheet', async () => {
    // The console's result form.
    const consoleDoor = await setting()
    const res = await consoleDoor.t.app.inject({
      method: 'POST',
      url: `/api/admin/bbl/matches/${consoleDoor.match.id}/result`,
      headers: { cookie: consoleDoor.admin.cookie },
      payload: {
        outcome: 'win',
        winnerSquadId: consoleDoor.match.home,
        home: { runs: 175, wickets: 6, overs: '20' },
        away: { runs: 167, wickets: 7, overs: '20' },
        sixes: 13,
        method: null,
      },
    })
    expect(res.statusCode).toBe(200)

    // A results file (npm run import), published as the command does.
    const fileDoor = await setting()
    const file: ResultsFile = {
      sport: 'bbl',
      season: 13,
      results: [
        {
          match: 2,
          winner: (await replaySeasonCodes()).get('Sydney Sixers')!,
          outcome: 'win',
          home: { runs: 175, wickets: 6, overs: '20' },
          away: { runs: 167, wickets: 7, overs: '20' },
          sixes: 13,
          method: null,
          cricsheetId: null,
          note: null,
        },
      ],
    }
    const publisher = new Publisher(fileDoor.t.db, fileDoor.t.clock, {
      staticDir: fileDoor.t.staticDir,
      logosDir: '/none',
    })
    expect(
      await applyResultsFile({ db: fileDoor.t.db, publisher }, file, {
        now: fileDoor.t.clock.now(),
      }),
    ).toBe(1)

    // The console's Cricsheet upload.
    const cricsheetDoor = await setting()
    const upload = await cricsheetDoor.t.app.inject({
      method: 'POST',
      url: `/api/admin/competitions/${cricsheetDoor.competitionId}/cricsheet`,
      headers: { cookie: cricsheetDoor.admin.cookie },
      payload: { files: [cricsheetFile] },
    })
    expect(upload.statusCode).toBe(200)
    expect(upload.json().success.applied).toEqual([
      { matchId: cricsheetDoor.match.id, number: 2, round: 1 },
    ])

    const viaConsole = await outcome(consoleDoor)
    const viaFile = await outcome(fileDoor)
    const viaCricsheet = await outcome(cricsheetDoor)
    // What the console stored, spelled out once: the others must equal it.
    expect(viaConsole.match).toMatchObject({
      status: 'complete',
      round_status: 'active',
      outcome: 'win',
      home_runs: 175,
      home_balls: 120,
      away_wickets: 7,
      sixes: 13,
      sixes_simulated: false,
      completed_at: AFTER,
    })
    // Home tipped everywhere: the winner, 10 sixes off 13 on the margin game.
    expect(viaConsole.round).toHaveLength(1)
    expect(viaConsole.round[0]!.correct).toBe(1)
    expect(viaConsole.standing[0]!.total_points).toBe(viaConsole.round[0]!.points)
    expect(viaConsole.published).toMatchObject({ status: 'complete', outcome: 'win' })
    for (const other of [viaFile, viaCricsheet]) {
      expect(other.match).toEqual(viaConsole.match)
      expect(other.round).toEqual(viaConsole.round)
      expect(other.standing).toEqual(viaConsole.standing)
      expect(other.published).toEqual(viaConsole.published)
    }

    // One audit row per match, the same fields from each door; only the door's name differs.
    const sources = ['console', 'results file', 'cricsheet']
    const rows = [viaConsole, viaFile, viaCricsheet].map((o) => o.audit)
    rows.forEach((audit, i) => {
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({ action: 'result.set', entity: 'match', created_at: AFTER })
      expect(audit[0]!.data).toMatchObject({ source: sources[i], match: 2 })
    })
    const withoutSource = (data: unknown) => ({ ...(data as object), source: undefined })
    const consoleData = withoutSource(rows[0]![0]!.data)
    expect(consoleData).toEqual({
      source: undefined,
      match: 2,
      outcome: 'win',
      winnerSquadId: consoleDoor.match.home,
      home: { runs: 175, wickets: 6, overs: '20', oversAllotted: null },
      away: { runs: 167, wickets: 7, overs: '20', oversAllotted: null },
      sixes: 13,
      sixesSimulated: false,
      method: null,
    })
    expect(withoutSource(rows[1]![0]!.data)).toEqual(consoleData)
    expect(withoutSource(rows[2]![0]!.data)).toEqual(consoleData)
  })
})

async function replaySeasonCodes(): Promise<Map<string, string>> {
  const real = await readSeasonFile(seasonPath('bbl'))
  return new Map(real.squads.map((s) => [s.name, s.code]))
}
