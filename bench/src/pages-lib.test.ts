import { describe, expect, it } from 'vitest'
import {
  addSparse,
  histogramOf,
  LAG_MAX_MS,
  newHistogram,
  parseSseBlock,
  percentile,
  perSecond,
  record,
  sourceAddress,
  sparse,
  summarise,
} from './pages-lib.ts'

describe('sourceAddress', () => {
  it('gives each address at most perAddress pages, all in 127.0.0.0/8 and none in 127.0.0.x', () => {
    const counts = new Map<string, number>()
    for (let i = 0; i < 250_000; i++) {
      const a = sourceAddress(i, 1000)
      counts.set(a, (counts.get(a) ?? 0) + 1)
    }
    expect(counts.size).toBe(250)
    for (const [a, n] of counts) {
      expect(n).toBe(1000)
      const octets = a.split('.').map(Number)
      expect(octets[0]).toBe(127)
      expect(octets.every((o) => Number.isInteger(o) && o >= 0 && o <= 255)).toBe(true)
      expect(octets[3]).toBeGreaterThanOrEqual(1)
      expect(octets[3]).toBeLessThanOrEqual(254)
      expect(a.startsWith('127.0.0.')).toBe(false)
    }
    expect(sourceAddress(0, 1000)).toBe('127.0.1.1')
    expect(sourceAddress(999, 1000)).toBe('127.0.1.1')
    expect(sourceAddress(1000, 1000)).toBe('127.0.1.2')
  })

  it('carries on into the second octet past 65,000 addresses, and refuses past the /8', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 254 * 256 * 2; i++) seen.add(sourceAddress(i, 1))
    expect(seen.size).toBe(254 * 256 * 2)
    expect(sourceAddress(254 * 256 - 254, 1)).toBe('127.1.0.1')
    expect(() => sourceAddress(254 * 256 * 256, 1)).toThrow(/no address left/)
    expect(() => sourceAddress(-1)).toThrow()
  })
})

describe('lag histogram', () => {
  it('reads p50, p99 and max by nearest rank', () => {
    const h = histogramOf(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(summarise(h)).toEqual({ count: 100, p50: 50, p99: 99, max: 100 })
    expect(percentile(h, 1)).toBe(100)
  })

  it('clamps below zero and beyond the last bucket, and is empty as NaN', () => {
    const h = newHistogram()
    expect(summarise(h).count).toBe(0)
    expect(percentile(h, 0.5)).toBeNaN()
    record(h, -5)
    record(h, LAG_MAX_MS * 10)
    expect(summarise(h)).toMatchObject({ count: 2, p50: 0, max: LAG_MAX_MS })
  })

  it('survives the trip between processes as sparse pairs, merged', () => {
    const a = histogramOf([3, 3, 10])
    const b = histogramOf([10, 2000])
    expect(sparse(a)).toEqual([
      [3, 2],
      [10, 1],
    ])
    const merged = newHistogram()
    addSparse(merged, sparse(a))
    addSparse(merged, sparse(b))
    expect(summarise(merged)).toEqual({ count: 5, p50: 10, p99: 2000, max: 2000 })
  })
})

describe('parseSseBlock', () => {
  it('reads an event off a chunked response, skipping the chunk framing', () => {
    const block = '\r\n1a3\r\nid: 42\nevent: live\ndata: {"matchId":7,"updatedAt":"x"}'
    expect(parseSseBlock(block)).toEqual({
      id: 42,
      event: 'live',
      data: '{"matchId":7,"updatedAt":"x"}',
    })
  })

  it('gives nothing for a heartbeat or the retry field', () => {
    expect(parseSseBlock('\r\n3\r\n:')).toEqual({ id: null, event: null, data: null })
    expect(parseSseBlock('f\r\nretry: 3000')).toEqual({ id: null, event: null, data: null })
  })
})

describe('perSecond', () => {
  it('counts per whole second from the start, earlier ones in the first', () => {
    expect(perSecond([1000, 1500, 2100, 4999, 500], 1000)).toEqual([3, 1, 0, 1])
    expect(perSecond([], 0)).toEqual([])
  })
})
