import type { NoticeHandlers } from '../../db/listen.ts'
import type { UserRow } from '../../db/schema.ts'

/** The database's channel for changes to users and sessions (migration 2026-11-24T0400). */
export const SESSION_CHANGES = 'session_changes'

/**
 * A resolved session as remembered: the user row and the session's own times, in epoch
 * milliseconds rather than Dates (20,000 sessions' two Date objects were about 4 MB of the API's
 * heap, which the rush's memory budget pays for; bench/README.md, 2026-12-07).
 */
export interface CachedSession {
  row: UserRow
  lastSeenAtMs: number
  expiresAtMs: number
}

/**
 * Resolved sessions kept in memory for `ttlMs`, so a signed-in read costs no session query
 * (bench/README.md: the lookup was a third to a half of a read's database round trips).
 *
 * Anything in this process that revokes a session or changes a user row calls `forgetUser` or
 * `forgetSession` in the same breath. Changes made anywhere else (another API process, a job, an
 * operator) arrive as the database's notices (`followNotices`, migration
 * 2026-11-24T0400-session-change-notices); while the listening connection is down nothing is
 * served from memory, since a notice may be missed. 0 turns the cache off.
 */
export class SessionCache {
  private readonly entries = new Map<string, { at: number; session: CachedSession }>()
  /** Each user's keys in `entries`, so a notice about a user costs no walk over the cache. */
  private readonly byUser = new Map<number, Set<string>>()
  /**
   * Bumped by every forget. A lookup that was in flight while a session was revoked must not
   * cache what it read before the revocation: it passes the generation it started under to `set`.
   */
  private forgets = 0
  /** False while notices are followed but not heard (not yet listening, or the line dropped). */
  private live = true

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
  ) {}

  get(idHash: Buffer, nowMs: number): CachedSession | undefined {
    if (this.ttlMs <= 0 || !this.live) return undefined
    const key = idHash.toString('base64')
    const hit = this.entries.get(key)
    if (!hit) return undefined
    if (nowMs - hit.at >= this.ttlMs) {
      this.remove(key)
      return undefined
    }
    return hit.session
  }

  get generation(): number {
    return this.forgets
  }

  set(idHash: Buffer, session: CachedSession, nowMs: number, startedAt: number): void {
    if (this.ttlMs <= 0 || !this.live || startedAt !== this.forgets) return
    const key = idHash.toString('base64')
    this.remove(key)
    // Map keeps insertion order: the first key is the oldest entry.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.remove(oldest)
    }
    this.entries.set(key, { at: nowMs, session })
    const id = session.row.id
    let keys = this.byUser.get(id)
    if (!keys) this.byUser.set(id, (keys = new Set()))
    keys.add(key)
  }

  forgetSession(idHash: Buffer): void {
    this.forgets++
    this.remove(idHash.toString('base64'))
  }

  /** Every cached session of the user (roles, profile, password or sessions changed). */
  forgetUser(userId: number): void {
    this.forgets++
    for (const key of this.byUser.get(userId) ?? []) this.entries.delete(key)
    this.byUser.delete(userId)
  }

  forgetAll(): void {
    this.forgets++
    this.entries.clear()
    this.byUser.clear()
  }

  /**
   * Handlers for `DatabaseHandle.listen('session_changes', ...)`. Until `listening` is called
   * the cache serves nothing; each notice names the users to forget, or `*` for all.
   */
  followNotices(): NoticeHandlers {
    this.live = false
    this.forgetAll()
    return {
      notice: (payload) => {
        if (payload === '*') return this.forgetAll()
        for (const id of payload.split(',')) {
          const n = Number(id)
          // Not a user id: a notice this code does not understand, so trust nothing cached.
          if (!Number.isInteger(n) || id === '') return this.forgetAll()
          this.forgetUser(n)
        }
      },
      listening: () => {
        // What was missed while deaf is unknown: start again from nothing.
        this.forgetAll()
        this.live = true
      },
      lost: () => {
        this.live = false
        this.forgetAll()
      },
    }
  }

  get size(): number {
    return this.entries.size
  }

  private remove(key: string): void {
    const hit = this.entries.get(key)
    if (!hit) return
    this.entries.delete(key)
    const keys = this.byUser.get(hit.session.row.id)
    keys?.delete(key)
    if (keys?.size === 0) this.byUser.delete(hit.session.row.id)
  }
}
