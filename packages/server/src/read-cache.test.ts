import { afterEach, describe, expect, it, vi } from 'vitest'
import { ReadCache, StaleWhileRebuild } from './read-cache.ts'

describe('ReadCache', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('serves a value for its time to live, then loads again', async () => {
    vi.useFakeTimers()
    const cache = new ReadCache<number>(1000)
    let loads = 0
    const load = async () => ++loads
    expect(await cache.get('a', load)).toBe(1)
    vi.advanceTimersByTime(999)
    expect(await cache.get('a', load)).toBe(1)
    vi.advanceTimersByTime(1)
    // Stale: answered at once while one reload runs behind it.
    expect(await cache.get('a', load)).toBe(1)
    expect(await cache.get('a', load)).toBe(2)
    expect(loads).toBe(2)
    expect(await cache.get('b', load)).toBe(3)
  })

  it('waits for a reload once an entry is more than twice its time to live old', async () => {
    vi.useFakeTimers()
    const cache = new ReadCache<number>(1000)
    let loads = 0
    const load = async () => ++loads
    expect(await cache.get('a', load)).toBe(1)
    vi.advanceTimersByTime(2000)
    expect(await cache.get('a', load)).toBe(2)
  })

  it('answers the stale value while a slow reload runs, and starts only one', async () => {
    vi.useFakeTimers()
    const cache = new ReadCache<string>(1000)
    let loads = 0
    let finish: (v: string) => void = () => {}
    expect(await cache.get('k', async () => (++loads, 'old'))).toBe('old')
    vi.advanceTimersByTime(1500)
    const slow = () => (++loads, new Promise<string>((r) => (finish = r)))
    expect(await cache.get('k', slow)).toBe('old')
    expect(await cache.get('k', slow)).toBe('old')
    expect(loads).toBe(2)
    finish('new')
    await Promise.resolve()
    expect(await cache.get('k', slow)).toBe('new')
  })

  it('reads afresh after clear, and keeps no reload that was under way', async () => {
    vi.useFakeTimers()
    const cache = new ReadCache<string>(1000)
    let finish: (v: string) => void = () => {}
    expect(await cache.get('k', async () => 'old')).toBe('old')
    vi.advanceTimersByTime(1500)
    expect(await cache.get('k', () => new Promise<string>((r) => (finish = r)))).toBe('old')
    cache.clear()
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh')
    finish('reloaded before the clear')
    await Promise.resolve()
    expect(await cache.get('k', async () => 'unused')).toBe('fresh')
  })

  it('forgets entries no get would answer, on its own timer, keeping those being reloaded', async () => {
    vi.useFakeTimers()
    const cache = new ReadCache<string>(1000)
    let finish: (v: string) => void = () => {}
    await cache.get('old', async () => 'a')
    vi.advanceTimersByTime(1500)
    // stale: answered while a reload runs, which stays under way past the sweep below
    expect(await cache.get('old', () => new Promise<string>((r) => (finish = r)))).toBe('a')
    await cache.get('gone', async () => 'b')
    // At 2,000 ms the timer's first sweep: 'old' is past twice its TTL but being reloaded.
    vi.advanceTimersByTime(500)
    expect(cache.size).toBe(2)
    vi.advanceTimersByTime(500)
    await cache.get('fresh', async () => 'c')
    expect(cache.size).toBe(3)
    // At 4,000 ms: 'gone' (2,500 ms old) goes; 'old' is still reloading; 'fresh' stays.
    vi.advanceTimersByTime(1500)
    expect(cache.size).toBe(2)
    finish('a2')
    await Promise.resolve()
    expect(await cache.get('old', async () => 'unused')).toBe('a2')
    // Nobody reads for a while: everything goes, without a get.
    vi.advanceTimersByTime(6000)
    expect(cache.size).toBe(0)
  })

  it('shares one load among concurrent misses', async () => {
    const cache = new ReadCache<number>(1000)
    let loads = 0
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 5))
    const values = await Promise.all([cache.get('k', load), cache.get('k', load)])
    expect(values).toEqual([1, 1])
    expect(loads).toBe(1)
  })

  it('drops the oldest entry when full', async () => {
    const cache = new ReadCache<string>(60_000, 2)
    const loads: string[] = []
    const load = (k: string) => async () => (loads.push(k), k)
    await cache.get('a', load('a'))
    await cache.get('b', load('b'))
    await cache.get('c', load('c'))
    await cache.get('b', load('b'))
    await cache.get('a', load('a'))
    expect(loads).toEqual(['a', 'b', 'c', 'a'])
  })

  it('forgets a failed load', async () => {
    const cache = new ReadCache<number>(1000)
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await cache.get('k', async () => 7)).toBe(7)
  })

  it('reads every time when the time to live is 0', async () => {
    const cache = new ReadCache<number>(0)
    let loads = 0
    await cache.get('k', async () => ++loads)
    await cache.get('k', async () => ++loads)
    expect(loads).toBe(2)
  })
})

