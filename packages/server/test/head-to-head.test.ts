import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshRoundStatuses } from '../src/modules/lifecycle/queries.ts'
import { rescore } from '../src/modules/scoring/service.ts'
import {
  createTestApp,
  currentCompetitionId,
  loadSeasons,
  makeAdmin,
  registerUser,
  roundAndMatches,
  type TestApp,
} from './helpers.ts'

// Who may read a league's head-to-head, what bad input gets, and that a tip on a match not yet
// complete never reaches the other tipper (issue 31). The numbers themselves are the property
// test's (head-to-head.property.test.ts).

let t: TestApp
type U = { cookie: string; id: number }
let a: U
let b: U
let outsider: U
let admin: U
let privateLeague: number
let publicLeague: number
const m = { done: 0, live: 0, home: 0, away: 0 }

const ask = (league: number, query: string, who: U | null) =>
  t.app.inject({
    url: `/api/bbl/league/${league}/head-to-head?${query}`,
    headers: who ? { cookie: who.cookie } : {},
  })

async function league(privacy: 'private' | 'public'): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: { cookie: a.cookie },
    payload: { name: `H2H ${privacy}`, privacy, startRound: 1 },
  })
  const l = res.json().success.league as { id: number; code: string }
  await t.app.inject({
    method: 'POST',
    url: `/api/bbl/league/${l.code}/join`,
    headers: { cookie: b.cookie },
  })
  return l.id
}

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  a = await registerUser(t.app, { team_name: 'Alpha Tippers' })
  b = await registerUser(t.app, { team_name: 'Bravo Tippers' })
  outsider = await registerUser(t.app, { team_name: 'Outside' })
  admin = await registerUser(t.app, { team_name: 'Admin' })
  await makeAdmin(t.db, admin.id)
  privateLeague = await league('private')
  publicLeague = await league('public')

  // Round 1's first match complete, its second in play; both tipped it differently on each.
  const competitionId = await currentCompetitionId(t.db, 'bbl')
  const {
    roundId,
    matches: [done, live],
  } = await roundAndMatches(t.db, competitionId, 1, 2)
  m.done = done!.id
  m.live = live!.id
  m.home = done!.home_squad_id
  m.away = done!.away_squad_id
  const tip = (user: number, match: typeof done, squad: number) => ({
    user_id: user,
    match_id: match!.id,
    round_id: roundId,
    squad_id: squad,
  })
  await t.db
    .insertInto('tips')
    .values([
      tip(a.id, done, done!.home_squad_id),
      tip(b.id, done, done!.away_squad_id),
      tip(a.id, live, live!.home_squad_id),
      tip(b.id, live, live!.away_squad_id),
    ])
    .execute()
  await t.db
    .updateTable('matches')
    .set({ status: 'complete', outcome: 'win', winner_squad_id: done!.home_squad_id, sixes: 7 })
    .where('id', '=', done!.id)
    .execute()
  await t.db.updateTable('matches').set({ status: 'active' }).where('id', '=', live!.id).execute()
  await refreshRoundStatuses(t.db, [roundId])
  await rescore(t.db, competitionId)
})
afterAll(() => t.close())

describe('head-to-head', () => {
  it('gives a member the record and the tips they differed on, completed matches only', async () => {
    const res = await ask(privateLeague, `a=${a.id}&b=${b.id}`, b)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json().success
    expect(body.a).toMatchObject({ userId: a.id, teamName: 'Alpha Tippers', points: 1, won: 0 })
    expect(body.b).toMatchObject({ userId: b.id, teamName: 'Bravo Tippers', points: 0, won: 0 })
    // Round 1 is still being played: counted in points, not yet won.
    expect(body.rounds).toEqual([
      expect.objectContaining({ round: 1, complete: false, winner: null }),
    ])
    expect(body.tips).toEqual({
      round: 1,
      agreed: 0,
      differences: [
        expect.objectContaining({
          match: m.done,
          winnerSquad: m.home,
          a: { squad: m.home, margin: null, isAutoTip: false, correct: true },
          b: { squad: m.away, margin: null, isAutoTip: false, correct: false },
        }),
      ],
    })
    // The match in play is nowhere in the answer.
    expect(body.tips.differences.map((d: { match: number }) => d.match)).not.toContain(m.live)
  })

  it('shows an auto-tip as one', async () => {
    // A member with no tip of their own on the completed match gets the away side's auto-tip.
    const c = await registerUser(t.app, { team_name: 'Charlie' })
    await t.db
      .updateTable('competition_registrations')
      .set({ registered_at: new Date('2025-11-01T00:00:00Z') })
      .where('user_id', '=', c.id)
      .execute()
    await t.db
      .insertInto('league_members')
      .values({ league_id: privateLeague, user_id: c.id })
      .execute()
    const res = await ask(privateLeague, `a=${a.id}&b=${c.id}&round=1`, a)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().success.tips.differences).toEqual([
      expect.objectContaining({
        match: m.done,
        b: { squad: m.away, margin: null, isAutoTip: true, correct: false },
      }),
    ])
  })

  it('is for the league’s members only', async () => {
    expect((await ask(privateLeague, `a=${a.id}&b=${b.id}`, null)).statusCode).toBe(401)
    for (const who of [outsider, admin]) {
      const hidden = await ask(privateLeague, `a=${a.id}&b=${b.id}`, who)
      expect(hidden.statusCode).toBe(404)
      expect(hidden.json().errors).toEqual([expect.objectContaining({ param: 'id' })])
      expect(hidden.body).not.toContain('Alpha Tippers')
      const open = await ask(publicLeague, `a=${a.id}&b=${b.id}`, who)
      expect(open.statusCode).toBe(403)
      expect(open.body).not.toContain('Alpha Tippers')
    }
    expect((await ask(publicLeague, `a=${a.id}&b=${b.id}`, a)).statusCode).toBe(200)
  })

  it('names the field at fault', async () => {
    const cases: [string, number, string][] = [
      [`b=${b.id}`, 400, 'a'],
      [`a=${a.id}`, 400, 'b'],
      [`a=${a.id}&b=${a.id}`, 400, 'b'],
      [`a=x&b=${b.id}`, 400, 'a'],
      [`a=${a.id}&b=${b.id}&round=0`, 400, 'round'],
      [`a=${outsider.id}&b=${b.id}`, 404, 'a'],
      [`a=${a.id}&b=${outsider.id}`, 404, 'b'],
      [`a=${a.id}&b=2147483647`, 404, 'b'],
      [`a=${a.id}&b=${b.id}&round=999`, 404, 'round'],
    ]
    for (const [query, status, param] of cases) {
      const res = await ask(privateLeague, query, a)
      expect(res.statusCode, `${query}: ${res.body}`).toBe(status)
      expect(res.json().errors, query).toEqual([expect.objectContaining({ param })])
    }
  })
})
