import { describe, expect, it } from 'vitest'
import type { UserRow } from '../../db/schema.ts'
import { SessionCache, type CachedSession } from './session-cache.ts'

const session = (id: number): CachedSession => ({
  row: { id } as UserRow,
  lastSeenAtMs: 0,
  expiresAtMs: 1e13,
})
const hash = (s: string) => Buffer.from(s)

describe('SessionCache', () => {
  it('serves a session for its time to live only', () => {
    const cache = new SessionCache(1000)
    cache.set(hash('a'), session(1), 0, cache.generation)
    expect(cache.get(hash('a'), 999)?.row.id).toBe(1)
    expect(cache.get(hash('a'), 1000)).toBeUndefined()
  })

  it('forgets one session, or every session of a user', () => {
    const cache = new SessionCache(1000)
    for (const [h, id] of [
      ['a', 1],
      ['b', 1],
      ['c', 2],
    ] as const)
      cache.set(hash(h), session(id), 0, cache.generation)
    cache.forgetSession(hash('c'))
    expect(cache.get(hash('c'), 1)).toBeUndefined()
    cache.forgetUser(1)
    expect(cache.size).toBe(0)
  })

  it('does not keep what a lookup read before a revocation that landed while it ran', () => {
    const cache = new SessionCache(1000)
    const started = cache.generation
    cache.forgetSession(hash('a'))
    cache.set(hash('a'), session(1), 0, started)
    expect(cache.get(hash('a'), 1)).toBeUndefined()
  })

  it('drops the oldest entry when full, and keeps nothing when turned off', () => {
    const cache = new SessionCache(1000, 2)
    for (const h of ['a', 'b', 'c']) cache.set(hash(h), session(1), 0, cache.generation)
    expect(cache.get(hash('a'), 1)).toBeUndefined()
    expect(cache.get(hash('c'), 1)?.row.id).toBe(1)
    const off = new SessionCache(0)
    off.set(hash('a'), session(1), 0, off.generation)
    expect(off.get(hash('a'), 0)).toBeUndefined()
  })

  it('follows notices: serves nothing until listening, forgets the users named or all on *', () => {
    const cache = new SessionCache(1000)
    const follow = cache.followNotices()
    cache.set(hash('a'), session(1), 0, cache.generation)
    expect(cache.size).toBe(0)
    follow.listening()
    for (const [h, id] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 3],
    ] as const)
      cache.set(hash(h), session(id), 0, cache.generation)
    follow.notice('1,3')
    expect([...'abcd'].map((h) => cache.get(hash(h), 1)?.row.id)).toEqual([
      undefined,
      2,
      undefined,
      undefined,
    ])
    follow.notice('*')
    expect(cache.size).toBe(0)
    cache.set(hash('a'), session(1), 0, cache.generation)
    follow.notice('not a user')
    expect(cache.size).toBe(0)
  })

  it('keeps nothing while the line is down, and starts again empty when it is back', () => {
    const cache = new SessionCache(1000)
    const follow = cache.followNotices()
    follow.listening()
    cache.set(hash('a'), session(1), 0, cache.generation)
    follow.lost()
    expect(cache.get(hash('a'), 1)).toBeUndefined()
    cache.set(hash('a'), session(1), 0, cache.generation)
    follow.listening()
    expect(cache.get(hash('a'), 1)).toBeUndefined()
    cache.set(hash('a'), session(1), 0, cache.generation)
    expect(cache.get(hash('a'), 1)?.row.id).toBe(1)
  })

  it('forgets a user whose older entry was replaced or dropped without touching others', () => {
    const cache = new SessionCache(1000, 2)
    cache.set(hash('a'), session(1), 0, cache.generation)
    cache.set(hash('a'), session(2), 0, cache.generation)
    cache.set(hash('b'), session(1), 0, cache.generation)
    cache.set(hash('c'), session(3), 0, cache.generation)
    cache.forgetUser(1)
    expect(cache.get(hash('c'), 1)?.row.id).toBe(3)
    expect(cache.size).toBe(1)
    cache.forgetUser(3)
    expect(cache.size).toBe(0)
  })
})
