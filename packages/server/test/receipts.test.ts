import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runLockouts } from '../src/modules/lifecycle/service.ts'
import { canonicalSave, ReceiptSigner } from '../src/modules/predictions/receipts.ts'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

const KEY = 'k'.repeat(8) + 'test-receipt-key-0123456789'

// Issue 32, "A receipt for every tip" (decision 027), on the engine the project runs (PGlite, or
// PostgreSQL with DATABASE_URL). BBL|15 round 1: match 1 starts 2025-12-14T08:15Z, match 2 the
// next day, match 3 the day after.
const CHECKS_PER_MINUTE = 25
let t: TestApp
let me: { id: number; cookie: string }
let other: { id: number; cookie: string }
const match = new Map<number, { id: number; home: number; away: number; margin: boolean }>()

beforeAll(async () => {
  t = await createTestApp({
    now: new Date('2025-12-01T00:00:00Z'),
    config: {
      RECEIPT_CHECKS_PER_MINUTE: CHECKS_PER_MINUTE,
      RECEIPT_SECRET: 'k'.repeat(8) + 'test-receipt-key-0123456789',
    },
  })
  await loadSeasons(t.db)
  me = await registerUser(t.app)
  other = await registerUser(t.app)
  const rows = await t.db
    .selectFrom('matches')
    .innerJoin('competitions', 'competitions.id', 'matches.competition_id')
    .select(['matches.id', 'matches.number', 'home_squad_id', 'away_squad_id', 'is_margin_game'])
    .where('competitions.sport', '=', 'bbl')
    .where('matches.number', 'in', [1, 2, 3])
    .execute()
  for (const r of rows)
    match.set(r.number, {
      id: r.id,
      home: r.home_squad_id,
      away: r.away_squad_id,
      margin: r.is_margin_game,
    })
})
afterAll(() => t.close())

const m = (n: number) => match.get(n)!
const save = (predictions: unknown, cookie = me.cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie },
    payload: { predictions },
  })
const check = (id: string, digest: string, cookie?: string) =>
  t.app.inject({
    url: `/api/receipts/${encodeURIComponent(id)}?digest=${encodeURIComponent(digest)}`,
    headers: cookie ? { cookie } : {},
  })
const history = (cookie = me.cookie) =>
  t.app.inject({ url: '/api/bbl/tips-history', headers: { cookie } })
const saveRows = () => t.db.selectFrom('tip_saves').select(['id', 'user_id']).execute()

interface Receipt {
  id: string
  savedAt: string
  digest: string
}
let first: Receipt
let second: Receipt

describe('a save', () => {
  it('answers with a receipt: id, server time to the millisecond, digest', async () => {
    t.clock.set(new Date('2025-12-01T10:00:00.123Z'))
    const res = await save([
      { match: m(1).id, squad: m(1).home },
      { match: m(2).id, squad: m(2).home },
    ])
    expect(res.statusCode).toBe(200)
    first = res.json().success.receipt
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{16}$/)
    expect(first.digest).toMatch(/^[0-9a-f]{64}$/)
    expect(first.savedAt).toBe('2025-12-01T10:00:00.123Z')
    expect(await saveRows()).toEqual([{ id: first.id, user_id: me.id }])
  })

  it('signs the user, the rounds and the picks with the configured key', async () => {
    const [row] = await t.db
      .selectFrom('tip_saves')
      .selectAll()
      .where('id', '=', first.id)
      .execute()
    const record = {
      id: row!.id,
      kind: row!.kind,
      userId: row!.user_id,
      competitionId: row!.competition_id,
      savedAt: new Date(row!.saved_at),
      picks: row!.picks,
    }
    expect(canonicalSave(record)).toContain(`\n${me.id}\n`)
    expect(new ReceiptSigner('k'.repeat(8) + 'test-receipt-key-0123456789').digest(record)).toBe(
      first.digest,
    )
    // Another key (the development one) gives another digest: only the key's holder can sign.
    expect(new ReceiptSigner().digest(record)).not.toBe(first.digest)
    // Another pick gives another digest.
    const changed = { ...record, picks: record.picks.map((p) => ({ ...p, s: p.s! + 1 })) }
    expect(
      new ReceiptSigner('k'.repeat(8) + 'test-receipt-key-0123456789').digest(changed),
    ).not.toBe(first.digest)
  })

  it('through the single-tip route answers with a receipt too', async () => {
    t.clock.set(new Date('2025-12-01T10:05:00.000Z'))
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/tips',
      headers: { cookie: me.cookie },
      payload: { match: m(2).id, squad: m(2).away },
    })
    expect(res.statusCode).toBe(200)
    second = res.json().success.receipt
    expect(second.savedAt).toBe('2025-12-01T10:05:00.000Z')
    expect(second.id).not.toBe(first.id)
  })

  it('refused (a locked match) gives no receipt and logs nothing', async () => {
    const before = (await saveRows()).length
    t.clock.set(new Date('2025-12-14T08:15:00.001Z'))
    const res = await save([
      { match: m(1).id, squad: m(1).away },
      { match: m(3).id, squad: m(3).home },
    ])
    expect(res.statusCode).toBe(409)
    expect(res.json().errors[0]).toMatchObject({
      code: 'MATCH_LOCKED',
      param: 'predictions.0.match',
    })
    expect(res.json().success).toBeUndefined()
    expect(await saveRows()).toHaveLength(before)
  })
})

