import { fireEvent, render, screen } from '@testing-library/react'
import { asRoundId, asRoundNumber } from '@tipping/contract/ids'
import { describe, expect, it, vi } from 'vitest'
import type { FixtureRound } from '@tipping/contract/static-files'
import { RoundSelector } from './round-selector.tsx'

const round = (number: number, isGoldenWeek = false): FixtureRound => ({
  id: asRoundId(number * 10),
  number: asRoundNumber(number),
  label: `Week ${number}`,
  status: 'scheduled',
  startDate: '2025-12-31T08:15:00Z',
  endDate: '2026-01-05T08:15:00Z',
  isGoldenWeek,
  matches: [],
})
const rounds = [round(1), round(2, true), round(3)]

describe('RoundSelector (spec 2)', () => {
  it('disables previous at the first round and next at the last', () => {
    const { rerender } = render(
      <RoundSelector rounds={rounds} current={asRoundNumber(1)} onChange={() => {}} />,
    )
    expect(screen.getByTestId<HTMLButtonElement>('round-prev').disabled).toBe(true)
    expect(screen.getByTestId<HTMLButtonElement>('round-next').disabled).toBe(false)
    rerender(<RoundSelector rounds={rounds} current={asRoundNumber(3)} onChange={() => {}} />)
    expect(screen.getByTestId<HTMLButtonElement>('round-next').disabled).toBe(true)
    expect(screen.getByTestId<HTMLButtonElement>('round-prev').disabled).toBe(false)
  })

  it('moves one round at a time and labels the Golden Week with UTC dates', () => {
    const onChange = vi.fn()
    render(<RoundSelector rounds={rounds} current={asRoundNumber(2)} onChange={onChange} />)
    expect(screen.getByText(/BKT GOLDEN WEEK/)).toBeTruthy()
    expect(screen.getByText('Wed 31 Dec – Mon 5 Jan')).toBeTruthy()
    fireEvent.click(screen.getByTestId('round-next'))
    expect(onChange).toHaveBeenCalledWith(3)
    fireEvent.click(screen.getByTestId('round-prev'))
    expect(onChange).toHaveBeenCalledWith(1)
  })

  it('opens a grid of week numbers, the Golden Week marked, and jumps to the chosen week', () => {
    const onChange = vi.fn()
    render(<RoundSelector rounds={rounds} current={asRoundNumber(1)} onChange={onChange} />)
    fireEvent.click(screen.getByTestId('round-label'))
    expect(screen.getByTestId('round-option-2').getAttribute('aria-label')).toBe(
      'Week 2, BKT Golden Week',
    )
    fireEvent.click(screen.getByTestId('round-option-3'))
    expect(onChange).toHaveBeenCalledWith(3)
    expect(screen.queryByTestId('round-option-3')).toBeNull()
  })
})
