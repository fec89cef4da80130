import { sql, type Updateable } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rescore } from '../src/modules/scoring/service.ts'
import { rebuildSeasonHistories } from '../src/modules/season/history.ts'
import type { DB } from '../src/db/schema.ts'
import {
  createTestApp,
  makeAdmin,
  loadSeasons,
  registerUser,
  seasonPath,
  type TestApp,
} from './helpers.ts'
import { readSeasonFile } from '../src/modules/seasons/service.ts'

// Round 1 of BBL|15: matches 1-8, 2025-12-14 to 2025-12-21. The clock sits after round 1.
const NOW = new Date('2025-12-21T20:00:00Z')
let t: TestApp
let admin: { cookie: string; id: number }
let tipper: { cookie: string; id: number }
const round1: { id: number; home: number; away: number; margin: boolean }[] = []

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-01T00:00:00Z') })
  await loadSeasons(t.db)
  admin = await registerUser(t.app)
  await makeAdmin(t.db, admin.id)
  tipper = await registerUser(t.app)
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('rounds', 'rounds.id', 'matches.round_id')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'home_squad_id', 'away_squad_id', 'is_margin_game'])
    .where('competitions.sport', '=', 'bbl')
    .where('rounds.number', '=', 1)
    .orderBy('matches.number')
    .execute()
  for (const r of rows)
    round1.push({
      id: r.id,
      home: r.home_squad_id,
      away: r.away_squad_id,
      margin: r.is_margin_game,
    })
  // The tipper picks the home side everywhere, 10 sixes on the margin game.
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: tipper.cookie },
    payload: {
      predictions: round1.map((m) => ({
        match: m.id,
        squad: m.home,
        margin: m.margin ? 10 : null,
      })),
    },
  })
  expect(res.statusCode).toBe(200)
  t.clock.set(NOW)
})
afterAll(() => t.close())

