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

// The season archive and league renewal (issue 31) on two seasons of BBL: last season (2024-25,
// made from the real 2025-26 files a year earlier and imported as any fixture) played through
// the API by four tippers with a league, its results applied, then 2025-26 imported and made
// current. What the archive shows of last season is what the live pages showed while it was
// current; nothing of it can be changed through the tipping routes; its league is renewed.

type User = { cookie: string; id: number; email: string }
let t: TestApp
const u = {} as Record<'commish' | 'mate' | 'other' | 'outsider', User>
let league: { id: number; code: string }
/** A second league of last season's, renewed twice at once. */
let twice: { id: number; code: string }
let pastCompetitionId: number
let pastMatchIds: number[]
/** What the live pages answered while 2024-25 was current, per user. */
const before = {
  season: {} as Record<string, unknown>,
  rankings: undefined as unknown,
  ladder: undefined as unknown,
  honours: undefined as unknown,
}

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })
const post = (url: string, cookie: string, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2024-11-20T00:00:00Z') })
  const past = previousSeasonOf(
    await readSeasonFile(seasonPath('bbl')),
    await readResultsFile(resultsPath('bbl')),
  )
  pastCompetitionId = await importSeason(t.db, past.season, { sponsorPrefix: 'xyz' })
  for (const name of ['commish', 'mate', 'other', 'outsider'] as const)
    u[name] = await registerUser(t.app, { team_name: `Team ${name}` })
  league = await createLeague(t.app, u.commish.cookie, 'Across The Seasons')
  twice = await createLeague(t.app, u.commish.cookie, 'Renewed Twice At Once')
  for (const name of ['mate', 'other'] as const)
    expect((await post(`/api/bbl/league/${league.code}/join`, u[name].cookie)).statusCode).toBe(200)
  // Each tipper tips the first three rounds their own way: home, away, or alternating.
  const matches = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select(['matches.id', 'home_squad_id', 'away_squad_id', 'rounds.number'])
    .where('matches.competition_id', '=', pastCompetitionId)
    .where('rounds.number', '<=', 3)
    .orderBy('matches.id')
    .execute()
  pastMatchIds = matches.map((m) => m.id)
  const pick = {
    commish: (_: number) => 'home',
    mate: (_: number) => 'away',
    other: (i: number) => (i % 2 ? 'home' : 'away'),
    outsider: (i: number) => (i % 3 ? 'away' : 'home'),
  } as const
  for (const name of Object.keys(pick) as (keyof typeof pick)[]) {
    const res = await post('/api/bbl/predictions_list', u[name].cookie, {
      predictions: matches.map((m, i) => ({
        match: m.id,
        squad: pick[name](i) === 'home' ? m.home_squad_id : m.away_squad_id,
      })),
    })
    expect(res.statusCode).toBe(200)
  }
  // The season is played out: every result, scored as a results import scores it.
  t.clock.set(new Date('2025-06-01T00:00:00Z'))
  await applyResultsFile({ db: t.db }, past.results, { now: t.clock.now() })
  await signInAgain()
  for (const name of Object.keys(u)) {
    const res = await get('/api/bbl/season', u[name as keyof typeof u].cookie)
    expect(res.statusCode).toBe(200)
    before.season[name] = res.json().success
  }
  before.rankings = (
    await get('/api/bbl/rankings/overall/rankings', u.commish.cookie)
  ).json().success
  before.ladder = (
    await get(`/api/bbl/rankings/${league.id}/rankings`, u.mate.cookie)
  ).json().success
  const honours = await get(`/api/bbl/league/${league.id}/honours`, u.mate.cookie)
  expect(honours.statusCode).toBe(200)
  before.honours = honours.json().success
  // The next season arrives: importing its fixture makes it current.
  await loadSeasons(t.db)
  t.clock.set(new Date('2025-12-01T00:00:00Z'))
  await signInAgain()
  // Each joins the new season's game, as the app asks a returning tipper to (a 513 until then).
  for (const user of Object.values(u))
    expect((await post('/api/bbl/auth/register_for_game', user.cookie)).statusCode).toBe(200)
}, 60_000)

/** Months pass between the seasons: sessions expire (SESSION_IDLE_DAYS), so each signs in again. */
async function signInAgain() {
  for (const user of Object.values(u)) user.cookie = await signIn(t.app, user.email)
}
afterAll(() => t.close())

