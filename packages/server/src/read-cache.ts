/**
 * A small in-process cache for expensive reads whose answer may be a moment old (pick
 * percentages, tipper counts). ARCHITECTURE.md: caches that are safe to lose. Entries live
 * `ttlMs`; concurrent misses for one key share one load; 0 turns it off.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { at: number; value: Promise<V> }>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load()
    const now = Date.now()
    const hit = this.entries.get(key)
    if (hit && now - hit.at < this.ttlMs) return hit.value
    const value = load()
    if (this.entries.size >= this.maxEntries) this.entries.clear()
    this.entries.set(key, { at: now, value })
    // A failed load is not remembered.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key)
    })
    return value
  }
}
