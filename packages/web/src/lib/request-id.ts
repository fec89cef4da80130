/**
 * Keys for creating writes (decision 049): one per thing the player means to create, so the same
 * create sent again (the transport's resend after a 503, a second press after an error whose
 * write had in fact landed) finds what the first made instead of making another.
 */

/** A random version 4 UUID. `crypto.randomUUID` exists only on secure origins; this does not. */
export function newRequestId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 0x0f) | 0x40 // version 4
  b[8] = (b[8]! & 0x3f) | 0x80 // the RFC variant
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export interface RequestIdKeeper {
  /** The key for these values: the last call's key if its values were the same, else a new one. */
  idFor(values: unknown): string
  /** The send went through: the next one, even with the same values, is a new thing. */
  forget(): void
}

/**
 * One key per set of values, kept by a form for as long as it is open: pressing again after an
 * error repeats the send, changing a field first (or sending again after a success) makes a new one.
 */
export function requestIdKeeper(): RequestIdKeeper {
  let last: { values: string; id: string } | null = null
  return {
    idFor(values) {
      const key = JSON.stringify(values)
      if (last?.values !== key) last = { values: key, id: newRequestId() }
      return last.id
    },
    forget() {
      last = null
    },
  }
}