describe('the public check', () => {
  it('says a genuine receipt is genuine, to anyone, with its time and never its picks', async () => {
    for (const cookie of [undefined, other.cookie, me.cookie]) {
      const res = await check(first.id, first.digest, cookie)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ success: { genuine: true, savedAt: first.savedAt } })
    }
  })

  it('refuses a tampered digest, a tampered id, and one receipt’s digest on another', async () => {
    const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1)
    for (const [id, digest] of [
      [first.id, flip(first.digest)],
      [flip(first.id), first.digest],
      [second.id, first.digest],
      [first.id, second.digest],
    ] as const) {
      const res = await check(id, digest)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ success: { genuine: false, savedAt: null } })
    }
  })

  it('refuses a stored save edited behind the server’s back', async () => {
    const row = await t.db
      .selectFrom('tip_saves')
      .select('picks')
      .where('id', '=', second.id)
      .executeTakeFirstOrThrow()
    const edited = row.picks.map((p) => ({ ...p, s: p.s === m(2).away ? m(2).home : m(2).away }))
    await t.db
      .updateTable('tip_saves')
      .set({ picks: JSON.stringify(edited) })
      .where('id', '=', second.id)
      .execute()
    expect((await check(second.id, second.digest)).json().success.genuine).toBe(false)
    await t.db
      .updateTable('tip_saves')
      .set({ picks: JSON.stringify(row.picks) })
      .where('id', '=', second.id)
      .execute()
    expect((await check(second.id, second.digest)).json().success.genuine).toBe(true)
  })

  it('names bad input with a 400, never a 500', async () => {
    const cases: [string, string, string][] = [
      ['short', first.digest, 'id'],
      ['%27%3B--aaaaaaaaaaaaa', first.digest, 'id'],
      [first.id, 'zz', 'digest'],
      [first.id, first.digest.toUpperCase(), 'digest'],
    ]
    for (const [id, digest, param] of cases) {
      const res = await t.app.inject({ url: `/api/receipts/${id}?digest=${digest}` })
      expect(res.statusCode, `${id} ${digest}`).toBe(400)
      expect(res.json().errors[0].param).toBe(param)
    }
    const none = await t.app.inject({ url: `/api/receipts/${first.id}` })
    expect(none.statusCode).toBe(400)
    expect(none.json().errors[0].param).toBe('digest')
  })
})

describe('My tips history', () => {
  it('lists every save, newest first, with its receipt, its picks and what it changed', async () => {
    const res = await history()
    expect(res.statusCode).toBe(200)
    const { saves } = res.json().success
    expect(saves.map((s: { receipt: Receipt }) => s.receipt)).toEqual([second, first])
    const [later, earlier] = saves
    // The first save: both matches were untipped.
    expect(earlier.picks).toEqual([
      { match: m(1).id, matchNumber: 1, round: 1, squad: m(1).home, margin: null },
      { match: m(2).id, matchNumber: 2, round: 1, squad: m(2).home, margin: null },
    ])
    expect(earlier.changed.map((c: { match: number; was: unknown }) => [c.match, c.was])).toEqual([
      [m(1).id, null],
      [m(2).id, null],
    ])
    // The second moved match 2 from home to away.
    expect(later.changed).toEqual([
      {
        match: m(2).id,
        matchNumber: 2,
        round: 1,
        squad: m(2).away,
        margin: null,
        was: { squad: m(2).home, margin: null },
      },
    ])
  })

  it('lists a save that changed nothing with no changes', async () => {
    t.clock.set(new Date('2025-12-01T11:00:00Z'))
    const res = await save([{ match: m(1).id, squad: m(1).home }])
    expect(res.statusCode).toBe(200)
    const [latest] = (await history()).json().success.saves
    expect(latest.receipt).toEqual(res.json().success.receipt)
    expect(latest.picks).toHaveLength(1)
    expect(latest.changed).toEqual([])
  })

  it('shows another user none of my saves (theirs are their own)', async () => {
    const res = await history(other.cookie)
    expect(res.statusCode).toBe(200)
    expect(res.json().success.saves).toEqual([])
    const mine = await save([{ match: m(3).id, squad: m(3).away }], other.cookie)
    expect(mine.statusCode).toBe(200)
    const theirs = (await history(other.cookie)).json().success.saves
    expect(theirs.map((s: { receipt: Receipt }) => s.receipt.id)).toEqual([
      mine.json().success.receipt.id,
    ])
    expect(JSON.stringify(theirs)).not.toContain(first.id)
  })

  it('is for signed-in users only', async () => {
    expect((await t.app.inject({ url: '/api/bbl/tips-history' })).statusCode).toBe(401)
  })
})

