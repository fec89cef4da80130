import { describe, expect, it, vi } from 'vitest'
import { retryImport } from './lazy-retry.ts'

describe('lazy page loading (spec 2: up to 5 tries, 1 s apart)', () => {
  it('recovers when a later try succeeds', async () => {
    vi.useFakeTimers()
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('chunk'))
      .mockRejectedValueOnce(new Error('chunk'))
      .mockResolvedValue('page')
    const result = retryImport(load)
    await vi.advanceTimersByTimeAsync(999)
    expect(load).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(load).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1000)
    await expect(result).resolves.toBe('page')
    vi.useRealTimers()
  })

  it('gives up after the fifth failure', async () => {
    vi.useFakeTimers()
    const load = vi.fn<() => Promise<string>>().mockRejectedValue(new Error('offline'))
    const result = retryImport(load)
    const settled = expect(result).rejects.toThrow('offline')
    await vi.advanceTimersByTimeAsync(10_000)
    await settled
    expect(load).toHaveBeenCalledTimes(5)
    vi.useRealTimers()
  })
})
