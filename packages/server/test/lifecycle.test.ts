import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RoundStatsFile } from '@tipping/contract/static-files'
import { pickSplit } from '@tipping/contract/rules/picks'
import { REPO_ROOT } from '../src/config.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import { createTestApp, loadSeasons, registerUser, signIn, type TestApp } from './helpers.ts'

// BBL|15 round 1: match 1 starts 2025-12-14T08:15Z, match 2 the next day.
let t: TestApp
let early: { id: number; cookie: string; email: string }
let tipped: { id: number; cookie: string }
let match1: { id: number; home: number; away: number; margin: boolean }

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-11-01T00:00:00Z') })
  await loadSeasons(t.db)
  early = await registerUser(t.app)
  tipped = await registerUser(t.app)
  const m = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'home_squad_id', 'away_squad_id', 'is_margin_game'])
    .where('competitions.sport', '=', 'bbl')
    .where('matches.number', '=', 1)
    .executeTakeFirstOrThrow()
  match1 = { id: m.id, home: m.home_squad_id, away: m.away_squad_id, margin: m.is_margin_game }
  await t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: tipped.cookie },
    payload: { predictions: [{ match: match1.id, squad: match1.home }] },
  })
})
afterAll(() => t.close())

// Every registered user's tip as scoring and pages read it: stored, or the derived auto-tip.
const tipsOn = (matchId: number) =>
  t.db
    .selectFrom('effective_tips')
    .select(['user_id', 'squad_id', 'margin', 'is_auto_tip'])
    .where('match_id', '=', matchId)
    .orderBy('user_id')
    .execute()

describe('lockout job', () => {
  it('does nothing before a match starts', async () => {
    expect((await runLockouts(t.db, t.clock)).locked).toBe(0)
  })

  it('locks a started match and auto-tips the away squad for registered users with no tip', async () => {
    t.clock.set(new Date('2025-12-14T08:15:00Z'))
    const late = await registerUser(t.app) // registered at the lockout instant: gets nothing
    const result = await runLockouts(t.db, t.clock)
    // BBL match 1, and every WBBL|11 match (that season ended on 13 December).
    const wbbl = await t.db
      .selectFrom('matches')
      .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('competitions.sport', '=', 'wbbl')
      .executeTakeFirstOrThrow()
    expect(result.locked).toBe(1 + Number(wbbl.n))
    const match2 = await t.db
      .selectFrom('matches')
      .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
      .select('matches.status')
      .where('competitions.sport', '=', 'bbl')
      .where('matches.number', '=', 2)
      .executeTakeFirstOrThrow()
    expect(match2.status).toBe('scheduled')
    const match = await t.db
      .selectFrom('matches')
      .select('status')
      .where('id', '=', match1.id)
      .executeTakeFirstOrThrow()
    expect(match.status).toBe('active')
    const tips = await tipsOn(match1.id)
    expect(tips.find((x) => x.user_id === tipped.id)).toMatchObject({
      squad_id: match1.home,
      is_auto_tip: false,
    })
    expect(tips.find((x) => x.user_id === early.id)).toEqual({
      user_id: early.id,
      squad_id: match1.away,
      margin: match1.margin ? 0 : null,
      is_auto_tip: true,
    })
    expect(tips.find((x) => x.user_id === late.id)).toBeUndefined()
    // The lockout stores nothing: the only tip row is the one the tipper saved.
    const stored = await t.db
      .selectFrom('tips')
      .select('user_id')
      .where('match_id', '=', match1.id)
      .execute()
    expect(stored).toEqual([{ user_id: tipped.id }])
  })

  it("shows the auto-tip on the user's own round, and none on a match still open", async () => {
    // Six weeks on, the first session has expired: sign in again.
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/bbl/predictions/1',
      headers: { cookie: await signIn(t.app, early.email) },
    })
    expect(res.statusCode).toBe(200)
    const predictions = res.json().success.predictions as {
      match: number
      squad: number
      isAutoTip: boolean
    }[]
    expect(predictions.find((p) => p.match === match1.id)).toMatchObject({
      squad: match1.away,
      isAutoTip: true,
    })
    expect(predictions.filter((p) => p.match !== match1.id).every((p) => p.squad === 0)).toBe(true)
  })

  it('counts the auto-tips in the pick split, as effective_tips has them', async () => {
    const tips = await tipsOn(match1.id)
    const counts = await t.db
      .selectFrom('match_pick_counts')
      .select(['squad_id', 'picks'])
      .where('match_id', '=', match1.id)
      .orderBy('squad_id')
      .execute()
    const picksOf = (squad: number) => tips.filter((x) => x.squad_id === squad).length
    expect(picksOf(match1.away)).toBeGreaterThan(0)
    expect(counts).toEqual(
      [match1.home, match1.away]
        .sort((a, b) => a - b)
        .map((squad) => ({ squad_id: squad, picks: picksOf(squad) })),
    )
  })

  it("publishes the locked match's pick split with its auto-tips", async () => {
    const publisher = new Publisher(t.db, t.clock, {
      staticDir: t.staticDir,
      logosDir: path.join(REPO_ROOT, 'data/logos'),
    })
    const split = async () => {
      await publisher.publishAll()
      const file = JSON.parse(
        await fs.readFile(path.join(t.staticDir, 'bbl/roundstats/1.json'), 'utf8'),
      ) as RoundStatsFile
      return file.matches[String(match1.id)]
    }
    const tips = await tipsOn(match1.id)
    const home = tips.filter((x) => x.squad_id === match1.home).length
    const away = tips.filter((x) => x.squad_id === match1.away).length
    expect(away).toBeGreaterThan(0)
    // Live, its tips still private: the percentages only, never the exact counts.
    const expected = {
      homePicks: null,
      awayPicks: null,
      ...pickSplit(home, away),
    }
    expect(await split()).toMatchObject(expected)
    // Counted once: a later publish (another tipper registered meanwhile) gives the same split.
    await registerUser(t.app)
    expect(await split()).toMatchObject(expected)
  })

  it('is idempotent and safe with two schedulers running at once', async () => {
    const before = await tipsOn(match1.id)
    await t.db
      .updateTable('matches')
      .set({ status: 'scheduled' })
      .where('id', '=', match1.id)
      .execute()
    // Unlocked again, the match has no auto-tips until it locks.
    expect((await tipsOn(match1.id)).map((x) => x.user_id)).toEqual([tipped.id])
    const [a, b] = await Promise.all([runLockouts(t.db, t.clock), runLockouts(t.db, t.clock)])
    expect(a.locked + b.locked).toBe(1)
    expect(await tipsOn(match1.id)).toEqual(before)
  })
})