describe('autopick and clear (decision 029)', () => {
  let third: { id: number; cookie: string }
  const bulk = (kind: 'autopick' | 'clear', matches: number[], cookie = third.cookie) =>
    t.app.inject({
      method: 'POST',
      url: `/api/bbl/predictions_list/${kind}`,
      headers: { cookie },
      payload: { predictions: matches.map((match) => ({ match })) },
    })
  const tipsOf = (userId: number) =>
    t.db
      .selectFrom('tips')
      .select(['match_id', 'squad_id'])
      .where('user_id', '=', userId)
      .orderBy('match_id')
      .execute()
  let autopicked: Receipt
  let cleared: Receipt

  beforeAll(async () => {
    third = await registerUser(t.app)
  })

  it('an autopick answers with a receipt listing the matches it filled, and logs it', async () => {
    t.clock.set(new Date('2025-12-01T12:00:00.007Z'))
    const res = await bulk('autopick', [m(1).id, m(2).id])
    expect(res.statusCode).toBe(200)
    autopicked = res.json().success.receipt
    expect(autopicked.savedAt).toBe('2025-12-01T12:00:00.007Z')
    expect(autopicked.id).toMatch(/^[A-Za-z0-9_-]{16}$/)
    const tips = await tipsOf(third.id)
    const row = await t.db
      .selectFrom('tip_saves')
      .selectAll()
      .where('id', '=', autopicked.id)
      .executeTakeFirstOrThrow()
    expect(row.kind).toBe('autopick')
    expect(row.user_id).toBe(third.id)
    // Exactly what was written: each pick is the squad now stored.
    expect(row.picks.map((p) => [p.m, p.s])).toEqual(tips.map((x) => [x.match_id, x.squad_id]))
    expect((await check(autopicked.id, autopicked.digest)).json().success).toEqual({
      genuine: true,
      savedAt: autopicked.savedAt,
    })
  })

  it('an autopick that fills nothing is still accepted with a receipt, listing no picks', async () => {
    t.clock.set(new Date('2025-12-01T12:01:00Z'))
    expect((await save([{ match: m(3).id, squad: m(3).away }], third.cookie)).statusCode).toBe(200)
    // A second later: two saves of one millisecond have no order between them (ties go by the
    // receipt's random id), and the history below is asserted newest first.
    t.clock.set(new Date('2025-12-01T12:01:01Z'))
    const res = await bulk('autopick', [m(1).id, m(2).id, m(3).id])
    expect(res.statusCode).toBe(200)
    const { receipt } = res.json().success
    const [latest] = (await history(third.cookie)).json().success.saves
    expect(latest).toMatchObject({ kind: 'autopick', receipt, picks: [], changed: [] })
    // Match 3 keeps the player's own pick.
    expect((await tipsOf(third.id)).find((x) => x.match_id === m(3).id)?.squad_id).toBe(m(3).away)
  })

  it('a clear answers with a receipt that states what was cleared, signed as a clear', async () => {
    const before = await tipsOf(third.id)
    t.clock.set(new Date('2025-12-01T12:02:00.500Z'))
    const res = await bulk('clear', [m(1).id, m(3).id])
    expect(res.statusCode).toBe(200)
    cleared = res.json().success.receipt
    expect(cleared.savedAt).toBe('2025-12-01T12:02:00.500Z')
    expect((await tipsOf(third.id)).map((x) => x.match_id)).toEqual([m(2).id])
    expect((await check(cleared.id, cleared.digest)).json().success.genuine).toBe(true)

    const [latest] = (await history(third.cookie)).json().success.saves
    expect(latest.kind).toBe('clear')
    expect(latest.receipt).toEqual(cleared)
    const was = (id: number) => before.find((x) => x.match_id === id)!.squad_id
    expect(latest.picks).toEqual([
      { match: m(1).id, matchNumber: 1, round: 1, squad: null, margin: null },
      { match: m(3).id, matchNumber: 3, round: 1, squad: null, margin: null },
    ])
    expect(latest.changed.map((c: { match: number; squad: unknown; was: unknown }) => c)).toEqual([
      expect.objectContaining({
        match: m(1).id,
        squad: null,
        was: { squad: was(m(1).id), margin: null },
      }),
      expect.objectContaining({
        match: m(3).id,
        squad: null,
        was: { squad: m(3).away, margin: null },
      }),
    ])

    // The kind is signed: the same row signed as a save gives another digest.
    const row = await t.db
      .selectFrom('tip_saves')
      .selectAll()
      .where('id', '=', cleared.id)
      .executeTakeFirstOrThrow()
    const record = {
      id: row.id,
      kind: row.kind,
      userId: row.user_id,
      competitionId: row.competition_id,
      savedAt: new Date(row.saved_at),
      picks: row.picks,
    }
    expect(canonicalSave(record)).toMatch(/^tip-receipt\/2\nclear\n/)
    expect(new ReceiptSigner(KEY).digest(record)).toBe(cleared.digest)
    expect(new ReceiptSigner(KEY).digest({ ...record, kind: 'save' })).not.toBe(cleared.digest)
    // A row relabelled behind the server's back fails the check.
    await t.db
      .updateTable('tip_saves')
      .set({ kind: 'autopick' })
      .where('id', '=', cleared.id)
      .execute()
    expect((await check(cleared.id, cleared.digest)).json().success.genuine).toBe(false)
    await t.db
      .updateTable('tip_saves')
      .set({ kind: 'clear' })
      .where('id', '=', cleared.id)
      .execute()
  })

  it('lists autopicks and clears in the history beside the saves, newest first', async () => {
    const saves = (await history(third.cookie)).json().success.saves as {
      kind: string
      receipt: Receipt
    }[]
    expect(saves.map((s) => s.kind)).toEqual(['clear', 'autopick', 'save', 'autopick'])
    expect(saves[0]!.receipt).toEqual(cleared)
    expect(saves[3]!.receipt).toEqual(autopicked)
  })

  it('a refused clear or autopick (a started match) gets no receipt and logs nothing', async () => {
    const rows = (await saveRows()).length
    t.clock.set(new Date('2025-12-14T08:15:00.001Z'))
    for (const kind of ['clear', 'autopick'] as const) {
      const res = await bulk(kind, [m(2).id, m(1).id])
      expect(res.statusCode).toBe(409)
      expect(res.json().errors[0]).toMatchObject({
        code: 'MATCH_LOCKED',
        param: 'predictions.1.match',
      })
    }
    expect(await saveRows()).toHaveLength(rows)
    t.clock.set(new Date('2025-12-01T12:10:00Z'))
  })
})