const setResult = (matchId: number, body: object, cookie = admin.cookie) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/bbl/matches/${matchId}/result`,
    headers: { cookie },
    payload: body,
  })
const win = (squad: number, sixes: number | null = null) => ({
  outcome: 'win',
  winnerSquadId: squad,
  home: { runs: 160, wickets: 6, overs: '20' },
  away: { runs: 150, wickets: 9, overs: '20' },
  sixes,
})
/** The BBL competition: its id and ladder points. */
const bblCompetition = () =>
  t.db
    .selectFrom('competitions')
    .select(['id', 'ladder_points'])
    .where('sport', '=', 'bbl')
    .executeTakeFirstOrThrow()
/** A request of the console, as the admin. */
const viaConsole = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin.cookie }, payload })
const roundScore = () =>
  t.db
    .selectFrom('round_scores')
    .innerJoin('rounds', 'rounds.id', 'round_scores.round_id')
    .select(['points', 'bonus', 'margin', 'correct', 'round_scores.rank'])
    .where('user_id', '=', tipper.id)
    .where('rounds.number', '=', 1)
    .where('round_scores.competition_id', '=', (eb) =>
      eb.selectFrom('competitions').select('id').where('sport', '=', 'bbl'),
    )
    .executeTakeFirst()

describe('results in, scores out', () => {
  it('refuses visitors and non-admins, changing nothing', async () => {
    const anon = await t.app.inject({
      method: 'POST',
      url: `/api/admin/bbl/matches/${round1[0]!.id}/result`,
      payload: win(round1[0]!.home),
    })
    expect(anon.statusCode).toBe(401)
    const user = await setResult(round1[0]!.id, win(round1[0]!.home), tipper.cookie)
    expect(user.statusCode).toBe(403)
    const match = await t.db
      .selectFrom('matches')
      .select('status')
      .where('id', '=', round1[0]!.id)
      .executeTakeFirstOrThrow()
    expect(match.status).toBe('scheduled')
  })

  it('refuses a winner who did not play and a win without a winner', async () => {
    const m = round1[0]!
    const stranger = round1.find((x) => ![m.home, m.away].includes(x.home))!.home
    expect((await setResult(m.id, win(stranger))).json().errors[0]).toMatchObject({
      code: 'INVALID_SQUAD',
      param: 'winnerSquadId',
    })
    const res = await setResult(m.id, { ...win(m.home), winnerSquadId: null })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].param).toBe('winnerSquadId')
  })

  it('scores each result, awards the clean sweep at the last match, and re-scores a correction', async () => {
    for (const m of round1) {
      const res = await setResult(m.id, win(m.home, m.margin ? 14 : null))
      expect(res.statusCode).toBe(200)
    }
    expect(await roundScore()).toMatchObject({
      correct: 8,
      bonus: 2,
      points: 10,
      margin: 4,
      rank: 1,
    })
    const round = await t.db
      .selectFrom('rounds')
      .innerJoin('competitions', 'competitions.id', 'rounds.competition_id')
      .select('rounds.status')
      .where('competitions.sport', '=', 'bbl')
      .where('rounds.number', '=', 1)
      .executeTakeFirstOrThrow()
    expect(round.status).toBe('complete')

    // A corrected result: the first match went to the away side after all.
    const first = round1[0]!
    expect((await setResult(first.id, win(first.away))).statusCode).toBe(200)
    expect(await roundScore()).toMatchObject({ correct: 7, bonus: 0, points: 7 })
    const standing = await t.db
      .selectFrom('standings')
      .select(['total_points'])
      .where('user_id', '=', tipper.id)
      .executeTakeFirstOrThrow()
    expect(standing.total_points).toBe(7)
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity_id', '=', String(first.id))
      .execute()
    expect(audit.map((a) => a.action)).toEqual(['result.set', 'result.correct'])
  })

  it('keeps the previous result and numbers when scoring fails, and the next attempt builds over what it left', async () => {
    // A relation named as the round's next index makes the round's build fail at its index. On
    // PostgreSQL the standings are built meanwhile on another connection and committed as a next
    // table; on PGlite everything is in the result's transaction.
    const first = round1[0]!
    const { roundId, competitionId } = await t.db
      .selectFrom('matches')
      .select(['round_id as roundId', 'competition_id as competitionId'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow()
    const blocker = sql.table(`round_scores_r${roundId}_next_position`)
    await sql`CREATE TABLE ${blocker} (x int)`.execute(t.db)
    const failed = await setResult(first.id, win(first.home))
    expect(failed.statusCode).toBe(500)
    expect(failed.json().errors[0].code).toBe('INTERNAL')
    const match = await t.db
      .selectFrom('matches')
      .select('winner_squad_id')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow()
    expect(match.winner_squad_id).toBe(first.away)
    expect(await roundScore()).toMatchObject({ correct: 7, bonus: 0, points: 7 })

    // Whatever a failed job left (on PGlite nothing: these stand in for the helpers' tables).
    await sql`DROP TABLE ${blocker}`.execute(t.db)
    await sql`CREATE TABLE IF NOT EXISTS ${sql.table(`round_scores_r${roundId}_next`)} (x int)`.execute(
      t.db,
    )
    await sql`CREATE TABLE IF NOT EXISTS ${sql.table(`standings_c${competitionId}_next`)} (x int)`.execute(
      t.db,
    )
    expect((await setResult(first.id, win(first.home))).statusCode).toBe(200)
    expect(await roundScore()).toMatchObject({ correct: 8, bonus: 2, points: 10 })
    const left = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE '%\_next%'`.execute(t.db)
    expect(left.rows[0]!.n).toBe(0)
  })

  it("keeps every tipper's names and active flag in the standings a result builds", async () => {
    // After one result the standings take the names from each tipper's previous standings row
    // (which the users_to_standings trigger keeps equal to users), and from users for a tipper
    // who has no row; rankings pages read them from there (migration 2026-11-24T0300).
    const first = round1[0]!
    const competitionId = (
      await t.db
        .selectFrom('competitions')
        .select('id')
        .where('sport', '=', 'bbl')
        .executeTakeFirstOrThrow()
    ).id
    const setUser = (id: number, values: Updateable<DB['users']>) =>
      t.db.updateTable('users').set(values).where('id', '=', id).execute()
    const renamed = await registerUser(t.app, { firstName: 'Before' })
    const gone = await registerUser(t.app)
    const rowless = await registerUser(t.app, { firstName: 'Rowless', lastName: 'Zed' })
    for (const u of [renamed, gone, rowless]) await setUser(u.id, { roles: ['ROLE_USER_BBL'] })
    // the registration route placed them only if they registered for the game; make sure they are
    for (const u of [renamed, gone, rowless])
      await sql`INSERT INTO competition_registrations (competition_id, user_id)
        VALUES (${competitionId}, ${u.id}) ON CONFLICT DO NOTHING`.execute(t.db)
    await rescore(t.db, competitionId)
    await setUser(renamed.id, { first_name: 'After', team_name: 'Renamed XI' })
    await setUser(gone.id, { deactivated_at: NOW })
    // a tipper whose standings row is missing (as rows written before placeTipper could be)
    await t.db
      .deleteFrom('standings')
      .where('user_id', '=', rowless.id)
      .where('competition_id', '=', competitionId)
      .execute()
    await setUser(rowless.id, { team_name: 'Rowless Club' })

    expect((await setResult(first.id, win(first.away))).statusCode).toBe(200)
    const rows = await t.db
      .selectFrom('standings')
      .innerJoin('users', 'users.id', 'standings.user_id')
      .select([
        'standings.user_id',
        'standings.team_name',
        'standings.first_name',
        'standings.last_name',
        'standings.active',
        'users.team_name as u_team',
        'users.first_name as u_first',
        'users.last_name as u_last',
        'users.deactivated_at',
      ])
      .where('standings.competition_id', '=', competitionId)
      .execute()
    const registered = await t.db
      .selectFrom('competition_registrations')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('competition_id', '=', competitionId)
      .executeTakeFirstOrThrow()
    expect(rows).toHaveLength(registered.n)
    for (const r of rows)
      expect([r.team_name, r.first_name, r.last_name, r.active]).toEqual([
        r.u_team,
        r.u_first,
        r.u_last,
        r.deactivated_at === null,
      ])
    const of = (id: number) => rows.find((r) => r.user_id === id)!
    expect(of(renamed.id)).toMatchObject({ first_name: 'After', team_name: 'Renamed XI' })
    expect(of(gone.id).active).toBe(false)
    expect(of(rowless.id)).toMatchObject({
      team_name: 'Rowless Club',
      first_name: 'Rowless',
      last_name: 'Zed',
      active: true,
    })
    await setUser(gone.id, { deactivated_at: null })
  })

  it('answers a result, the console re-score, a fixture import and a settings change sent together, none aborted', async () => {
    // On PostgreSQL the console's re-score and settings change locked the competition's row and
    // then waited for the scoring lock, while a result holding that lock waited for the same row
    // (its scores version, its history mark): PostgreSQL aborted one of them as a deadlock, a 500.
    // Everything that scores now takes the scoring lock before any row, and a deactivation
    // takes the scores tables in the scoring job's order.
    const { id: bbl, ladder_points: ladderPoints } = await bblCompetition()
    // A deactivation moves ranks too (its trigger writes the scores tables): it met a scoring
    // job holding two of the tables while it held the third, and one of them was aborted.
    const others = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)]
    // The season's own fixture imported again: it changes no match, and re-scores.
    const fixture = await readSeasonFile(seasonPath('bbl'))
    const [first, second] = [round1[0]!, round1[1]!]
    for (let i = 0; i < 6; i++) {
      const answers = await Promise.all([
        setResult(first.id, win(i % 2 ? first.home : first.away)),
        viaConsole('POST', `/api/admin/competitions/${bbl}/rescore`, {}),
        viaConsole('POST', '/api/admin/competitions/import', fixture),
        ...others.map((o) =>
          viaConsole('POST', `/api/admin/users/${o.id}/${i % 2 ? 'reactivate' : 'deactivate'}`, {}),
        ),
        viaConsole('PATCH', `/api/admin/competitions/${bbl}`, { ladderPoints }),
        setResult(second.id, win(i % 2 ? second.away : second.home)),
        viaConsole('POST', `/api/admin/competitions/${bbl}/rescore`, {}),
      ])
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200))
    }
    // The last results stand, scored as a full re-score scores them.
    const standing = () =>
      t.db
        .selectFrom('standings')
        .select(['total_points', 'total_margin'])
        .where('user_id', '=', tipper.id)
        .where('competition_id', '=', bbl)
        .executeTakeFirstOrThrow()
    const held = await standing()
    await rescore(t.db, bbl)
    expect(await standing()).toEqual(held)
    // Round 1 as the earlier tests left it, with match 1 to the home side and match 2 away.
    expect(held.total_points).toBe(7)
  })

  it('scores the results an admin enters while that admin renames their account, none aborted', async () => {
    // On PostgreSQL the rename held the admin's users row and its trigger waited for standings,
    // while the scoring job holding standings wrote its audit row, whose foreign key waited for
    // the same users row: PostgreSQL aborted one (a 500). A change of names or of deactivation
    // now waits for the scores tables before it touches the row.
    const { id: bbl } = await bblCompetition()
    const [first, second] = [round1[0]!, round1[1]!]
    const rename = (i: number, field: 'team_name' | 'first_name' | 'last_name') =>
      t.app.inject({
        method: 'POST',
        url: '/api/bbl/user',
        headers: { cookie: admin.cookie },
        payload: { [field]: `Console ${field} ${i}` },
      })
    for (let i = 0; i < 10; i++) {
      const answers = await Promise.all([
        setResult(first.id, win(i % 2 ? first.home : first.away)),
        rename(i, 'team_name'),
        setResult(second.id, win(i % 2 ? second.away : second.home)),
        rename(i, 'first_name'),
        viaConsole('POST', `/api/admin/competitions/${bbl}/rescore`),
        rename(i, 'last_name'),
        // The console's role change locks the same row first (FOR UPDATE), so the scoring job's
        // foreign key check and the renames queue behind it and wake together.
        ...[0, 1, 2].map(() =>
          viaConsole('PUT', `/api/admin/users/${admin.id}/roles`, {
            roles: ['ROLE_ADMIN', 'ROLE_USER_BBL'],
          }),
        ),
      ])
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200))
    }
    // The standings carry the admin's last names (the trigger's copy, not a scorer's stale one).
    const names = await t.db
      .selectFrom('standings')
      .select(['team_name', 'first_name', 'last_name'])
      .where('user_id', '=', admin.id)
      .execute()
    expect(names.length).toBeGreaterThan(0)
    for (const n of names)
      expect(n).toEqual({
        team_name: 'Console team_name 9',
        first_name: 'Console first_name 9',
        last_name: 'Console last_name 9',
      })
  })

  it("rebuilds My season's history while the console re-scores, none aborted", async () => {
    // The console's re-score held the competition's row FOR UPDATE until its swap, which waits
    // for the history job's read of the scores tables; the history job's rows point at the same
    // competition, and their foreign key check waited for that row: a deadlock on PostgreSQL.
    const { id: bbl } = await bblCompetition()
    const rescoreViaConsole = () => viaConsole('POST', `/api/admin/competitions/${bbl}/rescore`)
    for (let i = 0; i < 8; i++) {
      const [a, , b, , c] = await Promise.all([
        rescoreViaConsole(),
        rebuildSeasonHistories(t.db),
        rescoreViaConsole(),
        rebuildSeasonHistories(t.db),
        rescoreViaConsole(),
      ])
      expect([a, b, c].map((r) => r.statusCode)).toEqual([200, 200, 200])
    }
    // Built to the end: nothing left stale, and the history counts every ranked tipper.
    await rebuildSeasonHistories(t.db)
    expect(await t.db.selectFrom('season_history_stale').selectAll().execute()).toEqual([])
  })

  it('re-scores two competitions at once, both to the end', async () => {
    // Each swaps its new partitions in under the same two parent tables; on PostgreSQL, two
    // scoring transactions that had both read them would deadlock there (one would be aborted).
    const competitions = await t.db.selectFrom('competitions').select('id').execute()
    expect(competitions.length).toBeGreaterThan(1)
    const before = await t.db
      .selectFrom('competitions')
      .select(['id', 'scores_version'])
      .orderBy('id')
      .execute()
    for (let i = 0; i < 3; i++) await Promise.all(competitions.map((c) => rescore(t.db, c.id)))
    const after = await t.db
      .selectFrom('competitions')
      .select(['id', 'scores_version'])
      .orderBy('id')
      .execute()
    expect(after.map((c) => c.scores_version)).toEqual(before.map((c) => c.scores_version + 3))
  })
})
