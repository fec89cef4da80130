import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { newRequestId, requestIdKeeper } from './request-id.ts'

describe('request ids (decision 049)', () => {
  it('are version 4 UUIDs the contract takes, different each time', () => {
    const ids = Array.from({ length: 200 }, newRequestId)
    for (const id of ids) expect(z.uuid().safeParse(id).success, id).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('repeat for the same values, change with them, and start again after a success', () => {
    const keep = requestIdKeeper()
    const a = keep.idFor({ name: 'Office', startRound: 1 })
    expect(keep.idFor({ name: 'Office', startRound: 1 })).toBe(a)
    const b = keep.idFor({ name: 'Office', startRound: 2 })
    expect(b).not.toBe(a)
    // Back to the first values: a new thing now, not the first one again.
    expect(keep.idFor({ name: 'Office', startRound: 1 })).not.toBe(a)
    // Sent: the same values again are a second send (the same friends invited twice on purpose).
    const c = keep.idFor({ emails: ['pal@example.com'] })
    keep.forget()
    expect(keep.idFor({ emails: ['pal@example.com'] })).not.toBe(c)
    expect(requestIdKeeper().idFor({ name: 'Office', startRound: 2 })).not.toBe(b)
  })
})
