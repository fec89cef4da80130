import { describe, expect, it } from 'vitest'
import { AppError } from '../../errors.ts'
import { HashGate } from './hash-gate.ts'

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('HashGate', () => {
  it('runs at most `concurrency` at once, queues `queue` more in order, refuses the rest at once', async () => {
    const gate = new HashGate(2, 2)
    let running = 0
    let most = 0
    const order: number[] = []
    const releases: Array<() => void> = []
    const job = (n: number) =>
      gate.run(async () => {
        running++
        most = Math.max(most, running)
        order.push(n)
        await new Promise<void>((resolve) => releases.push(resolve))
        running--
        return n
      })
    const admitted = [1, 2, 3, 4].map(job)
    const refused = job(5)
    await expect(refused).rejects.toBeInstanceOf(AppError)
    await expect(refused).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 })
    await tick()
    expect(order).toEqual([1, 2])
    // Each finishing one hands its slot to the next in the queue.
    while (releases.length > 0) {
      releases.shift()!()
      await tick()
    }
    expect(await Promise.all(admitted)).toEqual([1, 2, 3, 4])
    expect(order).toEqual([1, 2, 3, 4])
    expect(most).toBe(2)
    // Empty again: a new one runs at once.
    const again = job(6)
    await tick()
    releases.splice(0).forEach((release) => release())
    expect(await again).toBe(6)
  })

  it('frees the slot when the work fails', async () => {
    const gate = new HashGate(1, 0)
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await gate.run(async () => 'ok')).toBe('ok')
  })
})
