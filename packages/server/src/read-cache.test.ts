import { afterEach, describe, expect, it, vi } from 'vitest'
import { ReadCache } from './read-cache.ts'

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
    expect(await cache.get('a', load)).toBe(2)
    expect(await cache.get('b', load)).toBe(3)
  })

  it('shares one load among concurrent misses', async () => {
    const cache = new ReadCache<number>(1000)
    let loads = 0
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 5))
    const values = await Promise.all([cache.get('k', load), cache.get('k', load)])
    expect(values).toEqual([1, 1])
    expect(loads).toBe(1)
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
