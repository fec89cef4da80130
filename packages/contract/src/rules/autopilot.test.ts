import { describe, expect, it } from 'vitest'
import { autopilotMargin, autopilotSquad, favourite } from './autopilot.ts'

const match = { homeSquadId: 1, awaySquadId: 2, isMarginGame: true }

describe('autopilot reference', () => {
  it('takes the side more tippers picked, the home side on a tie or with no tips', () => {
    expect(favourite(match, { squadIds: [2, 2, 1], margins: [] })).toBe(2)
    expect(favourite(match, { squadIds: [2, 1], margins: [] })).toBe(1)
    expect(favourite(match, { squadIds: [], margins: [] })).toBe(1)
  })
  it('tips my team only when it plays, else the favourite', () => {
    const crowd = { squadIds: [2], margins: [] }
    expect(autopilotSquad('team', 1, match, crowd)).toBe(1)
    expect(autopilotSquad('team', 7, match, crowd)).toBe(2)
    expect(autopilotSquad('team', 0, match, crowd)).toBe(2)
    expect(autopilotSquad('home', 2, match, crowd)).toBe(1)
  })
  it('predicts the lower median margin, 0 with no guesses, none off the margin game', () => {
    expect(autopilotMargin(match, { squadIds: [], margins: [30, 4, 12, 9] })).toBe(9)
    expect(autopilotMargin(match, { squadIds: [], margins: [5, 1, 3] })).toBe(3)
    expect(autopilotMargin(match, { squadIds: [], margins: [] })).toBe(0)
    expect(autopilotMargin({ ...match, isMarginGame: false }, { squadIds: [], margins: [3] })).toBe(
      null,
    )
  })
})
