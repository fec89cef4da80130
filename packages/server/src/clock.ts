/** The one source of "now" (ARCHITECTURE.md): tests and the demo can set it. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that can be moved; used by tests and by the test-only clock route. */
export class AdjustableClock implements Clock {
  private offsetMs = 0
  private fixed: number | null

  constructor(fixedAt?: Date) {
    this.fixed = fixedAt ? fixedAt.getTime() : null
  }

  now(): Date {
    return new Date((this.fixed ?? Date.now()) + this.offsetMs)
  }

  set(at: Date): void {
    this.fixed = at.getTime()
    this.offsetMs = 0
  }

  advance(ms: number): void {
    this.offsetMs += ms
  }

  /** Back to the real time. */
  reset(): void {
    this.fixed = null
    this.offsetMs = 0
  }
}
