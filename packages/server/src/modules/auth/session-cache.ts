import type { UserRow } from '../../db/schema.ts'

/** A resolved session as remembered: the user row and the session's own times. */
export interface CachedSession {
  row: UserRow
  lastSeenAt: Date
  expiresAt: Date
}

/**
 * Resolved sessions kept in memory for `ttlMs`, so a signed-in read costs no session query
 * (bench/README.md: the lookup was a third to a half of a read's database round trips).
 *
 * Anything in this process that revokes a session or changes a user row calls `forgetUser` or
 * `forgetSession` in the same breath, so this process never serves a stale session. Another API
 * process sees such a change within `ttlMs` (docs/SECURITY.md). 0 turns the cache off.
 */
export class SessionCache {
  private readonly entries = new Map<string, { at: number; session: CachedSession }>()
  /**
   * Bumped by every forget. A lookup that was in flight while a session was revoked must not
   * cache what it read before the revocation: it passes the generation it started under to `set`.
   */
  private forgets = 0

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
  ) {}

  get(idHash: Buffer, nowMs: number): CachedSession | undefined {
    if (this.ttlMs <= 0) return undefined
    const key = idHash.toString('base64')
    const hit = this.entries.get(key)
    if (!hit) return undefined
    if (nowMs - hit.at >= this.ttlMs) {
      this.entries.delete(key)
      return undefined
    }
    return hit.session
  }

  get generation(): number {
    return this.forgets
  }

  set(idHash: Buffer, session: CachedSession, nowMs: number, startedAt: number): void {
    if (this.ttlMs <= 0 || startedAt !== this.forgets) return
    // Map keeps insertion order: the first key is the oldest entry.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(idHash.toString('base64'), { at: nowMs, session })
  }

  forgetSession(idHash: Buffer): void {
    this.forgets++
    this.entries.delete(idHash.toString('base64'))
  }

  /** Every cached session of the user (roles, profile, password or sessions changed). */
  forgetUser(userId: number): void {
    this.forgets++
    for (const [key, entry] of this.entries) {
      if (entry.session.row.id === userId) this.entries.delete(key)
    }
  }

  get size(): number {
    return this.entries.size
  }
}
