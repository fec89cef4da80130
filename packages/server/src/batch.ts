/**
 * Coalesces lookups that arrive together into one query. Requests that reach the server in the
 * same turn of the event loop (a deadline crowd, 100 connections at once) each ask for their own
 * row; the batcher answers them all from one `WHERE key = ANY(...)` query, so the database and
 * the driver see one round trip instead of one per request (decision 009: a round trip's CPU in
 * the API, mostly the socket write, was what limited the deadline rush). A lone request waits one
 * `setImmediate`, nothing more.
 */
export class Batcher<K extends string | number, V> {
  private pending: Map<K, { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]> =
    new Map()
  private scheduled = false

  constructor(
    /** Loads every key given; a key missing from the answer resolves to undefined. */
    private readonly load: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxBatch = 500,
  ) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key)
      if (waiting) waiting.push({ resolve, reject })
      else this.pending.set(key, [{ resolve, reject }])
      if (this.pending.size >= this.maxBatch) this.flush()
      else if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.scheduled = false
    const batch = this.pending
    if (batch.size === 0) return
    this.pending = new Map()
    this.load([...batch.keys()]).then(
      (found) => {
        for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key))
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(error)
      },
    )
  }
}

/** Groups keys by a part of them (one query per group: a round, a league). */
export function groupBy<T, G>(items: readonly T[], part: (item: T) => G): Map<G, T[]> {
  const groups = new Map<G, T[]>()
  for (const item of items) {
    const g = part(item)
    const list = groups.get(g)
    if (list) list.push(item)
    else groups.set(g, [item])
  }
  return groups
}

/**
 * Batch keys of the form `${scope}:${n}` (n: a user id, an offset), grouped by scope, each with
 * its number: one query per scope.
 */
export function byScope(keys: readonly string[]): Map<string, { key: string; n: number }[]> {
  return groupBy(
    keys.map((key) => {
      const cut = key.lastIndexOf(':')
      return { key, scope: key.slice(0, cut), n: Number(key.slice(cut + 1)) }
    }),
    (k) => k.scope,
  )
}
