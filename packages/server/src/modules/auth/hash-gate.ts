import { AppError } from '../../errors.ts'

/**
 * Bounds the password hashing work of one process (issue 26, item 2). Each argon2 check takes
 * 19 MiB and tens of milliseconds of a core on libuv's thread pool (four threads by default, which
 * file and DNS work share): a burst of sign-ins, unknown emails included, used to fill the pool and
 * the cores and stall every other request. At most `concurrency` hashes run at once and `queue`
 * more wait; past that a request is refused at once (503, Retry-After) rather than queued behind
 * work that would take seconds. Every rate limit is checked before a request gets here.
 */
export class HashGate {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'Too many sign-ins at once; try again in a few seconds',
        )
      }
      // The slot is handed over by the one finishing (below), so `running` never dips meanwhile.
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}

/** No bound: the command-line tools and the demo seed, which hash alone. */
export const unboundedHashGate = new HashGate(Number.POSITIVE_INFINITY, 0)
