import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asMatchId, asSquadId } from '@tipping/contract/ids'
import { TipWriter } from '../src/modules/predictions/tip-writer.ts'
import { createTestApp, loadSeasons, registerUser, sessionCookie, type TestApp } from './helpers.ts'

// Issue 9 item 3: races. Saves straddling a lockout instant, one user saving from two sessions at
// once, and concurrent joins of one league. Runs on PGlite (one connection) and, in the
// server-postgres project, on PostgreSQL with a real connection pool, where the requests truly
// overlap. Two schedulers running at once: lifecycle.test.ts, "is idempotent and safe with two
// schedulers running at once".

let t: TestApp
interface Match {
  id: number
  starts_at: Date
  home_squad_id: number
  away_squad_id: number
}
let round1: Match[]

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  const comp = await t.db
    .selectFrom('competitions')
    .select('id')
    .where('sport', '=', 'bbl')
    .executeTakeFirstOrThrow()
  round1 = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select(['matches.id', 'matches.starts_at', 'matches.home_squad_id', 'matches.away_squad_id'])
    .where('rounds.competition_id', '=', comp.id)
    .where('rounds.number', '=', 1)
    .orderBy('matches.starts_at')
    .orderBy('matches.id')
    .execute()
  expect(round1.length).toBeGreaterThanOrEqual(3)
})
afterAll(() => t.close())

const save = (cookie: string, predictions: { match: number; squad: number }[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie },
    payload: { predictions },
  })

/** A user's stored squads on round 1's matches, in match id order. */
const storedPicks = async (userId: number) =>
  (
    await t.db
      .selectFrom('tips')
      .select('squad_id')
      .where('user_id', '=', userId)
      .where(
        'match_id',
        'in',
        round1.map((m) => m.id),
      )
      .orderBy('match_id')
      .execute()
  ).map((s) => s.squad_id)

/** A list's squads in match id order, to compare with storedPicks. */
const inMatchOrder = (list: { match: number; squad: number }[]) =>
  [...list].sort((a, b) => a.match - b.match).map((p) => p.squad)

describe('saves straddling the lockout instant', () => {
  it('accepts none of 200 concurrent saves sent once the match has started', async () => {
    const match = round1[0]!
    const tippers = await Promise.all(Array.from({ length: 10 }, () => registerUser(t.app)))
    t.clock.set(new Date(match.starts_at.getTime() - 60_000))
    type Sent = { afterLock: boolean; squad: number; tipper: number; res: ReturnType<typeof save> }
    const launch = (i: number, afterLock: boolean): Sent => {
      const squad = i % 2 === 0 ? match.home_squad_id : match.away_squad_id
      const tipper = i % tippers.length
      return {
        afterLock,
        squad,
        tipper,
        res: save(tippers[tipper]!.cookie, [{ match: match.id, squad }]),
      }
    }
    // The first hundred go out before the start. When ten of them have answered, the clock
    // reaches the start and the second hundred go out, while the rest of the first are in flight.
    const first = Array.from({ length: 100 }, (_, i) => launch(i, false))
    let answered = 0
    let inFlightAtSwitch = 0
    const lockedAndSent = new Promise<Sent[]>((resolve) => {
      for (const s of first)
        void s.res.then(() => {
          if (++answered !== 10) return
          t.clock.set(match.starts_at)
          inFlightAtSwitch = 100 - answered
          resolve(Array.from({ length: 100 }, (_, i) => launch(100 + i, true)))
        })
    })
    const second = await lockedAndSent
    const results = await Promise.all(
      [...first, ...second].map(async (l) => ({ ...l, res: await l.res })),
    )
    // The two halves overlapped: some of the first hundred were still unanswered at the switch.
    expect(inFlightAtSwitch).toBeGreaterThan(0)
    for (const r of results) {
      expect([200, 409]).toContain(r.res.statusCode)
      if (r.afterLock) {
        expect(r.res.statusCode).toBe(409)
        expect(r.res.json().errors[0]).toMatchObject({
          code: 'MATCH_LOCKED',
          param: 'predictions.0.match',
        })
      }
    }
    expect(results.filter((r) => r.res.statusCode === 200).length).toBeGreaterThan(0)
    // Nothing written after the lock: every stored tip predates (or is at) the start, and each
    // tipper's stored squad is one an accepted request of theirs sent.
    const tips = await t.db
      .selectFrom('tips')
      .select(['user_id', 'squad_id', 'updated_at'])
      .where('match_id', '=', match.id)
      .execute()
    for (const tip of tips) {
      expect(new Date(tip.updated_at).getTime()).toBeLessThanOrEqual(match.starts_at.getTime())
      const accepted = results.filter(
        (r) => r.res.statusCode === 200 && tippers[r.tipper]!.id === tip.user_id,
      )
      expect(accepted.map((r) => r.squad)).toContain(tip.squad_id)
    }
    // And later saves still refused, from any tipper.
    t.clock.set(new Date(match.starts_at.getTime() + 1))
    const late = await save(tippers[0]!.cookie, [{ match: match.id, squad: match.home_squad_id }])
    expect(late.statusCode).toBe(409)
  })
})

