import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import type { SeasonFile } from '@tipping/contract/season-file'
import * as migration from '../src/db/migrations/2026-11-25T0200-margin-game-default.ts'
import { AppError } from '../src/errors.ts'
import { importSeason, readSeasonFile } from '../src/modules/seasons/service.ts'
import {
  createTestApp,
  makeAdmin,
  registerUser,
  seasonPath,
  signIn,
  type TestApp,
} from './helpers.ts'

// GAME_RULES.md: exactly one match per round is the margin game. The fixture marks it; a round
// that marks none has its last match by start time (ties: the higher number); a fixture marking
// two in a round is refused. The same wherever a fixture enters or changes: the importer, the
// admin console's fixture upload and match edits, and the migration for databases made before.

const T0 = new Date('2026-03-01T00:00:00Z')
let t: TestApp
let admin: { cookie: string; id: number; email: string }
let tipper: { cookie: string; id: number }
let real: SeasonFile
let competitionId: number

type Fixture = [number, string, boolean?][]
/** Rounds of [match number, start (UTC), marked] in a made-up BBL season. */
const ROUNDS: Record<number, Fixture> = {
  // No mark; the last to start is match 2, not the highest number.
  1: [
    [1, '2026-03-10T08:00:00Z'],
    [2, '2026-03-12T08:00:00Z'],
    [3, '2026-03-11T08:00:00Z'],
  ],
  // Marks its first match: the mark wins over the last.
  2: [
    [4, '2026-03-17T08:00:00Z', true],
    [5, '2026-03-18T08:00:00Z'],
    [6, '2026-03-19T08:00:00Z'],
  ],
  // No mark, two matches at once: the higher number.
  3: [
    [7, '2026-03-24T08:00:00Z'],
    [8, '2026-03-24T08:00:00Z'],
  ],
  4: [
    [9, '2026-03-31T08:00:00Z'],
    [10, '2026-04-01T08:00:00Z'],
  ],
  5: [
    [11, '2026-04-07T08:00:00Z'],
    [12, '2026-04-08T08:00:00Z'],
    [13, '2026-04-09T08:00:00Z'],
  ],
}

function season(number: number, rounds: Record<number, Fixture> = ROUNDS): SeasonFile {
  const codes = real.squads.map((s) => s.code)
  return {
    ...real,
    season: number,
    name: `BBL|${number} margin games`,
    year: '2026',
    goldenWeekRound: null,
    rounds: Object.entries(rounds).map(([round, matches]) => ({
      number: asRoundNumber(Number(round)),
      label: `Week ${round}`,
      matches: matches.map(([n, startsAt, marked]) => ({
        number: n,
        startsAt,
        venue: real.venues[0]!.key,
        home: codes[n % codes.length]!,
        away: codes[(n + 1) % codes.length]!,
        marginGame: marked ?? false,
        stage: 'regular' as const,
        assumed: [],
      })),
    })),
  }
}

beforeAll(async () => {
  t = await createTestApp({ now: T0 })
  real = await readSeasonFile(seasonPath('bbl'))
  competitionId = await importSeason(t.db, season(40), { sponsorPrefix: 'xyz' })
  const a = await registerUser(t.app, { firstName: 'Ada', lastName: 'Admin' })
  await makeAdmin(t.db, a.id)
  admin = a
  tipper = await registerUser(t.app, { firstName: 'Tilly', lastName: 'Tipper' })
})
afterAll(() => t.close())

/** Match number -> id, start and whether it is the margin game, as stored. */
async function stored() {
  const rows = await t.db
    .selectFrom('matches')
    .select(['id', 'number', 'starts_at', 'is_margin_game'])
    .where('competition_id', '=', competitionId)
    .execute()
  return new Map(rows.map((r) => [r.number, r]))
}
const id = async (number: number) => (await stored()).get(number)!.id
/** The margin game of each round, by match number. */
async function marginGames(): Promise<number[]> {
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .select(['rounds.number as round', 'matches.number'])
    .where('matches.competition_id', '=', competitionId)
    .where('is_margin_game', '=', true)
    .orderBy('rounds.number')
    .execute()
  return rows.map((r) => r.number)
}

