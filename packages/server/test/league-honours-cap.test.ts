import { HONOURS_WINNERS_MAX, type LeagueHonoursResponse } from '@tipping/contract/leagues'
import type { LeagueHistoryResponse } from '@tipping/contract/archive'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importSeason, readSeasonFile } from '../src/modules/seasons/service.ts'
import { applyResultsFile, readResultsFile } from '../src/modules/results/service.ts'
import { previousSeasonOf } from '../src/seed/previous-season.ts'
import {
  createLeague,
  createTestApp,
  loadSeasons,
  registerUser,
  resultsPath,
  seasonPath,
  signIn,
  type TestApp,
} from './helpers.ts'

// Issue 31: a round shared by more members than the names listed (HONOURS_WINNERS_MAX). A league
// whose members tip nothing ties every week, all of them first: the honours list the first 20 by
// user id and count every one of them, both while the season is current and, once it is past,
// in the renewed league's history. The page says "and N others" from that count.

const MEMBERS = HONOURS_WINNERS_MAX + 3
let t: TestApp
let users: { cookie: string; id: number; email: string }[]
let league: { id: number; code: string }

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2024-11-20T00:00:00Z') })
  const past = previousSeasonOf(
    await readSeasonFile(seasonPath('bbl')),
    await readResultsFile(resultsPath('bbl')),
  )
  await importSeason(t.db, past.season, { sponsorPrefix: 'xyz' })
  users = []
  for (let i = 0; i < MEMBERS; i++)
    users.push(await registerUser(t.app, { team_name: `Tied ${i}` }))
  league = await createLeague(t.app, users[0]!.cookie, 'Everyone Ties')
  for (const u of users.slice(1)) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bbl/league/${league.code}/join`,
      headers: { cookie: u.cookie },
    })
    expect(res.statusCode).toBe(200)
  }
  t.clock.set(new Date('2025-06-01T00:00:00Z'))
  await applyResultsFile({ db: t.db }, past.results, { now: t.clock.now() })
}, 120_000)
afterAll(() => t.close())

/** Every week is shared by all the members; the first 20 by user id are named. */
function expectCapped(rounds: LeagueHonoursResponse['rounds']) {
  const ids = users.map((u) => u.id).sort((a, b) => a - b)
  expect(rounds.length).toBeGreaterThan(3)
  for (const r of rounds) {
    expect(r.winnerCount).toBe(MEMBERS)
    expect(r.winners.map((w) => w.userId)).toEqual(ids.slice(0, HONOURS_WINNERS_MAX))
  }
}

describe('round honours past the names cap', () => {
  let current: LeagueHonoursResponse['rounds']

  it('lists 20 names and counts every member who shared first', async () => {
    const cookie = await signIn(t.app, users[5]!.email)
    const res = await t.app.inject({
      url: `/api/bbl/league/${league.id}/honours`,
      headers: { cookie },
    })
    expect(res.statusCode).toBe(200)
    current = (res.json().success as LeagueHonoursResponse).rounds
    expectCapped(current)
  })

  it('keeps the count in the renewed league’s history once the season is past', async () => {
    await loadSeasons(t.db)
    t.clock.set(new Date('2025-12-01T00:00:00Z'))
    const cookie = await signIn(t.app, users[0]!.email)
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/auth/register_for_game',
      headers: { cookie },
    })
    expect(register.statusCode).toBe(200)
    const renew = await t.app.inject({
      method: 'POST',
      url: `/api/bbl/league/${league.id}/renew`,
      headers: { cookie },
      payload: {},
    })
    expect(renew.statusCode).toBe(200)
    const history = await t.app.inject({
      url: `/api/bbl/league/${renew.json().success.league.id}/history`,
      headers: { cookie },
    })
    expect(history.statusCode).toBe(200)
    const [season] = (history.json().success as LeagueHistoryResponse).seasons
    expectCapped(season!.rounds)
    expect(season!.rounds).toEqual(current)
  })
})
