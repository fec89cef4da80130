import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import { PredictionsService } from '../src/modules/predictions/service.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import { createTestApp, loadResults, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Real BBL|15 fixture: round 3 is matches 17-24, 2025-12-31 to 2026-01-05 (UTC).
const NOW = new Date('2026-01-02T12:00:00Z')
let t: TestApp
let user: { cookie: string; id: number }
const matchIds = new Map<
  number,
  { id: number; home: number; away: number; startsAt: Date; margin: boolean }
>()

beforeAll(async () => {
  t = await createTestApp({ now: NOW })
  await loadSeasons(t.db)
  await loadResults(t.db, 'bbl', NOW)
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select([
      'matches.id',
      'matches.number',
      'home_squad_id',
      'away_squad_id',
      'starts_at',
      'is_margin_game',
    ])
    .where('competitions.sport', '=', 'bbl')
    .execute()
  for (const r of rows) {
    matchIds.set(r.number, {
      id: r.id,
      home: r.home_squad_id,
      away: r.away_squad_id,
      startsAt: r.starts_at,
      margin: r.is_margin_game,
    })
  }
  user = await registerUser(t.app)
})
afterAll(() => t.close())

const m = (n: number) => matchIds.get(n)!
const getRound = (round: number, cookie = user.cookie) =>
  t.app.inject({ url: `/api/bbl/predictions/${round}`, headers: { cookie } })
const save = (predictions: unknown, cookie = user.cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie },
    payload: { predictions },
  })
const tipsOf = (userId: number) =>
  t.db
    .selectFrom('tips')
    .select(['match_id', 'squad_id', 'margin', 'is_auto_tip'])
    .where('user_id', '=', userId)
    .orderBy('match_id')
    .execute()

describe('GET predictions/{round}', () => {
  it("returns the round's matches in order with their live status and no tips yet", async () => {
    const res = await getRound(3)
    expect(res.statusCode).toBe(200)
    const { round, matches, predictions } = res.json().success
    expect(round).toMatchObject({ number: 3, status: 'active', isGoldenWeek: false })
    expect(matches.map((x: { number: number }) => x.number)).toEqual([
      17, 18, 19, 20, 21, 22, 23, 24,
    ])
    const status = Object.fromEntries(
      matches.map((x: { number: number; status: string }) => [x.number, x.status]),
    )
    expect(status).toMatchObject({
      17: 'complete',
      18: 'complete',
      19: 'complete',
      20: 'active',
      21: 'scheduled',
      24: 'scheduled',
    })
    expect(matches.filter((x: { isMarginGame: boolean }) => x.isMarginGame)).toHaveLength(1)
    const done = matches.find((x: { number: number }) => x.number === 17)
    expect(done).toMatchObject({
      homeRuns: expect.any(Number),
      awayRuns: expect.any(Number),
      winnerSquadId: expect.any(Number),
    })
    expect(predictions).toHaveLength(8)
    expect(predictions.every((p: { squad: number }) => p.squad === 0)).toBe(true)
  })

  it('answers 404 for a round that does not exist and 400 for a non-integer round', async () => {
    expect((await getRound(99)).statusCode).toBe(404)
    const bad = await t.app.inject({
      url: '/api/bbl/predictions/abc',
      headers: { cookie: user.cookie },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].param).toBe('round')
  })

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/bbl/predictions/3' })).statusCode).toBe(401)
  })
})

