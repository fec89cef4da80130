import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as autopilot from '../src/db/migrations/2026-11-27T0700-autopilot.ts'
import * as lockTimes from '../src/db/migrations/2026-11-27T0900-receipt-kinds-and-lock-times.ts'
import * as autopilotBatches from '../src/db/migrations/2026-11-27T1100-autopilot-batches.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// Migrations that fill in data for databases made before them: each is run down and up again on
// rows as an older database held them, and what it filled in is checked.
let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ now: new Date('2025-12-20T00:00:00Z') })
  await loadSeasons(t.db)
})
afterAll(() => t.close())

describe('2026-11-27T0900: lock times of matches locked before they were recorded', () => {
  it('fills locked_at with the start time of every started match, and only those', async () => {
    const bbl = await t.db
      .selectFrom('matches')
      .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
      .select(['matches.id', 'matches.number', 'matches.starts_at'])
      .where('competitions.sport', '=', 'bbl')
      .where('matches.number', 'in', [1, 2, 3, 4])
      .orderBy('matches.number')
      .execute()
    const [complete, active, recorded, scheduled] = bbl
    const RECORDED = new Date('2025-12-16T08:15:04.321Z')
    await lockTimes.down(t.db)
    // As a database locked before 2026-11-27T0800 held them: no lock time on started matches;
    // one locked since, with the job's own time; one not yet started.
    const set = (id: number, status: 'complete' | 'active' | 'scheduled', lockedAt: Date | null) =>
      t.db
        .updateTable('matches')
        .set({ status, locked_at: lockedAt })
        .where('id', '=', id)
        .execute()
    await set(complete!.id, 'complete', null)
    await set(active!.id, 'active', null)
    await set(recorded!.id, 'active', RECORDED)
    await set(scheduled!.id, 'scheduled', null)
    await lockTimes.up(t.db)
    const after = await t.db
      .selectFrom('matches')
      .select(['id', 'locked_at'])
      .where(
        'id',
        'in',
        bbl.map((m) => m.id),
      )
      .execute()
    const lockedAt = (id: number) => {
      const v = after.find((m) => m.id === id)!.locked_at
      return v === null ? null : new Date(v).toISOString()
    }
    expect(lockedAt(complete!.id)).toBe(new Date(complete!.starts_at).toISOString())
    expect(lockedAt(active!.id)).toBe(new Date(active!.starts_at).toISOString())
    // A time the lockout recorded is kept; a match still scheduled waits for the lockout.
    expect(lockedAt(recorded!.id)).toBe(RECORDED.toISOString())
    expect(lockedAt(scheduled!.id)).toBeNull()
  })

  it('shows a filled-in lock time on the match, and none on a match not locked', async () => {
    const { cookie } = await registerUser(t.app)
    const res = await t.app.inject({ url: '/api/bbl/predictions/1', headers: { cookie } })
    expect(res.statusCode).toBe(200)
    const matches = res.json().success.matches as {
      number: number
      date: string
      lockedAt?: string | null
    }[]
    const byNumber = new Map(matches.map((m) => [m.number, m]))
    expect(byNumber.get(1)?.lockedAt).toBe(byNumber.get(1)?.date)
    expect(byNumber.get(4)?.lockedAt).toBeNull()
  })
})

describe('2026-11-27T0700: each player keeps their reminder choice as a reminder lead', () => {
  it('copies is_weekly_reminder_enabled: off stays off, on becomes the round reminder', async () => {
    const on = await registerUser(t.app)
    const off = await registerUser(t.app)
    const lead = () =>
      t.db
        .selectFrom('users')
        .select(['id', 'reminder_lead', 'is_weekly_reminder_enabled'])
        .where('id', 'in', [on.id, off.id])
        .orderBy('id')
        .execute()
    // Undo the later migrations first, newest first, as a database before 0700 had none of them.
    await autopilotBatches.down(t.db)
    await lockTimes.down(t.db)
    await autopilot.down(t.db)
    await t.db
      .updateTable('users')
      .set({ is_weekly_reminder_enabled: false })
      .where('id', '=', off.id)
      .execute()
    await t.db
      .updateTable('users')
      .set({ is_weekly_reminder_enabled: true })
      .where('id', '=', on.id)
      .execute()
    await autopilot.up(t.db)
    await lockTimes.up(t.db)
    await autopilotBatches.up(t.db)
    expect(await lead()).toEqual([
      { id: on.id, reminder_lead: 'round', is_weekly_reminder_enabled: true },
      { id: off.id, reminder_lead: 'off', is_weekly_reminder_enabled: false },
    ])
  })
})

describe('2026-11-27T1100: checkpoints run by the one-statement autopilot are finished', () => {
  it('marks every existing pass finished at the time it ran, so no batch runs it again', async () => {
    const m = await t.db.selectFrom('matches').select('id').orderBy('id').executeTakeFirstOrThrow()
    const ranAt = new Date('2025-12-19T10:00:00Z')
    await autopilotBatches.down(t.db)
    await t.db
      .insertInto('autopilot_passes')
      .values({ match_id: m.id, lead_minutes: 60, ran_at: ranAt, placed: 12 })
      .execute()
    await autopilotBatches.up(t.db)
    try {
      const pass = await t.db
        .selectFrom('autopilot_passes')
        .selectAll()
        .where('match_id', '=', m.id)
        .executeTakeFirstOrThrow()
      expect(pass).toMatchObject({ placed: 12, through_user_id: 0, favourite_squad_id: null })
      expect(new Date(pass.finished_at!)).toEqual(ranAt)
    } finally {
      await t.db.deleteFrom('autopilot_passes').execute()
    }
  })
})
