/**
 * A small in-process cache for expensive reads whose answer may be a moment old (pick
 * percentages, tipper counts). ARCHITECTURE.md: caches that are safe to lose. Entries are fresh for
 * `ttlMs`; concurrent misses for one key share one load; 0 turns it off. For a further `ttlMs` a
 * stale entry is still answered while one reload runs behind it: otherwise every request arriving
 * during the reload waits for it, and a slow count stalls the whole deadline crowd at each expiry
 * (decision 009). Older than that, a get waits.
 */
export class ReadCache<V> {
  private readonly entries = new Map<
    string,
    { at: number; value: Promise<V>; reloading: boolean }
  >()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {
    if (ttlMs > 0 && Number.isFinite(ttlMs)) sweepEvery(this, 2 * ttlMs)
  }

  /** Entries held, answerable or not. */
  get size(): number {
    return this.entries.size
  }

  /**
   * Forgets the entries no get would answer any more (older than twice the TTL) and not being
   * reloaded. Run on a timer (sweepEvery): a cache that nobody reads for a while (the rankings
   * pages during a deadline rush: 5,000 pages, 16 MB at a million tippers) would otherwise keep
   * them until it filled up again.
   */
  sweep(now = Date.now()): void {
    // A Map iterates in insertion order, and every store re-inserts with the time it is made:
    // the oldest come first, so the walk stops at the first entry still answerable.
    for (const [key, entry] of this.entries) {
      if (now - entry.at < 2 * this.ttlMs) break
      if (!entry.reloading) this.entries.delete(key)
    }
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load()
    const now = Date.now()
    const hit = this.entries.get(key)
    if (hit && now - hit.at < this.ttlMs) return hit.value
    if (hit && now - hit.at < 2 * this.ttlMs) {
      if (!hit.reloading) {
        hit.reloading = true
        const next = load()
        next.then(
          () => {
            // Fresh from when it arrived: a reload slower than the TTL is not stale on arrival.
            if (this.entries.get(key) === hit) this.store(key, Date.now(), next)
          },
          () => {
            hit.reloading = false
          },
        )
      }
      return hit.value
    }
    const value = load()
    this.store(key, now, value)
    // A failed load is not remembered.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key)
    })
    return value
  }

  /** Forgets every entry (a reload under way is not kept either): the next get reads afresh. */
  clear(): void {
    this.entries.clear()
  }

  private store(key: string, at: number, value: Promise<V>): void {
    // Full: the oldest entry goes (a Map iterates in insertion order; a reload re-inserts).
    this.entries.delete(key)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { at, value, reloading: false })
  }
}

/**
 * Sweeps `cache` every `ms` for as long as it exists: the timer holds it only weakly and stops
 * once it is collected, and never keeps the process alive.
 */
function sweepEvery<V>(cache: ReadCache<V>, ms: number): void {
  const ref = new WeakRef(cache)
  const timer = setInterval(() => {
    const held = ref.deref()
    if (held) held.sweep()
    else clearInterval(timer)
  }, ms)
  timer.unref()
}

/**
 * One value per key that is rebuilt behind the readers: once a key has a value, requests get it
 * at once while a single rebuild runs whenever the caller says the value is out of date. For
 * reads too big to rebuild on a request's time (a 100,000-member league ladder takes seconds).
 * A key with no value yet has one build, shared by every request that arrives meanwhile and by
 * `warm`, which starts it ahead of the requests (decision 020). When full, the key read least
 * recently goes, not every key: a crowd browsing many week views must not make the overall
 * ladder everyone reads cold again.
 */
export class StaleWhileRebuild<V> {
  private readonly entries = new Map<
    string,
    { value: V; version: string; builtAt: number; rebuilding: Promise<V> | null; weight: number }
  >()
  private readonly first = new Map<string, Promise<V>>()
  private weight = 0

  /**
   * At most `maxEntries` keys, and at most `maxWeight` of `weigh`'s measure over all of them (a
   * big league's ladders: rows, so that a crowd reading every week of one cannot fill the heap).
   * A value heavier than the whole budget is still answered to its readers, and kept alone.
   */
  constructor(
    private readonly maxEntries = 20,
    private readonly budget: { weigh: (value: V) => number; maxWeight: number } = {
      weigh: () => 0,
      maxWeight: Number.POSITIVE_INFINITY,
    },
  ) {}

  /**
   * The value for `key`. `version` describes what it was built from; when it differs from the
   * held value's and `due(builtAt, heldVersion)` agrees, one rebuild starts and its result replaces the value.
   */
  async get(
    key: string,
    version: string,
    build: () => Promise<V>,
    due: (builtAt: number, heldVersion: string) => boolean = () => true,
  ): Promise<V> {
    const held = this.entries.get(key)
    if (held) {
      // Read last: re-inserted, so it is the last to be evicted.
      this.entries.delete(key)
      this.entries.set(key, held)
      if (held.version !== version && !held.rebuilding && due(held.builtAt, held.version)) {
        const next = build()
        held.rebuilding = next
        next.then(
          (value) => this.store(key, value, version),
          () => {
            held.rebuilding = null
          },
        )
      }
      return held.value
    }
    let pending = this.first.get(key)
    if (!pending) {
      pending = build()
      this.first.set(key, pending)
      pending
        .then(
          (value) => this.store(key, value, version),
          () => {},
        )
        .finally(() => this.first.delete(key))
    }
    return pending
  }

  /**
   * Builds the value of `key` at `version` ahead of its readers, unless it is held at that version
   * or `due` (when given) says the held value is not due yet, or a build is already under way
   * (which is then waited for). Resolves when the key is built; never rejects (a failed build
   * leaves the key as it was, and the next reader tries again).
   */
  async warm(
    key: string,
    version: string,
    build: () => Promise<V>,
    due?: (builtAt: number, heldVersion: string) => boolean,
  ): Promise<void> {
    const held = this.entries.get(key)
    if (held && !held.rebuilding) {
      if (held.version === version) return
      // A value kept by age (pick counts, decision 032): not rebuilt before it is due.
      if (due && !due(held.builtAt, held.version)) return
    }
    const got = this.get(key, version, build, due)
    // On a held key, get answers the held value at once and leaves the rebuild running: wait for that.
    await (this.entries.get(key)?.rebuilding ?? got).then(
      () => {},
      () => {},
    )
  }

  /** The version `key` is held at, if it is held (tests, and what a warm-up may skip). */
  versionOf(key: string): string | undefined {
    return this.entries.get(key)?.version
  }

  /** The total weight held (tests). */
  heldWeight(): number {
    return this.weight
  }

  private store(key: string, value: V, version: string): void {
    this.drop(key)
    const weight = this.budget.weigh(value)
    // The key read least recently goes first (a read re-inserts its key).
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.maxEntries || this.weight + weight > this.budget.maxWeight)
    )
      this.drop(this.entries.keys().next().value!)
    this.entries.set(key, { value, version, builtAt: Date.now(), rebuilding: null, weight })
    this.weight += weight
  }

  private drop(key: string): void {
    const held = this.entries.get(key)
    if (!held) return
    this.entries.delete(key)
    this.weight -= held.weight
  }
}
