// The server's clock as this device can tell it (decision 047). Lockouts are the server's: a
// match locks when the server's clock passes its start. A device whose clock runs ahead would
// show a match locked, and hide its pick buttons, minutes before the server stops taking tips;
// one that runs behind would offer a tip the server then refuses. Every API answer says when the
// server received it (contract/http.ts), and the page's lockouts and countdowns run on the
// device's clock corrected by what those answers show.

/** One answer's reading: how far the server's clock is ahead of this device's, and how sure. */
interface Reading {
  offsetMs: number
  roundTripMs: number
}

/** Readings kept: the newest few, so a device clock that is set again is followed in a few calls. */
const KEPT = 5
/** A difference under this is left alone: no player can tell, and no test's clock is moved by it. */
export const NEGLIGIBLE_MS = 1000

/** The clock's state, a value so each test can start its own (`createServerClock`). */
export function createServerClock(deviceNow: () => number = Date.now) {
  let readings: Reading[] = []
  let offsetMs = 0
  return {
    /**
     * One API answer: the header's value and when the request left and its answer came back, by
     * the device's clock. The server stamped it somewhere between the two: the middle is the best
     * guess, wrong by at most half the round trip.
     */
    note: (header: string | null, sentAt: number, receivedAt: number): void => {
      if (header === null || !/^\d+$/.test(header)) return
      const reading = {
        offsetMs: Number(header) - (sentAt + receivedAt) / 2,
        roundTripMs: Math.max(0, receivedAt - sentAt),
      }
      // Readings that cannot both be right (their error bars do not meet) mean a clock was set
      // again since (the device's, or a test's server clock): only the newest one stands.
      const agrees = (r: Reading) =>
        Math.abs(r.offsetMs - reading.offsetMs) <= (r.roundTripMs + reading.roundTripMs) / 2
      readings = [...readings.filter(agrees), reading].slice(-KEPT)
      // The quickest round trip is the surest reading.
      const best = readings.reduce((a, b) => (b.roundTripMs < a.roundTripMs ? b : a))
      offsetMs = Math.abs(best.offsetMs) < NEGLIGIBLE_MS ? 0 : Math.round(best.offsetMs)
    },
    /** Now, by the server's clock as far as this device can tell (ms since the epoch). */
    now: (): number => deviceNow() + offsetMs,
    /** How far the server's clock is ahead of the device's, as applied (0 when negligible). */
    offset: (): number => offsetMs,
  }
}

const clock = createServerClock()

/** Fed by the API client with every answer from the server (never a copy kept offline). */
export const noteServerTime = clock.note
/** Now by the server's clock, in ms: what lockouts and countdowns are measured against. */
export const serverNow = clock.now
/** The same as a Date. */
export const serverDate = (): Date => new Date(clock.now())
