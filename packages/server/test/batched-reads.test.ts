import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshRoundStatuses } from '../src/modules/lifecycle/queries.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import {
  createTestApp,
  currentCompetitionId,
  loadSeasons,
  registerUser,
  roundAndMatches,
  type TestApp,
} from './helpers.ts'

// Decision 037: My season, its league chart and the head-to-head answer the requests that arrive
// together from one statement. Each request must still get its own caller's answer, and its own
// refusal: the same requests sent all at once (one batch) must be answered exactly as when sent
// one by one (a batch of one each). The numbers themselves are the property tests'.

let t: TestApp
type U = { cookie: string; id: number }
const users: U[] = []
let outsider: U
let league = 0

const get = (url: string, who: U) => t.app.inject({ url, headers: { cookie: who.cookie } })

/** Status and body of each request sent one after another, then of all of them at once. */
async function oneByOneAndTogether(requests: { url: string; who: U }[]) {
  const view = (r: Awaited<ReturnType<typeof get>>) => ({ status: r.statusCode, body: r.json() })
  const alone = []
  for (const r of requests) alone.push(view(await get(r.url, r.who)))
  const together = (await Promise.all(requests.map((r) => get(r.url, r.who)))).map(view)
  return { alone, together }
}

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  for (let i = 0; i < 6; i++) users.push(await registerUser(t.app, { team_name: `Batch ${i}` }))
  outsider = await registerUser(t.app, { team_name: 'Outside' })
  const owner = users[0]!
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: { cookie: owner.cookie },
    payload: { name: 'Batched', privacy: 'private', startRound: 1 },
  })
  const l = created.json().success.league as { id: number; code: string }
  league = l.id
  for (const u of users.slice(1))
    await t.app.inject({
      method: 'POST',
      url: `/api/bbl/league/${l.code}/join`,
      headers: { cookie: u.cookie },
    })

  // Round 1's first two matches complete; each tipper tipped them differently (home/away by the
  // bits of their index), so no two have the same season or the same pair of tips.
  const competitionId = await currentCompetitionId(t.db, 'bbl')
  const { roundId, matches } = await roundAndMatches(t.db, competitionId, 1, 3)
  const tips = users.flatMap((u, i) =>
    matches.map((m, j) => ({
      user_id: u.id,
      match_id: m.id,
      round_id: roundId,
      squad_id: (i >> j) & 1 ? m.away_squad_id : m.home_squad_id,
    })),
  )
  await t.db.insertInto('tips').values(tips).execute()
  for (const m of matches.slice(0, 2))
    await t.db
      .updateTable('matches')
      .set({ status: 'complete', outcome: 'win', winner_squad_id: m.home_squad_id, sixes: 7 })
      .where('id', '=', m.id)
      .execute()
  await t.db
    .updateTable('matches')
    .set({ status: 'active' })
    .where('id', '=', matches[2]!.id)
    .execute()
  await refreshRoundStatuses(t.db, [roundId])
  await rescore(t.db, competitionId)
})
afterAll(() => t.close())

describe('reads answered together (decision 037)', () => {
  it('My season: each caller gets their own numbers', async () => {
    const { alone, together } = await oneByOneAndTogether(
      users.map((who) => ({ url: '/api/bbl/season', who })),
    )
    expect(together).toEqual(alone)
    expect(alone.every((r) => r.status === 200)).toBe(true)
    // The callers' answers differ, so a batch handing one caller another's row would show.
    const correct = alone.map((r) => r.body.success.tips.correct as number)
    expect(new Set(correct).size).toBeGreaterThan(1)
  })

  it('the league chart: each member gets their own points, an outsider its refusal', async () => {
    const { alone, together } = await oneByOneAndTogether(
      [...users, outsider].map((who) => ({ url: `/api/bbl/season/leagues/${league}`, who })),
    )
    expect(together).toEqual(alone)
    expect(alone.at(-1)!.status).toBe(404)
    const points = alone.slice(0, -1).map((r) => r.body.success.rounds[0].points as number)
    expect(new Set(points).size).toBeGreaterThan(1)
  })

  it('the head-to-head: each pair its own record and tips, each caller their own access', async () => {
    const url = (a: U, b: U, round = '') =>
      `/api/bbl/league/${league}/head-to-head?a=${a.id}&b=${b.id}${round}`
    const [u0, u1, u2, u3] = users as [U, U, U, U]
    const { alone, together } = await oneByOneAndTogether([
      { url: url(u0, u1), who: u0 },
      { url: url(u1, u0), who: u2 },
      { url: url(u2, u3), who: u1 },
      { url: url(u0, u3, '&round=1'), who: u3 },
      { url: url(u1, u2, '&round=2'), who: u0 },
      // not the league's member: refused, though asked with members' pairs
      { url: url(u0, u1), who: outsider },
      // not a member compared
      { url: url(u0, outsider), who: u0 },
      // no such round
      { url: url(u0, u1, '&round=99'), who: u0 },
    ])
    expect(together).toEqual(alone)
    expect(alone.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 404, 404, 404])
    expect(alone[0]!.body.success.a.userId).toBe(u0.id)
    expect(alone[1]!.body.success.a.userId).toBe(u1.id)
    const differences = alone.slice(0, 4).map((r) => r.body.success.tips.differences.length)
    expect(new Set(differences).size).toBeGreaterThan(1)
  })
})
