import { afterEach, describe, expect, it } from 'vitest'
import { rememberJoinPrompt, shouldPromptToJoin } from './join-prompt.tsx'

afterEach(() => localStorage.clear())

describe('join prompt conditions (spec 4)', () => {
  const base = {
    userId: 7,
    leagueCount: 0,
    overallRank: 0,
    overallPoints: 0,
    allOpenPicked: true,
  }
  it('prompts a new tipper with every open match picked and no league', () => {
    expect(shouldPromptToJoin(base)).toBe(true)
  })
  it('prompts a tipper who joined mid-season: ranked at once, but no points yet', () => {
    expect(shouldPromptToJoin({ ...base, overallRank: 412 })).toBe(true)
  })
  it('does not prompt a league member, a tipper with points, or with open matches unpicked', () => {
    expect(shouldPromptToJoin({ ...base, leagueCount: 1 })).toBe(false)
    expect(shouldPromptToJoin({ ...base, overallRank: 12, overallPoints: 9 })).toBe(false)
    expect(shouldPromptToJoin({ ...base, allOpenPicked: false })).toBe(false)
  })
  it('prompts once per user', () => {
    rememberJoinPrompt(7)
    expect(shouldPromptToJoin(base)).toBe(false)
    expect(shouldPromptToJoin({ ...base, userId: 8 })).toBe(true)
  })
})
