import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CountdownCard, formatCountdown } from './countdown-card.tsx'

describe('CountdownCard', () => {
  it('formats days, hours, minutes and seconds, never below zero', () => {
    expect(formatCountdown(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toBe('2d 3h 4m 5s')
    expect(formatCountdown(61_000)).toBe('0h 1m 1s')
    expect(formatCountdown(-5)).toBe('0h 0m 0s')
  })
  it('says the season starts for round 1, the week otherwise', () => {
    const now = new Date('2026-01-01T00:00:00Z')
    const { rerender } = render(
      <CountdownCard
        roundNumber={1}
        startsAt="2026-01-01T01:00:00Z"
        isFirstRound
        now={now}
        onEnter={() => {}}
      />,
    )
    expect(screen.getByRole('timer').textContent).toBe('The season starts in 1h 0m 0s')
    rerender(
      <CountdownCard
        roundNumber={4}
        startsAt="2026-01-01T00:00:30Z"
        isFirstRound={false}
        now={now}
        onEnter={() => {}}
      />,
    )
    expect(screen.getByRole('timer').textContent).toBe('Week 4 starts in 0h 0m 30s')
  })
})