describe('StaleWhileRebuild', () => {
  const later = () => new Promise((r) => setTimeout(r, 5))

  it('shares the first build, then serves the held value while one rebuild runs', async () => {
    const cache = new StaleWhileRebuild<string>()
    let builds = 0
    const build = (v: string) => async () => {
      builds++
      await later()
      return v
    }
    const first = await Promise.all([
      cache.get('k', '1', build('one')),
      cache.get('k', '1', build('x')),
    ])
    expect(first).toEqual(['one', 'one'])
    expect(builds).toBe(1)
    // A new version: the stale value at once, and only one rebuild however many ask.
    expect(await cache.get('k', '2', build('two'))).toBe('one')
    expect(await cache.get('k', '2', build('two'))).toBe('one')
    expect(builds).toBe(2)
    await later()
    await later()
    expect(await cache.get('k', '2', build('three'))).toBe('two')
    expect(builds).toBe(2)
  })

  it('rebuilds only when due agrees, and keeps the held value when a rebuild fails', async () => {
    const cache = new StaleWhileRebuild<number>()
    await cache.get('k', 'a', async () => 1)
    expect(
      await cache.get(
        'k',
        'b',
        async () => 2,
        () => false,
      ),
    ).toBe(1)
    expect(await cache.get('k', 'b', async () => Promise.reject(new Error('down')))).toBe(1)
    await later()
    expect(await cache.get('k', 'b', async () => 3)).toBe(1)
    await later()
    expect(await cache.get('k', 'b', async () => 4)).toBe(3)
  })

  it('remembers no failed first build', async () => {
    const cache = new StaleWhileRebuild<number>()
    await expect(cache.get('k', 'a', () => Promise.reject(new Error('down')))).rejects.toThrow()
    expect(await cache.get('k', 'a', async () => 7)).toBe(7)
  })
  it('when full, drops the key read least recently, not every key', async () => {
    const cache = new StaleWhileRebuild<string>(2)
    let builds = 0
    const build = (v: string) => async () => (builds++, v)
    await cache.get('overall', '1', build('o'))
    await cache.get('week1', '1', build('w1'))
    // The overall ladder is read again, so a third key evicts week 1, not it.
    expect(await cache.get('overall', '1', build('x'))).toBe('o')
    await cache.get('week2', '1', build('w2'))
    expect(builds).toBe(3)
    expect(cache.versionOf('overall')).toBe('1')
    expect(cache.versionOf('week1')).toBeUndefined()
    expect(await cache.get('overall', '1', build('x'))).toBe('o')
    expect(builds).toBe(3)
  })

  it('keeps the total weight within its budget, dropping the keys read least recently', async () => {
    const cache = new StaleWhileRebuild<number[]>(20, { weigh: (v) => v.length, maxWeight: 10 })
    let builds = 0
    const rows = (n: number) => async () => (builds++, Array.from({ length: n }, (_, i) => i))
    await cache.get('overall', '1', rows(6))
    await cache.get('week1', '1', rows(3))
    expect(cache.heldWeight()).toBe(9)
    // Read again, the overall ladder is kept; week 1 goes to make room for week 2.
    await cache.get('overall', '1', rows(6))
    await cache.get('week2', '1', rows(4))
    expect(cache.heldWeight()).toBe(10)
    expect(cache.versionOf('week1')).toBeUndefined()
    expect(cache.versionOf('overall')).toBe('1')
    // A rebuild that grows a key counts its new weight, not both.
    await cache.get('week2', '2', rows(1))
    await later()
    expect(cache.versionOf('week2')).toBe('2')
    expect(cache.heldWeight()).toBe(7)
    // Heavier than the whole budget: answered, and held alone.
    expect((await cache.get('huge', '1', rows(25))).length).toBe(25)
    expect(cache.heldWeight()).toBe(25)
    expect(cache.versionOf('overall')).toBeUndefined()
    expect(builds).toBe(5)
  })

  it('warms a key ahead of its readers: one build shared with them, none at a held version', async () => {
    const cache = new StaleWhileRebuild<string>()
    let builds = 0
    const build = (v: string) => async () => {
      builds++
      await later()
      return v
    }
    // Cold: the warm-up's build is the one the readers arriving meanwhile wait for.
    const warming = cache.warm('k', '1', build('one'))
    expect(
      await Promise.all([cache.get('k', '1', build('x')), cache.get('k', '1', build('y'))]),
    ).toEqual(['one', 'one'])
    await warming
    expect(builds).toBe(1)
    await cache.warm('k', '1', build('again'))
    expect(builds).toBe(1)
    // A new version: the readers get the held value while the warm-up builds, which it waits for.
    const next = cache.warm('k', '2', build('two'))
    expect(await cache.get('k', '2', build('x'))).toBe('one')
    await next
    expect(builds).toBe(2)
    expect(await cache.get('k', '2', build('x'))).toBe('two')
    expect(cache.versionOf('k')).toBe('2')
    // A failed warm-up rejects nothing and keeps what was held.
    await cache.warm('k', '3', () => Promise.reject(new Error('down')))
    expect(await cache.get('k', '2', build('x'))).toBe('two')
  })
})
