import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HeadToHeadResponse } from '@tipping/contract/head-to-head'
import type { Season } from '@tipping/contract/season'
import {
  createLeague,
  createTestApp,
  loadResults,
  loadSeasons,
  registerUser,
  type TestApp,
} from './helpers.ts'

// My season and the head-to-head keep the competition's completed matches in the process, per
// scores version (decision 034), and derive each tipper's auto-tips from them. A result entered
// after a read (through the product's result path: written, re-scored, version bumped in one
// transaction) must reach the next read of the same process at once, with no stale count.

let t: TestApp
let a: { cookie: string; id: number }
let b: { cookie: string; id: number }
let league: number

const season = async (cookie: string) => {
  const res = await t.app.inject({ url: '/api/bbl/season', headers: { cookie } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().success as Season
}
const headToHead = async (round: number) => {
  const res = await t.app.inject({
    url: `/api/bbl/league/${league}/head-to-head?a=${a.id}&b=${b.id}&round=${round}`,
    headers: { cookie: a.cookie },
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().success as HeadToHeadResponse
}

/** The BBL matches complete with a winner, and the rounds with a completed match, as stored. */
async function stored() {
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select(['matches.id', 'matches.winner_squad_id', 'rounds.number as round'])
    .where('competitions.sport', '=', 'bbl')
    .where('competitions.is_current', '=', true)
    .where('matches.status', '=', 'complete')
    .execute()
  return {
    decided: rows.filter((r) => r.winner_squad_id !== null).length,
    played: [...new Set(rows.map((r) => r.round))].sort((x, y) => x - y),
    inRound: (n: number) => rows.filter((r) => r.round === n).length,
  }
}

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-10T00:00:00Z') })
  await loadSeasons(t.db)
  // Both tip nothing: every completed match is an auto-tip (the away side) for each, so they
  // agree on every one, and each decided match is judged.
  a = await registerUser(t.app, { team_name: 'Kept A' })
  b = await registerUser(t.app, { team_name: 'Kept B' })
  const l = await createLeague(t.app, a.cookie, 'Kept')
  const joined = await t.app.inject({
    method: 'POST',
    url: `/api/bbl/league/${l.code}/join`,
    headers: { cookie: b.cookie },
  })
  expect(joined.statusCode, joined.body).toBe(200)
  league = l.id
})
afterAll(() => t.close())

describe('the completed matches kept per scores version', () => {
  it('move with a result entered between two reads', async () => {
    const first = new Date('2025-12-24T12:00:00Z')
    t.clock.set(first)
    await loadResults(t.db, 'bbl', first)
    const before = await stored()
    expect(before.decided).toBeGreaterThan(0)
    const s1 = await season(a.cookie)
    expect(s1.tips.judged).toBe(before.decided)
    expect(s1.rounds.map((r) => r.round)).toEqual(before.played)
    const lastBefore = before.played.at(-1)!
    expect((await headToHead(lastBefore)).tips?.agreed).toBe(before.inRound(lastBefore))

    // Later: more results, through the product's result path, in the same process.
    const later = new Date('2026-01-02T12:00:00Z')
    t.clock.set(later)
    await loadResults(t.db, 'bbl', later)
    const after = await stored()
    expect(after.decided).toBeGreaterThan(before.decided)
    const s2 = await season(a.cookie)
    expect(s2.tips.judged).toBe(after.decided)
    expect(s2.rounds.map((r) => r.round)).toEqual(after.played)
    const lastAfter = after.played.at(-1)!
    expect(lastAfter).toBeGreaterThan(lastBefore)
    expect((await headToHead(lastAfter)).tips?.agreed).toBe(after.inRound(lastAfter))
  })
})
