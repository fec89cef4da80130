import { render, screen } from '@testing-library/react'
import { asRoundNumber } from '@tipping/contract/ids'
import { describe, expect, it } from 'vitest'
import type { RankingRow } from '@tipping/contract/scores'
import {
  StillInItChip,
  stillInIt,
  StillToPlayFor,
  WeekWinners,
  winnersList,
  WeeksWon,
  WinsChip,
} from './honours.tsx'

const row = (userId: number, rank: number, totalPoints: number, totalMargin: number) =>
  ({
    userId,
    teamName: null,
    firstName: `T${userId}`,
    lastNameInitial: 'X',
    rank,
    points: 0,
    margin: 0,
    totalPoints,
    totalMargin,
  }) satisfies RankingRow

describe('stillInIt (issue 31 "Can I still win?")', () => {
  const rows = [row(1, 1, 50, 10), row(2, 2, 45, 3), row(3, 3, 38, 0)]

  it('marks late in the season: in when the points left reach the leader, out when not', () => {
    const marks = stillInIt(rows, { maxPoints: 10, rounds: 1, marginGameLeft: false })
    expect(marks.show).toBe(true)
    expect(rows.map(marks.inIt)).toEqual([true, true, false])
  })

  it('shows nothing earlier while everyone is in', () => {
    const marks = stillInIt(rows, { maxPoints: 40, rounds: 5, marginGameLeft: true })
    expect(marks.show).toBe(false)
    expect(rows.every(marks.inIt)).toBe(true)
  })

  it('shows before the last weeks once a member is out', () => {
    expect(stillInIt(rows, { maxPoints: 11, rounds: 5, marginGameLeft: true }).show).toBe(true)
  })

  it('says what each chip means in words', () => {
    render(
      <>
        <StillInItChip inIt />
        <StillInItChip inIt={false} />
        <WinsChip count={2} />
        <WinsChip count={0} />
      </>,
    )
    expect(screen.getByText('In it')).toBeTruthy()
    expect(screen.getByText('Out')).toBeTruthy()
    expect(screen.getByText('won 2 weeks')).toBeTruthy()
    expect(screen.queryByText(/won 0/)).toBeNull()
  })

  it('explains what is left, marked or not', () => {
    const { rerender } = render(
      <StillToPlayFor remaining={{ maxPoints: 12, rounds: 2, marginGameLeft: true }} marked />,
    )
    expect(screen.getByTestId('still-to-play-for').textContent).toContain(
      '12 points are still to play for over 2 weeks',
    )
    expect(screen.getByTestId('still-to-play-for').textContent).toContain('Out: cannot')
    rerender(
      <StillToPlayFor
        remaining={{ maxPoints: 40, rounds: 6, marginGameLeft: true }}
        marked={false}
      />,
    )
    expect(screen.getByTestId('still-to-play-for').textContent).toContain(
      'Everyone here can still finish first',
    )
  })
})

describe('round honours', () => {
  const honours = {
    data: {
      rounds: [
        {
          round: asRoundNumber(2),
          points: 7,
          margin: 1,
          winnerCount: 23,
          winners: [
            { userId: 1, teamName: 'Sixes Club', firstName: 'Sam', lastNameInitial: 'Q' },
            { userId: 4, teamName: null, firstName: 'Ann', lastNameInitial: 'B' },
          ],
        },
      ],
      remaining: { maxPoints: 0, rounds: 0, marginGameLeft: false },
    },
    weeksWon: new Map([[1, [2]]]),
  }

  it("names a week's shared winners and how many others share it", () => {
    render(<WeekWinners honours={honours} round={2} />)
    const text = screen.getByTestId('week-winners').textContent
    expect(text).toContain('Week 2 winners (shared first):')
    expect(text).toContain('Sixes Club, Ann B. and 21 others')
    expect(text).toContain('7 pts, margin 1')
  })

  it('says a week not yet complete has no winner yet', () => {
    render(<WeekWinners honours={honours} round={3} />)
    expect(screen.getByTestId('week-winners').textContent).toContain('once all its matches')
  })

  it("lists a member's weeks won", () => {
    render(<WeeksWon rounds={[1, 4]} />)
    expect(screen.getByText(/Won weeks 1, 4/)).toBeTruthy()
  })
})

describe('week winners past the names cap (issue 31)', () => {
  const tipper = (userId: number) => ({
    userId,
    teamName: null,
    firstName: `T${userId}`,
    lastNameInitial: 'X',
  })
  const listed = Array.from({ length: 20 }, (_, i) => tipper(i + 1))

  it('names the listed winners and counts the others who tied', () => {
    expect(winnersList({ winners: listed, winnerCount: 332 })).toMatch(
      /^T1 X\., T2 X\., .*T20 X\. and 312 others$/,
    )
    expect(winnersList({ winners: listed, winnerCount: 21 })).toMatch(/T20 X\. and 1 other$/)
    expect(winnersList({ winners: listed.slice(0, 2), winnerCount: 2 })).toBe('T1 X., T2 X.')
  })

  it('says it above the week’s ladder', () => {
    render(
      <WeekWinners
        round={4}
        honours={{
          data: {
            rounds: [
              { round: asRoundNumber(4), points: 0, margin: 7, winnerCount: 332, winners: listed },
            ],
            remaining: { maxPoints: 0, rounds: 0, marginGameLeft: false },
          },
          weeksWon: new Map(),
        }}
      />,
    )
    const text = screen.getByTestId('week-winners').textContent
    expect(text).toContain('Week 4 winners (shared first):')
    expect(text).toContain('T20 X. and 312 others · 0 pts, margin 7')
  })
})
