import 'fake-indexeddb/auto'
import { createStore } from 'idb-keyval'
import { describe, expect, it } from 'vitest'
import {
  createTipQueue,
  flushTipQueue,
  isVerdict,
  type QueuedTip,
  type SendResult,
} from './offline-queue.ts'

// fake-indexeddb stands in for the browser's IndexedDB here only; the end-to-end spec
// (e2e/offline.spec.ts) runs the same module on Chromium's.

let n = 0
const freshQueue = () => createTipQueue(createStore(`offline-queue-test-${++n}`, 'tip-queue'))
const tip = (over: Partial<QueuedTip> = {}): QueuedTip => ({
  userId: 7,
  sport: 'bbl',
  round: 3,
  match: 101,
  squad: 4,
  margin: null,
  queuedAt: '2026-01-01T00:00:00.000Z',
  ...over,
})

describe('the tip queue', () => {
  it('keeps one tip per user and match, the newer pick replacing the older', async () => {
    const q = freshQueue()
    await q.put([tip({ squad: 4 })])
    await q.put([tip({ squad: 5, queuedAt: '2026-01-01T00:01:00.000Z' })])
    await q.put([tip({ userId: 8, squad: 6 })])
    expect((await q.list(7)).map((t) => t.squad)).toEqual([5])
    expect((await q.list(8)).map((t) => t.squad)).toEqual([6])
  })

  it('survives a new handle on the same database (a reload opens it afresh)', async () => {
    const store = createStore('offline-queue-reopen', 'tip-queue')
    await createTipQueue(store).put([tip()])
    const reopened = createTipQueue(createStore('offline-queue-reopen', 'tip-queue'))
    expect(await reopened.list(7)).toEqual([tip()])
  })

  it('forgets every other user on clearExcept, and everyone without a user', async () => {
    const q = freshQueue()
    await q.put([tip({ userId: 7 }), tip({ userId: 8, match: 102 })])
    await q.clearExcept(8)
    expect(await q.list(7)).toEqual([])
    expect(await q.list(8)).toHaveLength(1)
    await q.clearExcept()
    expect(await q.list(8)).toEqual([])
  })
})

describe('sending the queue', () => {
  it('sends oldest first; saved and refused tips leave the queue with their verdicts', async () => {
    const q = freshQueue()
    await q.put([
      tip({ match: 103, queuedAt: '2026-01-01T00:02:00.000Z' }),
      tip({ match: 101, queuedAt: '2026-01-01T00:00:00.000Z' }),
      tip({ match: 102, queuedAt: '2026-01-01T00:01:00.000Z' }),
    ])
    const sent: number[] = []
    const answers: Record<number, SendResult> = {
      101: { ok: true },
      102: {
        ok: false,
        status: 409,
        message: 'This match has started; its tip can no longer change',
      },
      103: { ok: true },
    }
    const { verdicts, stopped } = await flushTipQueue(q, 7, async (t) => {
      sent.push(t.match)
      return answers[t.match]!
    })
    expect(sent).toEqual([101, 102, 103])
    expect(stopped).toBe(false)
    expect(verdicts.map((v) => [v.tip.match, v.state])).toEqual([
      [101, 'saved'],
      [102, 'refused'],
      [103, 'saved'],
    ])
    expect(verdicts[1]).toMatchObject({
      message: 'This match has started; its tip can no longer change',
    })
    expect(await q.list(7)).toEqual([])
  })

  it('stops at a network failure and keeps that tip and the rest for the next chance', async () => {
    const q = freshQueue()
    await q.put([
      tip({ match: 101, queuedAt: '2026-01-01T00:00:00.000Z' }),
      tip({ match: 102, queuedAt: '2026-01-01T00:01:00.000Z' }),
      tip({ match: 103, queuedAt: '2026-01-01T00:02:00.000Z' }),
    ])
    const { verdicts, stopped } = await flushTipQueue(q, 7, async (t) =>
      t.match === 101 ? { ok: true } : { ok: false, status: 0, message: 'Network error' },
    )
    expect(stopped).toBe(true)
    expect(verdicts.map((v) => v.tip.match)).toEqual([101])
    expect((await q.list(7)).map((t) => t.match)).toEqual([102, 103])
  })

  it("sends only the signed-in user's tips", async () => {
    const q = freshQueue()
    await q.put([tip({ userId: 7, match: 101 }), tip({ userId: 8, match: 102 })])
    const sent: number[] = []
    await flushTipQueue(q, 8, async (t) => {
      sent.push(t.match)
      return { ok: true }
    })
    expect(sent).toEqual([102])
    expect(await q.list(7)).toHaveLength(1)
  })

  it('takes a 4xx as the verdict, but not an expired session, a timeout, a limit or a 5xx', () => {
    expect([400, 403, 404, 409, 422].every(isVerdict)).toBe(true)
    expect([0, 401, 408, 429, 500, 503].some(isVerdict)).toBe(false)
  })
})
