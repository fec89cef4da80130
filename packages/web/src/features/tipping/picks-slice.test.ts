import { describe, expect, it } from 'vitest'
import type { PredictionsResponse } from '@tipping/contract/predictions'
import { initialPicksState, picksActions as a, picksReducer as reduce } from './picks-slice.ts'

const match = (
  id: number,
  status: 'scheduled' | 'active' | 'complete' = 'scheduled',
  isMarginGame = false,
) => ({
  id,
  number: id,
  status,
  date: '2026-01-01T08:00:00Z',
  homeSquadId: 1,
  awaySquadId: 2,
  homeRuns: null,
  awayRuns: null,
  homeWicketsFallen: null,
  awayWicketsFallen: null,
  homeOvers: null,
  awayOvers: null,
  venueId: 1,
  class: 'match',
  isMarginGame,
  winnerSquadId: null,
  outcome: null,
  sixes: null,
  home_percent: 0,
  away_percent: 0,
})
const pred = (m: ReturnType<typeof match>, squad = 0) => ({
  match: m.id,
  squad,
  margin: null,
  isMarginGame: m.isMarginGame,
  isAutoTip: false,
  isCorrect: null,
  counted: null,
  marginResult: null,
  status: m.status,
})
const response = (): PredictionsResponse => {
  const ms = [match(1), match(2, 'scheduled', true), match(3, 'active')]
  return {
    round: {
      id: 1,
      number: 1,
      label: 'Week 1',
      status: 'active',
      startDate: '',
      endDate: '',
      isGoldenWeek: false,
    },
    matches: ms,
    predictions: [pred(ms[0]!), pred(ms[1]!), pred(ms[2]!, 2)],
  }
}
const loaded = () => reduce(initialPicksState, a.loaded(response()))

describe('picks', () => {
  it('picks and changes a squad on a scheduled match only', () => {
    let s = reduce(loaded(), a.picked({ match: 1, squad: 1 }))
    s = reduce(s, a.picked({ match: 1, squad: 2 }))
    s = reduce(s, a.picked({ match: 3, squad: 1 }))
    expect(s.picks.map((p) => p.squad)).toEqual([2, 0, 2])
  })

  it('starts the margin at 0 when the margin game is picked, and clamps changes', () => {
    let s = reduce(loaded(), a.marginChanged({ match: 2, margin: 5 }))
    expect(s.picks[1]!.margin).toBeNull()
    s = reduce(s, a.picked({ match: 2, squad: 1 }))
    expect(s.picks[1]!.margin).toBe(0)
    s = reduce(s, a.marginChanged({ match: 2, margin: 250 }))
    expect(s.picks[1]!.margin).toBe(100)
    s = reduce(s, a.marginChanged({ match: 2, margin: -3 }))
    expect(s.picks[1]!.margin).toBe(0)
  })

  it('saves: saving blocks saving, success stores the result and shows Saved', () => {
    let s = reduce(reduce(loaded(), a.picked({ match: 1, squad: 1 })), a.saveStarted())
    expect(s).toMatchObject({ saving: true, can_save: false, saveStatus: 'saving' })
    expect(reduce(s, a.picked({ match: 1, squad: 2 })).picks[0]!.squad).toBe(1)
    s = reduce(s, a.saveSucceeded([{ ...s.picks[0]!, squad: 1 }]))
    expect(s).toMatchObject({ saving: false, can_save: true, saveStatus: 'saved' })
    expect(s.savedPicks[0]!.squad).toBe(1)
    expect(reduce(s, a.confirmationHidden()).saveStatus).toBe('idle')
  })

  it('restores the earlier picks when a save fails', () => {
    let s = reduce(loaded(), a.picked({ match: 1, squad: 1 }))
    s = reduce(s, a.saveSucceeded([s.picks[0]!]))
    s = reduce(s, a.picked({ match: 1, squad: 2 }))
    s = reduce(reduce(s, a.saveStarted()), a.saveFailed())
    expect(s.picks[0]!.squad).toBe(1)
    expect(s.saveStatus).toBe('failed')
  })

  it('keeps unsaved picks through a refresh, but not on a match that has locked', () => {
    let s = reduce(loaded(), a.picked({ match: 1, squad: 1 }))
    const next = response()
    next.matches[0] = { ...next.matches[0]!, home_percent: 60, away_percent: 40 }
    s = reduce(s, a.refreshed(next))
    expect(s.picks[0]!.squad).toBe(1)
    expect(s.matches[0]!.home_percent).toBe(60)
    const locked = response()
    locked.predictions[0] = { ...locked.predictions[0]!, status: 'active' }
    expect(reduce(s, a.refreshed(locked)).picks[0]!.squad).toBe(0)
  })

  it('clears only scheduled picks, and merges server-confirmed picks as saved', () => {
    let s = reduce(loaded(), a.picked({ match: 1, squad: 1 }))
    s = reduce(s, a.clearedLocally())
    expect(s.picks.map((p) => p.squad)).toEqual([0, 0, 2])
    s = reduce(s, a.merged([{ ...s.picks[0]!, squad: 2 }]))
    expect(s.picks[0]!.squad).toBe(2)
    expect(s.savedPicks[0]!.squad).toBe(2)
  })

  it('refuses picks that are not a list', () => {
    const bad = { ...response(), predictions: {} as never }
    expect(() => reduce(initialPicksState, a.loaded(bad))).toThrow(
      'Invalid picks data: expected array',
    )
  })
})