describe('POST predictions_list', () => {
  it('saves open tips (margin only on the margin game) and returns them, then updates in place', async () => {
    const marginGame = [21, 22, 23, 24].find((n) => m(n).margin)!
    const plain = [21, 22, 23, 24].find((n) => !m(n).margin)!
    const res = await save([
      { match: m(marginGame).id, squad: m(marginGame).home, margin: 14 },
      { match: m(plain).id, squad: m(plain).away, margin: 30 },
    ])
    expect(res.statusCode).toBe(200)
    const saved = res.json().success.predictions
    expect(saved.find((p: { match: number }) => p.match === m(marginGame).id)).toMatchObject({
      squad: m(marginGame).home,
      margin: 14,
      isAutoTip: false,
    })
    expect(saved.find((p: { match: number }) => p.match === m(plain).id)).toMatchObject({
      squad: m(plain).away,
      margin: null,
    })

    const again = await save([{ match: m(plain).id, squad: m(plain).home }])
    expect(again.statusCode).toBe(200)
    const tips = await tipsOf(user.id)
    expect(tips).toHaveLength(2)
    expect(tips.find((x) => x.match_id === m(plain).id)?.squad_id).toBe(m(plain).home)

    const round = (await getRound(3)).json().success
    expect(round.predictions.find((p: { match: number }) => p.match === m(plain).id).squad).toBe(
      m(plain).home,
    )
  })

  it('refuses the whole list when one tip is on a started match, and changes nothing', async () => {
    const u = await registerUser(t.app)
    await save([{ match: m(22).id, squad: m(22).home }], u.cookie)
    const before = await tipsOf(u.id)
    const res = await save(
      [
        { match: m(22).id, squad: m(22).away },
        { match: m(20).id, squad: m(20).home },
      ],
      u.cookie,
    )
    expect(res.statusCode).toBe(409)
    expect(res.json().errors[0]).toMatchObject({
      code: 'MATCH_LOCKED',
      param: 'predictions.1.match',
    })
    expect(await tipsOf(u.id)).toEqual(before)
  })

  it('refuses a squad that is not in the match', async () => {
    const other = [m(21).home, m(21).away].includes(m(22).home) ? m(22).away : m(22).home
    const res = await save([{ match: m(21).id, squad: other }])
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toMatchObject({
      code: 'INVALID_SQUAD',
      param: 'predictions.0.squad',
    })
  })

  it('locks at the start time to the millisecond', async () => {
    const u = await registerUser(t.app)
    const target = m(23)
    t.clock.set(new Date(target.startsAt.getTime() - 1))
    try {
      expect((await save([{ match: target.id, squad: target.home }], u.cookie)).statusCode).toBe(
        200,
      )
      t.clock.set(new Date(target.startsAt.getTime()))
      const late = await save([{ match: target.id, squad: target.away }], u.cookie)
      expect(late.statusCode).toBe(409)
      t.clock.set(new Date(target.startsAt.getTime() + 1))
      expect((await save([{ match: target.id, squad: target.away }], u.cookie)).statusCode).toBe(
        409,
      )
      expect((await tipsOf(u.id)).map((x) => x.squad_id)).toEqual([target.home])
    } finally {
      t.clock.set(NOW)
    }
  })

  it.each([
    [{ predictions: 'x' }, 'predictions'],
    [{ predictions: [] }, 'predictions'],
    [{ predictions: [{ match: 1 }] }, 'predictions.0.squad'],
    [{ predictions: [{ match: 1, squad: 2, margin: 101 }] }, 'predictions.0.margin'],
    [{ predictions: [{ match: 1, squad: 2, margin: 2.5 }] }, 'predictions.0.margin'],
    [{ predictions: [{ match: -1, squad: 2 }] }, 'predictions.0.match'],
  ])('refuses body %j naming %s', async (payload, param) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/predictions_list',
      headers: { cookie: user.cookie },
      payload,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toMatchObject({ code: 'VALIDATION', param })
  })

  it('refuses a match of the other competition and a match listed twice', async () => {
    const wbblMatch = await t.db
      .selectFrom('matches')
      .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
      .select(['matches.id', 'home_squad_id'])
      .where('competitions.sport', '=', 'wbbl')
      .executeTakeFirstOrThrow()
    const foreign = await save([{ match: wbblMatch.id, squad: wbblMatch.home_squad_id }])
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().errors[0].param).toBe('predictions.0.match')
    const twice = await save([
      { match: m(24).id, squad: m(24).home },
      { match: m(24).id, squad: m(24).away },
    ])
    expect(twice.statusCode).toBe(400)
    expect(twice.json().errors[0].param).toBe('predictions.1.match')
  })

  it('refuses a match or squad that does not exist, writing nothing', async () => {
    // tips has no foreign keys (migration 2026-11-24T0200): the writer's checks are all there is.
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('tips')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    const noMatch = await save([
      { match: m(24).id, squad: m(24).home },
      { match: 2_147_483_647, squad: m(24).home },
    ])
    expect(noMatch.statusCode).toBe(404)
    expect(noMatch.json().errors[0].param).toBe('predictions.1.match')
    const noSquad = await save([
      { match: m(24).id, squad: m(24).home },
      { match: m(25).id, squad: 2_147_483_647 },
    ])
    expect(noSquad.statusCode).toBe(400)
    expect(noSquad.json().errors[0]).toMatchObject({
      code: 'INVALID_SQUAD',
      param: 'predictions.1.squad',
    })
    expect(await count()).toBe(before)
  })

  it('shows the pick split once tips exist', async () => {
    const a = await registerUser(t.app)
    const b = await registerUser(t.app)
    await save([{ match: m(24).id, squad: m(24).home }], a.cookie)
    await save([{ match: m(24).id, squad: m(24).away }], b.cookie)
    const matches = (await getRound(3)).json().success.matches
    const split = matches.find((x: { id: number }) => x.id === m(24).id)
    expect(split.home_percent + split.away_percent).toBe(100)
    expect(split.home_percent).toBeGreaterThan(0)
  })

  it("shares a round's matches between tippers, and rebuilds them when a match's status moves", async () => {
    // With the caches of a deployment: the matches are built and serialised once and their JSON
    // reused, each tipper's own tips beside them; the status of a match that starts is not.
    const service = new PredictionsService(
      t.db,
      t.clock,
      new CurrentCompetitions(t.db, 60_000),
      60_000,
    )
    const other = await registerUser(t.app)
    await save([{ match: m(24).id, squad: m(24).away }], other.cookie)
    const mine = await service.roundForUser('bbl', asRoundNumber(3), user.id)
    const theirs = await service.roundForUser('bbl', asRoundNumber(3), other.id)
    expect(theirs.matchesJson).toBe(mine.matchesJson)
    const tipOn24 = (r: typeof mine) => r.predictions.find((p) => p.match === m(24).id)?.squad
    expect(tipOn24(theirs)).toBe(m(24).away)
    expect(tipOn24(mine)).not.toBe(m(24).away)
    const statusOf24 = (r: typeof mine) =>
      (JSON.parse(r.matchesJson) as { id: number; status: string }[]).find((x) => x.id === m(24).id)
        ?.status
    expect(statusOf24(mine)).toBe('scheduled')
    const was = t.clock.now()
    t.clock.set(new Date(m(24).startsAt.getTime() + 1))
    try {
      const later = await service.roundForUser('bbl', asRoundNumber(3), user.id)
      expect(statusOf24(later)).not.toBe('scheduled')
      expect(later.predictions.find((p) => p.match === m(24).id)?.status).toBe(statusOf24(later))
    } finally {
      t.clock.set(was)
    }
  })
})
