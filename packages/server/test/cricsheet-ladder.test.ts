import fs from 'node:fs'
import { asRoundNumber } from '@tipping/contract/ids'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { summariseCricsheet, type CricsheetSummary } from '@tipping/contract/cricsheet'
import type { SeasonFile } from '@tipping/contract/season-file'
import { ladderFileSchema, squadsFileSchema } from '@tipping/contract/static-files'
import { REPO_ROOT } from '../src/config.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { importCricsheetResults } from '../src/modules/results/service.ts'
import { importSeason, readSeasonFile } from '../src/modules/seasons/service.ts'
import { createTestApp, type TestApp } from './helpers.ts'

// Replays the real 2023-24 seasons from their Cricsheet files through the importer and checks the
// team ladder the publisher writes against data/source/ladders (computed and published).

const SOURCE = path.join(REPO_ROOT, 'data/source')
const csv = (file: string) => {
  const [head, ...rows] = fs.readFileSync(path.join(SOURCE, file), 'utf8').trim().split('\n')
  const keys = head!.split(',')
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [keys[i]!, v])))
}

/** Abandoned without a ball, so no Cricsheet file (data README): no result on the ladder. */
const ABANDONED: Record<'bbl' | 'wbbl', { date: string; teams: [string, string] }[]> = {
  bbl: [
    { date: '2023-12-09', teams: ['Adelaide Strikers', 'Brisbane Heat'] },
    { date: '2024-01-01', teams: ['Brisbane Heat', 'Sydney Sixers'] },
    { date: '2024-01-17', teams: ['Sydney Thunder', 'Melbourne Renegades'] },
  ],
  wbbl: [{ date: '2023-11-08', teams: ['Hobart Hurricanes', 'Sydney Thunder'] }],
}

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ now: new Date('2024-02-01T00:00:00Z') })
})
afterAll(() => t.close())

async function replay(sport: 'bbl' | 'wbbl') {
  const dir = path.join(SOURCE, 'cricsheet', `${sport}-2023-24`)
  const summaries: CricsheetSummary[] = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => summariseCricsheet(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))))
  const clubs = (await readSeasonFile(path.join(REPO_ROOT, `data/seasons/${sport}-2025-26.json`)))
    .squads
  const code = (name: string) => clubs.find((c) => c.name === name)!.code
  // A fixture for the season: each file's match, plus the abandoned ones.
  const matches = [
    ...summaries.map((s) => ({ date: s.date, teams: s.teams, final: s.stage !== null })),
    ...ABANDONED[sport].map((a) => ({ ...a, final: false })),
  ].sort((a, b) => a.date.localeCompare(b.date))
  const season: SeasonFile = {
    sport,
    season: sport === 'bbl' ? 13 : 9,
    name: `${sport} 2023-24 replay`,
    year: '2023-24',
    goldenWeekRound: null,
    ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
    squads: clubs,
    venues: [{ key: 'replay', name: 'Replay', city: 'x', state: 'x', timezone: 'UTC' }],
    rounds: [
      {
        number: asRoundNumber(1),
        label: 'Season',
        matches: matches.map((m, i) => ({
          number: i + 1,
          startsAt: `${m.date}T08:00:00Z`,
          venue: 'replay',
          home: code(m.teams[0]),
          away: code(m.teams[1]),
          marginGame: i === matches.length - 1,
          stage: m.final ? ('final' as const) : ('regular' as const),
          assumed: [],
        })),
      },
    ],
    assumptions: [],
    sources: [],
  }
  const competitionId = await importSeason(t.db, season, { sponsorPrefix: 'replay' })
  const abandoned: CricsheetSummary[] = ABANDONED[sport].map((a) => ({
    date: a.date,
    teams: a.teams,
    outcome: 'no_result',
    winner: null,
    method: null,
    innings: [],
    sixes: 0,
    stage: null,
  }))
  const result = await importCricsheetResults(
    { db: t.db },
    competitionId,
    [...summaries, ...abandoned],
    { now: t.clock.now(), actorUserId: null },
  )
  expect(result.unmatched).toEqual([])
  expect(result.applied).toHaveLength(matches.length)
  await new Publisher(t.db, t.clock, {
    staticDir: t.staticDir,
    logosDir: path.join(REPO_ROOT, 'data/logos'),
  }).publishAll()
  const ladder = ladderFileSchema.parse(
    JSON.parse(fs.readFileSync(path.join(t.staticDir, sport, 'ladder.json'), 'utf8')),
  )
  const squads = squadsFileSchema.parse(
    JSON.parse(fs.readFileSync(path.join(t.staticDir, sport, 'squads.json'), 'utf8')),
  )
  const nameOf = new Map<number, string>(squads.squads.map((s) => [s.id, s.name]))
  return ladder.ladder.map((r) => ({ ...r, team: nameOf.get(r.squadId)! }))
}

describe.each(['bbl', 'wbbl'] as const)('%s 2023-24 replayed from Cricsheet', (sport) => {
  const label = sport === 'bbl' ? 'BBL' : 'WBBL'
  it('matches the computed ladder row by row', async () => {
    const ours = await replay(sport)
    const expected = csv('ladders/computed.csv').filter(
      (r) => r.competition === label && r.season === '2023/24',
    )
    expect(expected).toHaveLength(8)
    expect(
      ours.map((r) => [
        r.position,
        r.team,
        r.played,
        r.won,
        r.lost,
        r.noResult,
        r.points,
        r.percentage?.toFixed(3),
      ]),
    ).toEqual(
      expected.map((r) => [
        Number(r.position),
        r.team,
        Number(r.played),
        Number(r.won),
        Number(r.lost),
        Number(r.no_result),
        Number(r.points),
        Number(r.nrr_computed).toFixed(3),
      ]),
    )
    // The published tables (partial) agree on places and points.
    const published = csv('ladders/published.csv').filter(
      (r) => r.competition === label && r.season === '2023/24',
    )
    for (const p of published) {
      const row = ours.find((r) => r.team === p.team)!
      expect(row.position).toBe(Number(p.position))
      if (p.points)
        expect(
          row.points === Number(p.points) || p.note?.includes('article figure looks wrong'),
        ).toBe(true)
    }
  })
})