const patch = async (match: number, payload: object) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/admin/matches/${await id(match)}`,
    headers: { cookie: admin.cookie },
    payload,
  })
const upload = (file: SeasonFile) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/competitions/import',
    headers: { cookie: admin.cookie },
    payload: file,
  })
const firstError = (res: { json(): { errors: { message: string; param: string | null }[] } }) =>
  res.json().errors[0]!

describe('a fixture that marks no margin game in a round', () => {
  it('makes the last match by start time the margin game, and a mark wins over it', async () => {
    const res = await t.app.inject({
      url: '/api/bbl/predictions/1',
      headers: { cookie: tipper.cookie },
    })
    expect(res.statusCode).toBe(200)
    const { matches, predictions } = res.json().success
    expect(
      Object.fromEntries(
        matches.map((m: { number: number; isMarginGame: boolean }) => [m.number, m.isMarginGame]),
      ),
    ).toEqual({ 1: false, 2: true, 3: false })
    expect(
      predictions
        .filter((p: { isMarginGame: boolean }) => p.isMarginGame)
        .map((p: { match: number }) => p.match),
    ).toEqual([await id(2)])
    // Round 2 marks match 4; round 3 starts two at once (the higher number); one per round.
    expect(await marginGames()).toEqual([2, 4, 8, 10, 13])
  })

  it("stores the margin tipped on the round's last match, and none on the others", async () => {
    const rows = await t.db
      .selectFrom('matches')
      .select(['id', 'home_squad_id'])
      .where('id', 'in', [await id(1), await id(2)])
      .execute()
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/predictions_list',
      headers: { cookie: tipper.cookie },
      payload: {
        predictions: rows.map((r) => ({ match: r.id, squad: r.home_squad_id, margin: 14 })),
      },
    })
    expect(saved.statusCode).toBe(200)
    const tips = await t.db
      .selectFrom('tips')
      .select(['match_id', 'margin'])
      .where('user_id', '=', tipper.id)
      .execute()
    expect(Object.fromEntries(tips.map((x) => [x.match_id, x.margin]))).toEqual({
      [await id(1)]: null,
      [await id(2)]: 14,
    })
  })
})

describe('a fixture that marks two margin games in a round', () => {
  const twoMarked = () =>
    season(41, {
      ...ROUNDS,
      3: [
        [7, '2026-03-24T08:00:00Z', true],
        [8, '2026-03-24T08:00:00Z', true],
      ],
    })

  it('is refused by the admin upload with a 400 naming the round, and nothing is written', async () => {
    const res = await upload(twoMarked())
    expect(res.statusCode).toBe(400)
    expect(firstError(res)).toMatchObject({
      code: 'VALIDATION',
      message: 'Round 3 marks two margin games',
      param: 'rounds.2.matches.1.marginGame',
    })
    const c = await t.db
      .selectFrom('competitions')
      .select('id')
      .where('season', '=', 41)
      .executeTakeFirst()
    expect(c).toBeUndefined()
  })

  it('is refused by the importer itself, before anything is written', async () => {
    const err = await importSeason(t.db, twoMarked(), { sponsorPrefix: 'xyz' }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(AppError)
    expect(err).toMatchObject({
      code: 'VALIDATION',
      message: 'Round 3 marks two margin games',
      param: 'rounds.2.matches.1.marginGame',
    })
    const c = await t.db
      .selectFrom('competitions')
      .select('id')
      .where('season', '=', 41)
      .executeTakeFirst()
    expect(c).toBeUndefined()
  })
})

describe('admin edits before a round starts', () => {
  it('moves the margin game of an unmarked round when a new start time makes another match last', async () => {
    const tipped = await t.db
      .selectFrom('matches')
      .select(['id', 'home_squad_id'])
      .where('id', '=', await id(10))
      .executeTakeFirstOrThrow()
    const tip = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/predictions_list',
      headers: { cookie: tipper.cookie },
      payload: { predictions: [{ match: tipped.id, squad: tipped.home_squad_id, margin: 20 }] },
    })
    expect(tip.json().success.predictions[0]).toMatchObject({ margin: 20, isMarginGame: true })

    const res = await patch(9, { startsAt: '2026-04-02T08:00:00Z' })
    expect(res.statusCode).toBe(200)
    expect(res.json().success.match).toMatchObject({ number: 9, isMarginGame: true })
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
    // The margin tipped on match 10 no longer counts: it is not the margin game any more.
    const after = await t.db
      .selectFrom('tips')
      .select('margin')
      .where('user_id', '=', tipper.id)
      .where('match_id', '=', tipped.id)
      .executeTakeFirstOrThrow()
    expect(after.margin).toBeNull()
  })

  it('keeps a marked margin game where it is when another match becomes last', async () => {
    const res = await patch(5, { startsAt: '2026-03-20T08:00:00Z' })
    expect(res.statusCode).toBe(200)
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
  })

  it('marks and unmarks: a mark wins, without one the last match is the margin game', async () => {
    expect((await patch(7, { isMarginGame: true })).statusCode).toBe(200)
    expect(await marginGames()).toEqual([2, 4, 7, 9, 13])
    const unmark = await patch(7, { isMarginGame: false })
    expect(unmark.statusCode).toBe(200)
    expect(unmark.json().success.match).toMatchObject({ number: 7, isMarginGame: false })
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
    // Match 8 is the margin game by default: there is no mark to take off.
    const notMarked = await patch(8, { isMarginGame: false })
    expect(notMarked.statusCode).toBe(400)
    expect(firstError(notMarked).param).toBe('isMarginGame')
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
  })
})

describe('admin edits after a round starts', () => {
  it('refuses to take the mark off, or move it, once the round has started', async () => {
    t.clock.set(new Date('2026-03-17T12:00:00Z')) // match 4 has started, 5 and 6 have not
    const unmark = await patch(4, { isMarginGame: false })
    expect(unmark.statusCode).toBe(409)
    expect(firstError(unmark).param).toBe('isMarginGame')
    const move = await patch(6, { isMarginGame: true })
    expect(move.statusCode).toBe(409)
    expect(firstError(move).param).toBe('isMarginGame')
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
  })

  it('refuses a fixture upload that moves the margin game of a started round', async () => {
    const file = season(40, {
      ...ROUNDS,
      2: [
        [4, '2026-03-17T08:00:00Z'],
        [5, '2026-03-20T08:00:00Z', true],
        [6, '2026-03-19T08:00:00Z'],
      ],
      4: [
        [9, '2026-04-02T08:00:00Z'],
        [10, '2026-04-01T08:00:00Z'],
      ],
    })
    const res = await upload(file)
    expect(res.statusCode).toBe(409)
    expect(firstError(res)).toMatchObject({
      message: 'Round 2 has started: its margin game cannot move from match 4 to match 5',
      param: 'rounds.1.matches.1.marginGame',
    })
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
    // The same file with round 2 as it was goes in.
    file.rounds[1]!.matches[0]!.marginGame = true
    file.rounds[1]!.matches[1]!.marginGame = false
    const ok = await upload(file)
    expect(ok.statusCode).toBe(200)
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
  })

  it('refuses a start time that would make another match last in a started, unmarked round', async () => {
    t.clock.set(new Date('2026-04-07T12:00:00Z')) // match 11 has started, 12 and 13 have not
    admin.cookie = await signIn(t.app, admin.email) // weeks later: a new session
    const before = (await stored()).get(12)!.starts_at
    const res = await patch(12, { startsAt: '2026-04-10T08:00:00Z' })
    expect(res.statusCode).toBe(409)
    expect(firstError(res)).toMatchObject({
      message: 'Round 5 has started: its margin game cannot move from match 13 to match 12',
      param: 'startsAt',
    })
    expect((await stored()).get(12)!.starts_at).toEqual(before)
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
    // A new start time that leaves match 13 last is fine.
    expect((await patch(12, { startsAt: '2026-04-08T09:00:00Z' })).statusCode).toBe(200)
  })
})

describe('the migration for databases made before the rule', () => {
  it('gives each round with matches but no margin game its last match by start time', async () => {
    await migration.down(t.db)
    // As an older import left them: rounds 1 and 3 (a tie) marked none, so have none.
    const rounds = await t.db
      .selectFrom('rounds')
      .select(['id', 'number'])
      .where('competition_id', '=', competitionId)
      .where('number', 'in', [1, 3])
      .execute()
    await t.db
      .updateTable('matches')
      .set({ is_margin_game: false })
      .where(
        'round_id',
        'in',
        rounds.map((r) => r.id),
      )
      .execute()
    expect(await marginGames()).toEqual([4, 9, 13])
    await migration.up(t.db)
    expect(await marginGames()).toEqual([2, 4, 8, 9, 13])
    const marks = await t.db
      .selectFrom('matches')
      .select('number')
      .where('competition_id', '=', competitionId)
      .where('margin_game_flagged', '=', true)
      .orderBy('number')
      .execute()
    // Margin games already there become marks; the ones given by default do not.
    expect(marks.map((m) => m.number)).toEqual([4, 9, 13])
  })
})