describe('season archive', () => {
  it('lists last season, not the current one', async () => {
    const res = await get('/api/bbl/seasons', u.commish.cookie)
    expect(res.statusCode).toBe(200)
    expect(res.json().success.seasons).toEqual([
      { year: '2024-25', season: 14, name: 'Big Bash League', tippers: 4 },
    ])
    // WBBL has one season only: nothing archived.
    const wbbl = await get('/api/wbbl/seasons', u.commish.cookie)
    expect(wbbl.json().success.seasons).toEqual([])
  })

  it('shows my final numbers as My season showed them, and my league with my place', async () => {
    for (const name of ['commish', 'mate', 'other', 'outsider'] as const) {
      const res = await get('/api/bbl/seasons/2024-25', u[name].cookie)
      expect(res.statusCode).toBe(200)
      const body = res.json().success
      expect(body.mySeason).toEqual(before.season[name])
      const rankings = before.rankings as { rankings: { userId: number }[] }
      expect(body.user).toEqual(rankings.rankings.find((r) => r.userId === u[name].id))
      const ladder = before.ladder as { rankings: { userId: number; rank: number }[] }
      const mine = ladder.rankings.find((r) => r.userId === u[name].id)
      expect(body.leagues.filter((l: { id: number }) => l.id === league.id)).toEqual(
        mine
          ? [
              {
                id: league.id,
                name: 'Across The Seasons',
                privacy: 'private',
                numUser: 3,
                rank: mine.rank,
                renewedBy: null,
                isCommissioner: name === 'commish',
              },
            ]
          : [],
      )
    }
    // The numbers are last season's, not this one's (which has no tips yet).
    const now = (await get('/api/bbl/season', u.commish.cookie)).json().success
    expect(now).not.toEqual(before.season.commish)
  })

  it('keeps the final overall rankings and the final team ladder', async () => {
    const res = await get('/api/bbl/seasons/2024-25/rankings', u.commish.cookie)
    expect(res.statusCode).toBe(200)
    const { rankings, user } = before.rankings as { rankings: unknown[]; user: unknown }
    expect(rankings).toHaveLength(4)
    expect(res.json().success).toEqual({ rankings, nextPage: null, user })

    const ladder = (await get('/api/bbl/seasons/2024-25/ladder', u.other.cookie)).json().success
    const completed = await t.db
      .selectFrom('matches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('competition_id', '=', pastCompetitionId)
      .where('status', '=', 'complete')
      .where('stage', '=', 'regular')
      .executeTakeFirstOrThrow()
    const played = ladder.ladder.reduce((n: number, r: { played: number }) => n + r.played, 0)
    expect(played).toBe(2 * Number(completed.n))
    expect(Number(completed.n)).toBeGreaterThan(0)
  })

  it("keeps a league's final ladder for its members only", async () => {
    const url = `/api/bbl/seasons/2024-25/leagues/${league.id}/ladder`
    const res = await get(url, u.mate.cookie)
    expect(res.statusCode).toBe(200)
    const { rankings, user } = before.ladder as { rankings: unknown[]; user: unknown }
    expect(res.json().success).toMatchObject({ rankings, user, nextPage: null })
    expect((await get(url, u.outsider.cookie)).statusCode).toBe(404)
  })

  it('names bad and unknown seasons', async () => {
    const bad = await get('/api/bbl/seasons/24-25', u.commish.cookie)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('year')
    for (const year of ['2019-20', '2025-26']) {
      const res = await get(`/api/bbl/seasons/${year}`, u.commish.cookie)
      expect(res.statusCode).toBe(404)
      expect(res.json().errors[0]).toMatchObject({ code: 'NOT_FOUND', param: 'year' })
    }
  })
})

describe('nothing of a past season can be changed', () => {
  const snapshot = async () =>
    JSON.stringify(
      await Promise.all([
        t.db.selectFrom('tips').selectAll().orderBy('user_id').orderBy('match_id').execute(),
        t.db.selectFrom('leagues').selectAll().orderBy('id').execute(),
        t.db
          .selectFrom('league_members')
          .selectAll()
          .orderBy('league_id')
          .orderBy('user_id')
          .execute(),
        t.db.selectFrom('email_outbox').select('id').orderBy('id').execute(),
      ]),
    )

  it('refuses tips, auto-picks and clears on its matches, naming the match', async () => {
    const start = await snapshot()
    const [first] = pastMatchIds
    const squad = (
      await t.db
        .selectFrom('matches')
        .select('home_squad_id')
        .where('id', '=', first!)
        .executeTakeFirstOrThrow()
    ).home_squad_id
    for (const url of ['predictions_list', 'predictions_list/autopick', 'predictions_list/clear']) {
      const res = await post(`/api/bbl/${url}`, u.commish.cookie, {
        predictions: [url === 'predictions_list' ? { match: first, squad } : { match: first }],
      })
      expect(res.statusCode, url).toBe(404)
      expect(res.json().errors[0], url).toMatchObject({
        code: 'NOT_FOUND',
        param: 'predictions.0.match',
      })
    }
    const one = await post('/api/bbl/tips', u.commish.cookie, { match: first, squad })
    expect(one.statusCode).toBe(404)
    expect(await snapshot()).toBe(start)
  })

  it("refuses every change to its leagues with the season's name, and tells outsiders nothing", async () => {
    const start = await snapshot()
    const id = league.id
    const calls: [string, User, unknown, string][] = [
      [`/api/bbl/league/${id}`, u.commish, { name: 'Renamed' }, 'id'],
      [`/api/bbl/league/${id}/delete`, u.commish, undefined, 'id'],
      [`/api/bbl/league/${id}/leave`, u.mate, undefined, 'id'],
      [`/api/bbl/league/${id}/commissioner`, u.commish, { userId: u.mate.id }, 'id'],
      [`/api/bbl/league/${id}/invite`, u.commish, { emails: ['x@example.com'] }, 'id'],
      [
        '/api/bbl/league/send_emails',
        u.commish,
        { leagueId: id, subject: 'Hi', message: 'Hello' },
        'id',
      ],
      [`/api/bbl/league/${id}/user/${u.mate.id}`, u.commish, undefined, 'id'],
      [`/api/bbl/league/${league.code}/join`, u.outsider, undefined, 'code'],
    ]
    for (const [url, who, body, param] of calls) {
      const res = await post(url, who.cookie, body)
      expect(res.statusCode, url).toBe(409)
      expect(res.json().errors[0], url).toMatchObject({ code: 'CONFLICT', param })
      expect(res.json().errors[0].message, url).toContain('2024-25')
    }
    // A private league of last season is still not confirmed to a non-member.
    const outsider = await post(`/api/bbl/league/${id}`, u.outsider.cookie, { name: 'Mine' })
    expect(outsider.statusCode).toBe(404)
    for (const url of ['/api/tipping_join/delete_multi', '/api/tipping_join/edit_users']) {
      const res = await post(
        url,
        u.commish.cookie,
        url.endsWith('multi')
          ? { leagueId: id, userIds: [u.mate.id] }
          : { leagueId: id, users: [{ userId: u.mate.id, remove: true }] },
      )
      expect(res.statusCode, url).toBe(404)
    }
    expect(await snapshot()).toBe(start)
  })
})

describe('league renewal', () => {
  let renewed: { id: number; code: string }

  it('is the commissioner’s, for a past league, from an open week', async () => {
    const url = `/api/bbl/league/${league.id}/renew`
    expect((await post(url, u.mate.cookie, {})).json().errors[0].code).toBe('FORBIDDEN')
    expect((await post(url, u.outsider.cookie, {})).statusCode).toBe(404)
    for (const startRound of [0, 'two', 999]) {
      const res = await post(url, u.commish.cookie, { startRound })
      expect(res.statusCode, String(startRound)).toBe(400)
      expect(res.json().errors[0].param).toBe('startRound')
    }
    const extra = await post(url, u.commish.cookie, { name: 'x' })
    expect(extra.statusCode).toBe(400)
    expect(
      await t.db.selectFrom('leagues').select('id').where('renewed_from', '=', league.id).execute(),
    ).toEqual([])
  })

  it('creates the league in the current season with the commissioner alone, and asks the others by email', async () => {
    const res = await post(`/api/bbl/league/${league.id}/renew`, u.commish.cookie, {})
    expect(res.statusCode).toBe(200)
    renewed = res.json().success.league
    expect(res.json().success.league).toMatchObject({
      name: 'Across The Seasons',
      privacy: 'private',
      numUser: 1,
      isCommissioner: true,
      startRound: 1,
    })
    expect(renewed.code).not.toBe(league.code)
    const row = await t.db
      .selectFrom('leagues')
      .innerJoin('competitions', 'competitions.id', 'leagues.competition_id')
      .select(['renewed_from', 'is_current'])
      .where('leagues.id', '=', renewed.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ renewed_from: league.id, is_current: true })
    const mail = await t.db
      .selectFrom('email_outbox')
      .select(['to_address', 'text_body'])
      .where('kind', '=', 'league_renewal')
      .orderBy('to_address')
      .execute()
    expect(mail.map((m) => m.to_address).sort()).toEqual(
      [u.commish.email, u.mate.email, u.other.email].sort(),
    )
    expect(mail[0]!.text_body).toContain('/bbl/leagues')
    // Once only; and a league of this season is not renewed.
    const again = await post(`/api/bbl/league/${league.id}/renew`, u.commish.cookie, {})
    expect(again.statusCode).toBe(409)
    const current = await post(`/api/bbl/league/${renewed.id}/renew`, u.commish.cookie, {})
    expect(current.statusCode).toBe(409)
  })

  it('renews a league once when asked twice at once (under its row lock)', async () => {
    const url = `/api/bbl/league/${twice.id}/renew`
    const both = await Promise.all([
      post(url, u.commish.cookie, {}),
      post(url, u.commish.cookie, {}),
    ])
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409])
    const rows = await t.db
      .selectFrom('leagues')
      .select('id')
      .where('renewed_from', '=', twice.id)
      .execute()
    expect(rows).toHaveLength(1)
  })

  it('offers it to last season’s members, who join with one click or decline', async () => {
    const offers = async (who: User) =>
      (await get('/api/bbl/league-renewals', who.cookie)).json().success.offers as { id: number }[]
    expect(await offers(u.outsider)).toEqual([])
    expect(await offers(u.commish)).toEqual([])
    expect(await offers(u.mate)).toMatchObject([
      {
        id: renewed.id,
        commissioner: 'Team commish',
        from: { id: league.id, year: '2024-25' },
      },
    ])
    expect(
      (await post(`/api/bbl/league-renewals/${renewed.id}/accept`, u.outsider.cookie)).statusCode,
    ).toBe(404)

    const accepted = await post(`/api/bbl/league-renewals/${renewed.id}/accept`, u.mate.cookie)
    expect(accepted.statusCode).toBe(200)
    expect(accepted.json().success.league).toMatchObject({
      id: renewed.id,
      isMember: true,
      numUser: 2,
    })
    expect(await offers(u.mate)).toEqual([])

    expect(
      (await post(`/api/bbl/league-renewals/${renewed.id}/decline`, u.other.cookie)).statusCode,
    ).toBe(200)
    expect(await offers(u.other)).toEqual([])
    expect(
      (await post(`/api/bbl/league-renewals/${renewed.id}/accept`, u.other.cookie)).statusCode,
    ).toBe(404)
    const members = await t.db
      .selectFrom('league_members')
      .select('user_id')
      .where('league_id', '=', renewed.id)
      .orderBy('user_id')
      .execute()
    expect(members.map((m) => m.user_id)).toEqual([u.commish.id, u.mate.id].sort((a, b) => a - b))
  })

  it("keeps last season's final ladder and champions on the league's history", async () => {
    const res = await get(`/api/bbl/league/${renewed.id}/history`, u.mate.cookie)
    expect(res.statusCode).toBe(200)
    const { rankings } = before.ladder as { rankings: { rank: number; userId: number }[] }
    const [season] = res.json().success.seasons
    expect(res.json().success.seasons).toHaveLength(1)
    expect(season).toMatchObject({ leagueId: league.id, year: '2024-25', numUser: 3 })
    expect(season.champions).toEqual(rankings.filter((r) => r.rank === 1))
    expect(season.user).toEqual(rankings.find((r) => r.userId === u.mate.id))
    // The season's round honours are what the league's honours said while it was current: every
    // completed week (the whole season was played), each with its winners.
    const { rounds } = before.honours as { rounds: { round: number; winners: unknown[] }[] }
    expect(rounds.length).toBeGreaterThan(3)
    expect(rounds.every((r) => r.winners.length > 0)).toBe(true)
    expect(season.rounds).toEqual(rounds)
    // The archive's list links last season's league to this one.
    const archive = (await get('/api/bbl/seasons/2024-25', u.mate.cookie)).json().success
    expect(archive.leagues.find((l: { id: number }) => l.id === league.id).renewedBy).toBe(
      renewed.id,
    )
    expect((await get(`/api/bbl/league/${renewed.id}/history`, u.outsider.cookie)).statusCode).toBe(
      404,
    )
  })
})
