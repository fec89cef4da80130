import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../src/config.ts'
import {
  DEMO_ADMIN_EMAIL,
  DEMO_ADMIN_PASSWORD,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_ROUND,
  seedDemo,
} from '../src/seed/demo.ts'
import { createTestApp, sessionCookie, type TestApp } from './helpers.ts'

// The seeded demo is what a newcomer sees after `npm start`: it must be a playable, lived-in week.
const now = new Date('2026-11-23T09:00:00Z')
let t: TestApp
let cookie: string
const get = (url: string) => t.app.inject({ url, headers: { cookie } })

beforeAll(async () => {
  t = await createTestApp({ now })
  await seedDemo(t.db, {
    dataDir: path.join(REPO_ROOT, 'data'),
    sponsorPrefix: '',
    now,
    users: 120,
  })
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  })
  expect(res.statusCode).toBe(200)
  cookie = sessionCookie(res)
}, 120_000)
afterAll(() => t.close())

describe('the demo season', () => {
  it('has an admin account that opens the console', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD },
    })
    expect(res.statusCode).toBe(200)
    const console = await t.app.inject({
      url: '/api/admin/competitions',
      headers: { cookie: sessionCookie(res) },
    })
    expect(console.statusCode).toBe(200)
    // Both sports' seasons, and BBL's season before (issue 31: the archive's demo).
    expect(console.json().success.competitions).toHaveLength(3)
    // The demo tipper is no admin.
    expect((await get('/api/admin/competitions')).statusCode).toBe(403)
  })

  it('keeps a played BBL season before this one, its Demo Desk renewed into this season', async () => {
    const seasons = (await get('/api/bbl/seasons')).json().success.seasons
    expect(seasons).toEqual([
      { year: '2024-25', season: 14, name: 'Big Bash League', tippers: 121 },
    ])
    const past = (await get('/api/bbl/seasons/2024-25')).json().success
    expect(past.user.rank).toBeGreaterThan(0)
    expect(past.mySeason.tips.judged).toBeGreaterThan(0)
    const [desk] = past.leagues
    expect(desk).toMatchObject({ name: 'The Demo Desk', isCommissioner: true })
    expect(desk.renewedBy).not.toBeNull()
    const history = (await get(`/api/bbl/league/${desk.renewedBy}/history`)).json().success
    expect(history.seasons).toHaveLength(1)
    expect(history.seasons[0].champions.length).toBeGreaterThan(0)
    expect((await get('/api/wbbl/seasons')).json().success.seasons).toEqual([])
  })

  it.each(['bbl', 'wbbl'])(
    'puts today inside week 3 of %s, some matches done and one live',
    async (sport) => {
      const week = (await get(`/api/${sport}/predictions/${DEMO_ROUND}`)).json().success
      const statuses = week.matches.map((m: { status: string }) => m.status)
      expect(statuses).toContain('complete')
      expect(statuses).toContain('active')
      expect(statuses).toContain('scheduled')
    },
  )

  it('gives the demo account a league it runs and a public one it joined', async () => {
    const { leagues } = (await get('/api/bbl/leagues')).json().success
    const mine = leagues.find((l: { isCommissioner: boolean }) => l.isCommissioner)
    const joined = leagues.find((l: { privacy: string }) => l.privacy === 'public')
    expect(mine).toMatchObject({ name: 'The Demo Desk', privacy: 'private' })
    expect(mine.numUser).toBeGreaterThan(5)
    expect(joined.numUser).toBeGreaterThan(mine.numUser)
    const ladder = (await get(`/api/bbl/rankings/${mine.id}/rankings?page=1`)).json().success
    expect(ladder.rankings.length).toBe(Math.min(mine.numUser, 20))
    expect(
      ladder.rankings.some((r: { points: number; totalPoints: number }) => r.totalPoints > 0),
    ).toBe(true)
  })

  it("fills the tip row with league mates' tips on finished matches", async () => {
    const { matches } = (await get(`/api/bbl/predictions/${DEMO_ROUND}/leagues`)).json().success
    expect(matches.length).toBeGreaterThan(0)
    for (const m of matches) expect(m.tips.length).toBeGreaterThan(3)
  })

  it('has an admin who edits content and sees the demo adverts', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD },
    })
    expect(login.statusCode).toBe(200)
    const admin = sessionCookie(login)
    const res = await t.app.inject({ url: '/api/admin/content', headers: { cookie: admin } })
    expect(res.statusCode).toBe(200)
    const { adverts } = res.json().success.content
    for (const sport of ['bbl', 'wbbl'])
      expect(adverts[sport].map((a: { type: string }) => a.type).sort()).toEqual([
        'leaderboard',
        'mrec',
      ])
    // The demo tipper is no admin.
    expect((await get('/api/admin/content')).statusCode).toBe(403)
  })
})
