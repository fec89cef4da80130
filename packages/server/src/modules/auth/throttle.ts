/**
 * Counts attempts per key in a fixed one-minute window, in this process's memory (safe to lose:
 * a restart only forgives). Used for sign-in attempts per account, which the per-address limiter
 * of @fastify/rate-limit cannot see before the body is read.
 */
export class AttemptThrottle {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Records an attempt; false when the key is over its limit for the current window. */
  allow(key: string, now: number): boolean {
    const w = this.windows.get(key)
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 100_000) this.sweep(now)
      this.windows.set(key, { start: now, count: 1 })
      return true
    }
    w.count++
    return w.count <= this.max
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows)
      if (now - w.start >= this.windowMs) this.windows.delete(key)
  }
}
