import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../db/schema.ts'
import { PredictionsReads } from './reads.ts'

// Issue 29: a round's pick count takes seconds at a million tippers (12 s uncapped, longer on a
// slow box). Once a round has a count, a reader must never wait for the next one, however long
// it takes (decision 032). Driven by hand: each count is a promise the test resolves.

type Counts = { match_id: number; squad_id: number; picks: number }[]
const TTL = 30_000
const counts = (picks: number): Counts => [{ match_id: 1, squad_id: 2, picks }]

/** PredictionsReads whose counts are promises the test settles, one per count started. */
function handCounted() {
  const started: { roundId: number; resolve: (c: Counts) => void; reject: (e: Error) => void }[] =
    []
  const reads = new PredictionsReads(
    {} as Database, // never reached: every count goes through countRound
    0,
    TTL,
    (roundId) =>
      new Promise<Counts>((resolve, reject) => started.push({ roundId, resolve, reject })),
  )
  return { reads, started }
}

/** Whether `p` has settled once the microtasks queued now have run. */
async function settled<T>(p: Promise<T>): Promise<{ done: boolean; value?: T }> {
  let state: { done: boolean; value?: T } = { done: false }
  void p.then((value) => (state = { done: true, value }))
  for (let i = 0; i < 10; i++) await Promise.resolve()
  return state
}

describe('PredictionsReads pick counts', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shares one count between the readers of a round with none yet', async () => {
    const { reads, started } = handCounted()
    const crowd = Array.from({ length: 50 }, () => reads.roundPickCounts(7))
    expect(started).toHaveLength(1)
    started[0]!.resolve(counts(3))
    for (const answer of await Promise.all(crowd)) expect(answer).toEqual(counts(3))
    expect(started).toHaveLength(1)
  })

  it('never makes a reader wait for a recount, however long it takes', async () => {
    vi.useFakeTimers()
    const { reads, started } = handCounted()
    const first = reads.roundPickCounts(7)
    started[0]!.resolve(counts(1))
    expect(await first).toEqual(counts(1))

    // Within the TTL: the held count, nothing recounted.
    vi.advanceTimersByTime(TTL - 1)
    expect(await reads.roundPickCounts(7)).toEqual(counts(1))
    expect(started).toHaveLength(1)

    // Past it: answered at once with the held count, one recount behind.
    vi.advanceTimersByTime(1)
    expect(await settled(reads.roundPickCounts(7))).toEqual({ done: true, value: counts(1) })
    expect(started).toHaveLength(2)

    // The recount outlasts the TTL many times over (a slow box): every reader meanwhile is
    // answered at once with the held count, and no second recount starts. (A plain TTL cache
    // made readers wait once the held value was twice the TTL old: the 200 time-outs.)
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(TTL)
      const crowd = await Promise.all(
        Array.from({ length: 20 }, () => settled(reads.roundPickCounts(7))),
      )
      for (const answer of crowd) expect(answer).toEqual({ done: true, value: counts(1) })
    }
    expect(started).toHaveLength(2)

    // It lands: the readers get it, fresh from when it arrived.
    started[1]!.resolve(counts(2))
    await settled(Promise.resolve())
    expect(await reads.roundPickCounts(7)).toEqual(counts(2))
    vi.advanceTimersByTime(TTL - 1)
    expect(await reads.roundPickCounts(7)).toEqual(counts(2))
    expect(started).toHaveLength(2)

    // A failed recount keeps the held count, and the next reader past the TTL tries again.
    vi.advanceTimersByTime(1)
    expect(await reads.roundPickCounts(7)).toEqual(counts(2))
    started[2]!.reject(new Error('database away'))
    await settled(Promise.resolve())
    expect(await settled(reads.roundPickCounts(7))).toEqual({ done: true, value: counts(2) })
    expect(started).toHaveLength(4)
  })

  it('counts the open rounds ahead of their readers once, and leaves recounts to the readers', async () => {
    vi.useFakeTimers()
    const { reads, started } = handCounted()
    const warming = reads.warmPickCounts([7, 8])
    await settled(Promise.resolve())
    // One round at a time; a reader arriving meanwhile shares the warm-up's count.
    expect(started.map((s) => s.roundId)).toEqual([7])
    const reader = reads.roundPickCounts(7)
    started[0]!.resolve(counts(1))
    expect(await reader).toEqual(counts(1))
    await settled(Promise.resolve())
    expect(started.map((s) => s.roundId)).toEqual([7, 8])
    started[1]!.resolve(counts(8))
    await warming
    expect(await reads.roundPickCounts(8)).toEqual(counts(8))
    expect(started).toHaveLength(2)

    // Never again by the warm-up, read or not: a counted round is recounted by its readers.
    vi.advanceTimersByTime(TTL / 2)
    expect(await reads.roundPickCounts(7)).toEqual(counts(1))
    await reads.warmPickCounts([7, 8])
    expect(started).toHaveLength(2)
    vi.advanceTimersByTime(TTL)
    await reads.warmPickCounts([7, 8])
    expect(started).toHaveLength(2)
    // A TTL old: the next reader gets the held count and one recount starts behind it.
    expect(await settled(reads.roundPickCounts(7))).toEqual({ done: true, value: counts(1) })
    expect(started).toHaveLength(3)
    started[2]!.resolve(counts(5))
    await settled(Promise.resolve())
    expect(await reads.roundPickCounts(7)).toEqual(counts(5))
    expect(started).toHaveLength(3)
  })
})