describe('lock times', () => {
  it('records when the lockout locked each match, to the millisecond, and shows it on the match', async () => {
    const round = async () =>
      (await t.app.inject({ url: '/api/bbl/predictions/1', headers: { cookie: me.cookie } })).json()
        .success.matches as { id: number; lockedAt?: string | null }[]
    expect((await round()).find((x) => x.id === m(1).id)?.lockedAt).toBeNull()
    t.clock.set(new Date('2025-12-14T08:15:00.002Z'))
    expect((await runLockouts(t.db, t.clock)).locked).toBeGreaterThan(0)
    const matches = await round()
    expect(matches.find((x) => x.id === m(1).id)?.lockedAt).toBe('2025-12-14T08:15:00.002Z')
    expect(matches.find((x) => x.id === m(2).id)?.lockedAt).toBeNull()
    // A later run leaves a locked match's time as it was.
    t.clock.set(new Date('2025-12-14T09:00:00Z'))
    await runLockouts(t.db, t.clock)
    expect((await round()).find((x) => x.id === m(1).id)?.lockedAt).toBe('2025-12-14T08:15:00.002Z')
  })
})

describe('the check’s rate limit', () => {
  it('refuses an address past RECEIPT_CHECKS_PER_MINUTE with the errors envelope', async () => {
    let refused: { statusCode: number; json(): unknown } | undefined
    for (let i = 0; i <= CHECKS_PER_MINUTE && !refused; i++) {
      const res = await check(first.id, first.digest)
      if (res.statusCode !== 200) refused = res
    }
    expect(refused?.statusCode).toBe(429)
    expect(refused?.json()).toMatchObject({ errors: [{ code: 'RATE_LIMITED' }] })
  })
})
