import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// The other suites turn the read caches off (testConfig) to test the rules alone. This one runs
// with the caches a deployment runs with (the configuration's defaults) and checks that reads see
// writes as README.md promises: a tipper's own tips, scores and league memberships at once; an
// admin's change of the current season at once; rankings pages once the re-scored competition
// has been read again, within twice READ_CACHE_MS.
const production = loadConfig({})
const caches = {
  READ_CACHE_MS: production.READ_CACHE_MS,
  PAGE_CACHE_MS: production.PAGE_CACHE_MS,
  PICK_COUNTS_CACHE_MS: production.PICK_COUNTS_CACHE_MS,
}

type U = { cookie: string; id: number }
let t: TestApp
let admin: U
let tipper: U
let other: U
type M = { id: number; home: number; away: number; margin: boolean }
const matches = new Map<number, M>()
const m = (n: number) => matches.get(n)!

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, u: U, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: u.cookie }, ...(payload ? { payload } : {}) })
const tipOf = async (u: U, n: number) => {
  const res = await call('GET', '/api/bbl/predictions/1', u)
  expect(res.statusCode).toBe(200)
  return (res.json().success.predictions as { match: number; squad: number }[]).find(
    (p) => p.match === m(n).id,
  )?.squad
}
const win = (squad: number, margin: boolean) => ({
  outcome: 'win',
  winnerSquadId: squad,
  home: null,
  away: null,
  sixes: margin ? 12 : null,
})

beforeAll(async () => {
  expect(caches.READ_CACHE_MS).toBeGreaterThan(0)
  expect(caches.PAGE_CACHE_MS).toBeGreaterThan(0)
  expect(caches.PICK_COUNTS_CACHE_MS).toBeGreaterThan(0)
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z'), config: caches })
  await loadSeasons(t.db)
  admin = await registerUser(t.app, { firstName: 'Ada', team_name: 'Admins' })
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN', 'ROLE_USER_BBL', 'ROLE_USER_WBBL'] })
    .where('id', '=', admin.id)
    .execute()
  tipper = await registerUser(t.app, { firstName: 'Tess', team_name: 'Top Edge' })
  other = await registerUser(t.app, { firstName: 'Otto', team_name: 'Outswingers' })
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'matches.number', 'home_squad_id', 'away_squad_id', 'is_margin_game'])
    .where('competitions.sport', '=', 'bbl')
    .where('competitions.is_current', '=', true)
    .execute()
  for (const r of rows)
    matches.set(r.number, {
      id: r.id,
      home: r.home_squad_id,
      away: r.away_squad_id,
      margin: r.is_margin_game,
    })
})
afterAll(() => t?.close())

describe('with the production read caches', () => {
  it("shows a tipper's own saves, changes and clears at once; pick shares may lag", async () => {
    const pickShare = async () =>
      (
        (await call('GET', '/api/bbl/predictions/1', other)).json().success.matches as {
          id: number
          home_percent: number
        }[]
      ).find((x) => x.id === m(1).id)?.home_percent
    const before = await pickShare()
    expect(before).toBeTypeOf('number')
    const save = (squad: number) =>
      call('POST', '/api/bbl/predictions_list', tipper, {
        predictions: [{ match: m(1).id, squad, margin: m(1).margin ? 5 : null }],
      })
    expect((await save(m(1).home)).statusCode).toBe(200)
    expect(await tipOf(tipper, 1)).toBe(m(1).home)
    expect((await save(m(1).away)).statusCode).toBe(200)
    expect(await tipOf(tipper, 1)).toBe(m(1).away)
    const cleared = await call('POST', '/api/bbl/predictions_list/clear', tipper, {
      predictions: [{ match: m(1).id }],
    })
    expect(cleared.statusCode).toBe(200)
    expect(await tipOf(tipper, 1)).toBe(0)
    // The pick split is counted at most every PICK_COUNTS_CACHE_MS: the caches are on.
    expect(await pickShare()).toBe(before)
  })

  it("shows a result in the tipper's own numbers at once, in rankings pages within twice READ_CACHE_MS", async () => {
    const picks = [1, 2].map((n) => ({
      match: m(n).id,
      squad: m(n).home,
      margin: m(n).margin ? 10 : null,
    }))
    expect(
      (await call('POST', '/api/bbl/predictions_list', tipper, { predictions: picks })).statusCode,
    ).toBe(200)
    const snapshot = async () =>
      (await call('POST', '/api/bbl/predictions/snapshot', tipper, { round: 1 })).json().success
    const rankings = async () =>
      (await call('GET', '/api/bbl/rankings/overall/rankings?page=1&limit=20', tipper)).json()
        .success
    expect((await snapshot()).round_points).toBe(0)
    t.clock.set(new Date('2025-12-22T00:00:00Z'))
    const result = await call(
      'POST',
      `/api/admin/bbl/matches/${m(1).id}/result`,
      admin,
      win(m(1).home, m(1).margin),
    )
    expect(result.statusCode).toBe(200)
    expect((await snapshot()).round_points).toBe(1)
    expect((await rankings()).user).toMatchObject({ userId: tipper.id, totalPoints: 1 })
    await call('POST', `/api/admin/bbl/matches/${m(2).id}/result`, admin, win(m(2).home, false))
    expect((await snapshot()).round_points).toBe(2)
    await new Promise((r) => setTimeout(r, 2 * caches.READ_CACHE_MS + 100))
    const page = await rankings()
    expect(page.rankings.find((r: { userId: number }) => r.userId === tipper.id)?.totalPoints).toBe(
      2,
    )
  })

  it("shows joins and leaves in a league's ladder at once", async () => {
    const created = await call('POST', '/api/bbl/league', tipper, {
      name: 'Cached Company',
      privacy: 'private',
      startRound: 1,
    })
    expect(created.statusCode).toBe(200)
    const league = created.json().success.league as { id: number; code: string }
    const ladder = async () =>
      (
        (
          await call('GET', `/api/bbl/rankings/${league.id}/rankings?page=1&limit=20`, tipper)
        ).json().success.rankings as { userId: number }[]
      ).map((r) => r.userId)
    expect(await ladder()).toEqual([tipper.id])
    expect((await call('POST', `/api/bbl/league/${league.code}/join`, other)).statusCode).toBe(200)
    expect((await ladder()).sort()).toEqual([tipper.id, other.id].sort())
    expect((await call('POST', `/api/bbl/league/${league.id}/leave`, other)).statusCode).toBe(200)
    expect(await ladder()).toEqual([tipper.id])
  })

  // Last: the season it switches to has no rounds, so nothing can be tipped after it.
  it("follows an admin's change of the current season at once", async () => {
    const created = await call('POST', '/api/admin/competitions', admin, {
      sport: 'bbl',
      season: 77,
      name: 'BBL|77',
      year: '2057-58',
    })
    expect(created.statusCode).toBe(200)
    const next = created.json().success.competition as { id: number }
    const roundOne = () => call('GET', '/api/bbl/predictions/1', tipper)
    expect((await roundOne()).statusCode).toBe(200)
    const switched = await call('PATCH', `/api/admin/competitions/${next.id}`, admin, {
      isCurrent: true,
    })
    expect(switched.statusCode).toBe(200)
    // The new season has no rounds yet.
    expect((await roundOne()).statusCode).toBe(404)
  })
})