describe('one user saving from two sessions at once', () => {
  it('ends with one of the submitted lists, never a mix', async () => {
    // Matches still open: the clock goes back before the round.
    t.clock.set(new Date(round1[0]!.starts_at.getTime() - 86_400_000))
    const matches = round1
    const user = await registerUser(t.app)
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'correct horse battery' },
    })
    const sessions = [user.cookie, sessionCookie(second)]
    const home = matches.map((m) => ({ match: m.id, squad: m.home_squad_id }))
    const away = matches.map((m) => ({ match: m.id, squad: m.away_squad_id }))
    // Each list in the reverse match order of the other, so two interleaved writers would
    // cross over if the saves were not one at a time.
    const awayReversed = [...away].reverse()
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          save(sessions[i % 2]!, i % 4 < 2 ? home : awayReversed),
        ),
      )
      for (const a of answers) expect(a.statusCode, a.body.slice(0, 200)).toBe(200)
      expect([inMatchOrder(home), inMatchOrder(away)]).toContainEqual(await storedPicks(user.id))
    }
  })
})

describe('one user saving while earlier saves are still being written', () => {
  it('applies their lists in the order they reached the writer, with other batches in flight', async () => {
    t.clock.set(new Date(round1[0]!.starts_at.getTime() - 86_400_000))
    // The writer itself: over HTTP two requests of one user may reach it in either order
    // (each first resolves its session), and the order here is the one it promises to keep.
    const writer = new TipWriter(t.db, t.clock)
    const { id: competitionId } = await t.db
      .selectFrom('competitions')
      .select('id')
      .where('sport', '=', 'bbl')
      .executeTakeFirstOrThrow()
    const me = await registerUser(t.app)
    const others = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)))
    const home = round1.map((m) => ({ match: asMatchId(m.id), squad: asSquadId(m.home_squad_id) }))
    const away = round1.map((m) => ({ match: asMatchId(m.id), squad: asSquadId(m.away_squad_id) }))
    const save = (userId: number, list: typeof home) =>
      writer.save('bbl', competitionId, userId, list)
    const next = () => new Promise((resolve) => setImmediate(resolve))
    for (let i = 0; i < 10; i++) {
      const [first, last] = i % 2 ? [home, away] : [away, home]
      // Other users' saves keep batches going; mine follow one another a turn of the loop apart,
      // so the first is still being committed when the second is batched.
      const sent = [save(me.id, first), ...others.slice(0, 3).map((o) => save(o.id, home))]
      await next()
      sent.push(save(me.id, last), ...others.slice(3).map((o) => save(o.id, away)))
      await Promise.all(sent)
      expect(await storedPicks(me.id)).toEqual(inMatchOrder(last))
    }
  })
})

