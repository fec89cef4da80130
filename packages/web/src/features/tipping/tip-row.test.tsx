import { fireEvent, render, screen } from '@testing-library/react'
import { asSquadId } from '@tipping/contract/ids'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MateTip } from '@tipping/contract/scores'
import type { Squad } from '@tipping/contract/static-files'
import { TipRow } from './tip-row.tsx'

const squads = new Map<number, Squad>([
  [1, { id: 1, name: 'Home Heat', shortName: 'HOM' } as Squad],
  [2, { id: 2, name: 'Away Stars', shortName: 'AWY' } as Squad],
])
const tip = (userId: number, squad: number, extra: Partial<MateTip> = {}): MateTip => ({
  userId,
  teamName: null,
  firstName: `Mate${userId}`,
  lastNameInitial: 'Q',
  squad: asSquadId(squad),
  margin: null,
  isAutoTip: false,
  ...extra,
})

/** A window as wide as a phone (spec: up to 639 px) or a desktop, for useMediaQuery. */
const viewport = (phone: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone && query.includes('max-width: 639px'),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }))
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('TipRow (spec 2 "Tip row")', () => {
  it('names each mate with their pick and marks it right or wrong', () => {
    render(
      <TipRow
        tips={[tip(1, 1, { teamName: 'Sixes Club', margin: 14 }), tip(2, 2, { isAutoTip: true })]}
        squads={squads}
        winnerSquadId={1}
        isMarginGame
      />,
    )
    const items = screen.getAllByRole('listitem')
    expect(items[0]!.textContent).toContain('Sixes Club')
    expect(items[0]!.textContent).toContain('HOM · 14 sixes')
    expect(items[0]!.className).toMatch(/right/)
    expect(items[1]!.textContent).toContain('Mate2 Q.')
    expect(items[1]!.textContent).toContain('AWY · auto')
    expect(items[1]!.className).toMatch(/wrong/)
  })

  it('shows no arrows for three tips, and on a desktop arrows scrolling 1000 px for more', () => {
    viewport(false)
    const { rerender } = render(
      <TipRow
        tips={[1, 2, 3].map((n) => tip(n, 1))}
        squads={squads}
        winnerSquadId={1}
        isMarginGame={false}
      />,
    )
    expect(screen.queryByLabelText('Later tips')).toBeNull()
    // jsdom has no layout: give the strip a width to scroll through.
    const scrollBy = vi.fn()
    HTMLElement.prototype.scrollBy = scrollBy
    Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, value: 3000 })
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 500 })
    rerender(
      <TipRow
        tips={[1, 2, 3, 4].map((n) => tip(n, 1))}
        squads={squads}
        winnerSquadId={1}
        isMarginGame={false}
      />,
    )
    expect(screen.getByLabelText<HTMLButtonElement>('Earlier tips').disabled).toBe(true)
    fireEvent.click(screen.getByLabelText('Later tips'))
    expect(scrollBy).toHaveBeenLastCalledWith({ left: 1000, behavior: 'smooth' })
  })

  it('on a phone, moves by the tips in view rather than 1000 px (issue 27)', () => {
    viewport(true)
    const scrollBy = vi.fn()
    HTMLElement.prototype.scrollBy = scrollBy
    Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, value: 1200 })
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 342 })
    render(
      <TipRow
        tips={[1, 2, 3, 4, 5].map((n) => tip(n, 1))}
        squads={squads}
        winnerSquadId={1}
        isMarginGame={false}
      />,
    )
    fireEvent.click(screen.getByLabelText('Later tips'))
    expect(scrollBy).toHaveBeenLastCalledWith({ left: 342, behavior: 'smooth' })
  })

  it('explains an empty row', () => {
    render(<TipRow tips={[]} squads={squads} winnerSquadId={null} isMarginGame={false} />)
    expect(screen.getByText(/Join or create a league/)).toBeTruthy()
  })
})
