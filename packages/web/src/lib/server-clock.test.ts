import { describe, expect, it } from 'vitest'
import { createServerClock, NEGLIGIBLE_MS } from './server-clock.ts'

/** A device clock the test sets, and a server clock running `aheadMs` in front of it. */
function setup(ahead: number) {
  let aheadMs = ahead
  let device = 1_764_000_000_000
  const clock = createServerClock(() => device)
  /** One call: the server stamps it `uplinkMs` after it leaves; the answer is back after `roundTripMs`. */
  const call = (roundTripMs: number, uplinkMs = roundTripMs / 2) => {
    const sentAt = device
    clock.note(String(sentAt + uplinkMs + aheadMs), sentAt, sentAt + roundTripMs)
    device += roundTripMs
  }
  return { clock, call, device: () => device, setAhead: (ms: number) => (aheadMs = ms) }
}

describe("the server's clock as the device tells it (decision 047)", () => {
  it("runs a device that is ten minutes fast on the server's time", () => {
    const { clock, call, device } = setup(-600_000)
    expect(clock.now()).toBe(device())
    call(80)
    expect(clock.now()).toBe(device() - 600_000)
  })

  it('is wrong by at most half the round trip, and keeps the quickest of the last readings', () => {
    const { clock, call } = setup(5_000)
    // A slow answer stamped early: its middle is 900 ms off.
    call(2_000, 100)
    expect(Math.abs(clock.offset() - 5_000)).toBeLessThanOrEqual(1_000)
    expect(clock.offset()).toBe(5_000 - 900)
    // A quick one afterwards is surer, and a slower one after it does not replace it.
    call(40, 30)
    expect(clock.offset()).toBe(5_000 + 10)
    call(1_500, 1_400)
    expect(clock.offset()).toBe(5_000 + 10)
  })

  it('leaves a difference under a second alone', () => {
    const { clock, call, device } = setup(NEGLIGIBLE_MS - 1)
    call(20)
    expect(clock.offset()).toBe(0)
    expect(clock.now()).toBe(device())
  })

  it('follows a clock that is set again at the next answer', () => {
    const { clock, call, setAhead } = setup(-600_000)
    for (let i = 0; i < 5; i++) call(30)
    expect(clock.offset()).toBe(-600_000)
    // The device's clock is put right (or a test moves the server's): the new reading disagrees
    // with every kept one beyond their error bars, so it stands alone though its trip is slower.
    setAhead(0)
    call(300)
    expect(clock.offset()).toBe(0)
    setAhead(900_000)
    call(300, 100)
    expect(clock.offset()).toBe(900_000 - 50)
  })

  it('ignores an answer without the header or with something else in it', () => {
    const { clock } = setup(0)
    clock.note(null, 0, 10)
    clock.note('soon', 0, 10)
    clock.note('-5000000', 0, 10)
    expect(clock.offset()).toBe(0)
  })
})