describe('saves that arrive together (written by one transaction)', () => {
  it('writes every valid list and refuses each bad one alone', async () => {
    t.clock.set(new Date(round1[0]!.starts_at.getTime() - 86_400_000))
    const tippers = await Promise.all(Array.from({ length: 24 }, () => registerUser(t.app)))
    const home = round1.map((m) => ({ match: asMatchId(m.id), squad: asSquadId(m.home_squad_id) }))
    const away = round1.map((m) => ({ match: asMatchId(m.id), squad: asSquadId(m.away_squad_id) }))
    const playing = new Set([round1[1]!.home_squad_id, round1[1]!.away_squad_id])
    const notPlaying = round1.map((m) => m.home_squad_id).find((id) => !playing.has(id))!
    const listFor = (i: number) =>
      i % 4 === 0
        ? home.map((p, j) => (j === 1 ? { ...p, squad: notPlaying } : p))
        : i % 4 === 1
          ? home.map((p, j) => (j === 2 ? { ...p, match: 999_999 } : p))
          : home
    const both = tippers[2]!
    const answers = await Promise.all([
      ...tippers.map((tipper, i) => save(tipper.cookie, listFor(i))),
      save(both.cookie, away),
    ])
    for (const [i, tipper] of tippers.entries()) {
      const res = answers[i]!
      const stored = await t.db
        .selectFrom('tips')
        .select(['match_id', 'squad_id'])
        .where('user_id', '=', tipper.id)
        .execute()
      if (i % 4 === 0) {
        expect(res.statusCode).toBe(400)
        expect(res.json().errors[0]).toMatchObject({
          code: 'INVALID_SQUAD',
          param: 'predictions.1.squad',
        })
        expect(stored).toEqual([])
      } else if (i % 4 === 1) {
        expect(res.statusCode).toBe(404)
        expect(res.json().errors[0]).toMatchObject({ param: 'predictions.2.match' })
        expect(stored).toEqual([])
      } else {
        expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
        // The tipper who sent two lists at once ends with one of them whole.
        const wants = tipper === both ? [home, away] : [home]
        expect(wants.map((w) => new Map(w.map((p) => [p.match, p.squad])))).toContainEqual(
          new Map(stored.map((r) => [r.match_id, r.squad_id])),
        )
        if (tipper !== both) {
          const saved = res.json().success.predictions as { match: number; squad: number }[]
          expect(new Map(saved.map((p) => [p.match, p.squad]))).toEqual(
            new Map(home.map((p) => [p.match, p.squad])),
          )
        }
      }
    }
    expect(answers.at(-1)!.statusCode).toBe(200)
  })
})

describe('concurrent joins of one league', () => {
  it('gives one membership however often the same user joins at once', async () => {
    const owner = await registerUser(t.app)
    const joiner = await registerUser(t.app)
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/league',
      headers: { cookie: owner.cookie },
      payload: { name: 'Race League', startRound: 1 },
    })
    const league = created.json().success.league as { id: number; code: string }
    const join = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/bbl/league/${league.code}/join`,
        headers: { cookie },
      })
    const answers = await Promise.all(Array.from({ length: 25 }, () => join(joiner.cookie)))
    for (const a of answers) expect(a.statusCode).toBe(200)
    const rows = await t.db
      .selectFrom('league_members')
      .selectAll()
      .where('league_id', '=', league.id)
      .where('user_id', '=', joiner.id)
      .execute()
    expect(rows).toHaveLength(1)

    // Many different users at once: the member count matches the rows.
    const others = await Promise.all(Array.from({ length: 8 }, () => registerUser(t.app)))
    await Promise.all(others.flatMap((o) => [join(o.cookie), join(o.cookie)]))
    const members = await t.db
      .selectFrom('league_members')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('league_id', '=', league.id)
      .executeTakeFirstOrThrow()
    const stored = await t.db
      .selectFrom('leagues')
      .select('num_users')
      .where('id', '=', league.id)
      .executeTakeFirstOrThrow()
    expect(Number(members.n)).toBe(10)
    expect(Number(stored.num_users)).toBe(10)
  })
})

describe('concurrent password changes', () => {
  it('lets one of several changes from the same current password win; the others are refused', async () => {
    // Each checked the current password before the first committed, so every one answered 200
    // and the last to commit won: the player was told their new password was set when it was not.
    const user = await registerUser(t.app)
    const change = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/password',
        headers: { cookie: user.cookie },
        payload: {
          currentPassword: 'correct horse battery',
          password: `new password ${i} set`,
          confirmation: `new password ${i} set`,
        },
      })
    const answers = await Promise.all([0, 1, 2, 3, 4].map(change))
    const won = answers.flatMap((a, i) => (a.statusCode === 200 ? [i] : []))
    expect(won).toHaveLength(1)
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(400)
      expect(a.json().errors[0]).toMatchObject({ param: 'currentPassword' })
    }
    // The password is the one the 200 named, and no other.
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password },
      })
    expect((await login(`new password ${won[0]!} set`)).statusCode).toBe(200)
    for (const i of [0, 1, 2, 3, 4].filter((j) => j !== won[0]))
      expect((await login(`new password ${i} set`)).statusCode).toBe(401)
  })
})
