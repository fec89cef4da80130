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

/**
 * One key per set of values: the same values as the last call give its key again, other values
 * a new one. A form keeps one of these for as long as it is open, so pressing again after an
 * error repeats the create, and changing a field first makes a different thing.
 */
export function requestIdKeeper(): (values: unknown) => string {
  let last: { values: string; id: string } | null = null
  return (values) => {
    const key = JSON.stringify(values)
    if (last?.values !== key) last = { values: key, id: newRequestId() }
    return last.id
  }
}
