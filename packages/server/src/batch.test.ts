import { describe, expect, it } from 'vitest'
import { Batcher, byScope, groupBy } from './batch.ts'

describe('Batcher', () => {
  it('answers keys asked in one turn from one load, each caller its own value', async () => {
    const loads: number[][] = []
    const batcher = new Batcher<number, string>(async (keys) => {
      loads.push(keys)
      return new Map(keys.filter((k) => k !== 3).map((k) => [k, `v${k}`]))
    })
    const answers = await Promise.all([1, 2, 2, 3].map((k) => batcher.get(k)))
    expect(answers).toEqual(['v1', 'v2', 'v2', undefined])
    expect(loads).toEqual([[1, 2, 3]])
    expect(await batcher.get(4)).toBe('v4')
    expect(loads).toHaveLength(2)
  })

  it('starts a load as soon as a batch is full', async () => {
    const sizes: number[] = []
    const batcher = new Batcher<number, number>(async (keys) => {
      sizes.push(keys.length)
      return new Map(keys.map((k) => [k, k]))
    }, 3)
    expect(await Promise.all([1, 2, 3, 4, 5].map((k) => batcher.get(k)))).toEqual([1, 2, 3, 4, 5])
    expect(sizes).toEqual([3, 2])
  })

  it('rejects every caller of a failed load, and the next batch loads afresh', async () => {
    let fail = true
    const batcher = new Batcher<string, number>(async (keys) => {
      if (fail) throw new Error('down')
      return new Map(keys.map((k) => [k, k.length]))
    })
    const settled = await Promise.allSettled([batcher.get('a'), batcher.get('bb')])
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected'])
    fail = false
    expect(await batcher.get('ccc')).toBe(3)
  })
})

describe('groupBy', () => {
  it('keeps first-seen order of groups and of items within a group', () => {
    const groups = groupBy(
      [
        { r: 2, u: 1 },
        { r: 1, u: 2 },
        { r: 2, u: 3 },
      ],
      (x) => x.r,
    )
    expect([...groups.keys()]).toEqual([2, 1])
    expect(groups.get(2)!.map((x) => x.u)).toEqual([1, 3])
  })
})

describe('byScope', () => {
  it('splits keys at their last colon, scope before, number after', () => {
    const groups = byScope(['1:7:3', '1:7:10', '2::4'])
    expect([...groups.keys()]).toEqual(['1:7', '2:'])
    expect(groups.get('1:7')!.map((k) => k.n)).toEqual([3, 10])
    expect(groups.get('2:')![0]).toMatchObject({ key: '2::4', n: 4 })
  })
})
