import { describe, expect, it } from 'vitest'
import { asMatchId, asRoundId, asRoundNumber, asSquadId, type SquadId } from '@tipping/contract/ids'
import type { Match, Prediction, PredictionsResponse } from '@tipping/contract/predictions'
import { initialPicksState, picksActions as a, picksReducer as reduce } from './picks-slice.ts'
import { scheduledMatch } from './tipping-fixtures.ts'

const match = (
  id: number,
  status: 'scheduled' | 'active' | 'complete' = 'scheduled',
  isMarginGame = false,
): Match => scheduledMatch(id, { status, isMarginGame, date: '2026-01-01T08:00:00Z' })
const pred = (m: Match, squad: SquadId | 0 = 0): Prediction => ({
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
      id: asRoundId(1),
      number: asRoundNumber(1),
      label: 'Week 1',
      status: 'active',
      startDate: '',
      endDate: '',
      isGoldenWeek: false,
    },
    matches: ms,
    predictions: [pred(ms[0]!), pred(ms[1]!), pred(ms[2]!, asSquadId(2))],
  }
}
const KEY = 'bbl/1'
const shown = () => reduce(initialPicksState, a.shown(KEY))
const loaded = () => reduce(shown(), a.received({ key: KEY, predictions: response().predictions }))

describe('picks', () => {
  it('picks and changes a squad on a scheduled match only', () => {
    let s = reduce(loaded(), a.picked({ match: asMatchId(1), squad: asSquadId(1) }))
    s = reduce(s, a.picked({ match: asMatchId(1), squad: asSquadId(2) }))
    s = reduce(s, a.picked({ match: asMatchId(3), squad: asSquadId(1) }))
    expect(s.picks.map((p) => p.squad)).toEqual([2, 0, 2])
  })

  it('starts the margin at 0 when the margin game is picked, and clamps changes', () => {
    let s = reduce(loaded(), a.marginChanged({ match: asMatchId(2), margin: 5 }))
    expect(s.picks[1]!.margin).toBeNull()
    s = reduce(s, a.picked({ match: asMatchId(2), squad: asSquadId(1) }))
    expect(s.picks[1]!.margin).toBe(0)
    s = reduce(s, a.marginChanged({ match: asMatchId(2), margin: 250 }))
    expect(s.picks[1]!.margin).toBe(100)
    s = reduce(s, a.marginChanged({ match: asMatchId(2), margin: -3 }))
    expect(s.picks[1]!.margin).toBe(0)
  })

  it('saves: saving blocks saving, success stores the result and shows Saved', () => {
    let s = reduce(
      reduce(loaded(), a.picked({ match: asMatchId(1), squad: asSquadId(1) })),
      a.saveStarted(),
    )
    expect(s).toMatchObject({ saving: true, can_save: false, saveStatus: 'saving' })
    expect(reduce(s, a.picked({ match: asMatchId(1), squad: asSquadId(2) })).picks[0]!.squad).toBe(
      1,
    )
    s = reduce(s, a.saveSucceeded([{ ...s.picks[0]!, squad: asSquadId(1) }]))
    expect(s).toMatchObject({ saving: false, can_save: true, saveStatus: 'saved' })
    expect(s.picks[0]!.squad).toBe(1)
    expect(reduce(s, a.confirmationHidden()).saveStatus).toBe('idle')
  })

  it('restores the picks as last saved when a save fails', () => {
    let s = reduce(loaded(), a.picked({ match: asMatchId(1), squad: asSquadId(1) }))
    const earlier = s.picks.map((p) => ({ ...p }))
    s = reduce(s, a.picked({ match: asMatchId(1), squad: asSquadId(2) }))
    s = reduce(reduce(s, a.saveStarted()), a.saveFailed(earlier))
    expect(s.picks[0]!.squad).toBe(1)
    expect(s).toMatchObject({ saving: false, can_save: true, saveStatus: 'failed' })
  })

  it('keeps unsaved picks through a refresh, but not on a match that has locked', () => {
    let s = reduce(loaded(), a.picked({ match: asMatchId(1), squad: asSquadId(1) }))
    const next = response()
    next.predictions[2] = { ...next.predictions[2]!, isCorrect: true }
    s = reduce(s, a.received({ key: KEY, predictions: next.predictions }))
    expect(s.picks[0]!.squad).toBe(1)
    expect(s.picks[2]!.isCorrect).toBe(true)
    const locked = response()
    locked.predictions[0] = { ...locked.predictions[0]!, status: 'active' }
    expect(
      reduce(s, a.received({ key: KEY, predictions: locked.predictions })).picks[0]!.squad,
    ).toBe(0)
  })

  it('ignores an answer for a round no longer shown, and starts afresh on another round', () => {
    const s = reduce(loaded(), a.picked({ match: asMatchId(1), squad: asSquadId(1) }))
    const stale = response().predictions.map((p) => ({ ...p, squad: asSquadId(2) }))
    expect(reduce(s, a.received({ key: 'bbl/2', predictions: stale })).picks[0]!.squad).toBe(1)
    const other = reduce(s, a.shown('bbl/2'))
    expect(other).toMatchObject({ key: 'bbl/2', loaded: false, picks: [] })
    expect(reduce(other, a.received({ key: 'bbl/2', predictions: stale })).picks[0]!.squad).toBe(2)
  })

  it('clears only scheduled picks, and merges server-confirmed picks', () => {
    let s = reduce(loaded(), a.picked({ match: asMatchId(1), squad: asSquadId(1) }))
    s = reduce(s, a.clearedLocally())
    expect(s.picks.map((p) => p.squad)).toEqual([0, 0, 2])
    s = reduce(s, a.merged([{ ...s.picks[0]!, squad: asSquadId(2) }]))
    expect(s.picks[0]!.squad).toBe(2)
  })

  it('refuses picks that are not a list', () => {
    expect(() => reduce(shown(), a.received({ key: KEY, predictions: {} as never }))).toThrow(
      'Invalid picks data: expected array',
    )
  })
})

describe('autopilot tips (decision 026)', () => {
  const withAutopilot = (): PredictionsResponse => {
    const r = response()
    r.predictions[0] = { ...r.predictions[0]!, squad: asSquadId(1), isAutopilot: true }
    return r
  }
  it('keeps the mark until the user picks the match themselves, also across a refresh', () => {
    let s = reduce(shown(), a.received({ key: KEY, predictions: withAutopilot().predictions }))
    expect(s.picks[0]!.isAutopilot).toBe(true)
    s = reduce(s, a.picked({ match: asMatchId(1), squad: asSquadId(2) }))
    expect(s.picks[0]).toMatchObject({ squad: 2 })
    expect(s.picks[0]!.isAutopilot).toBeUndefined()
    // The periodic refresh still has the server's autopilot tip: the unsaved pick stays the user's.
    s = reduce(s, a.received({ key: KEY, predictions: withAutopilot().predictions }))
    expect(s.picks[0]).toMatchObject({ squad: 2 })
    expect(s.picks[0]!.isAutopilot).toBeUndefined()
  })
})
