import { fireEvent, render, screen } from '@testing-library/react'
import { asSquadId } from '@tipping/contract/ids'
import { describe, expect, it } from 'vitest'
import type { Match } from '@tipping/contract/predictions'
import type { Squad } from '@tipping/contract/static-files'
import { scheduledMatch } from '../../lib/live-test-fixtures.ts'
import { MatchCard } from './match-card.tsx'

const match: Match = scheduledMatch(9, {
  number: 21,
  date: '2099-12-04T08:15:00Z',
  class: 'regular',
  home_percent: 60,
  away_percent: 40,
})
const squads = new Map<number, Squad>([
  [1, { id: 1, name: 'Home Heat', shortName: 'HOM', nickname: 'Heat' } as Squad],
  [2, { id: 2, name: 'Away Stars', shortName: 'AWY', nickname: 'Stars' } as Squad],
])

const card = () =>
  render(
    <MatchCard
      match={match}
      pick={undefined}
      squads={squads}
      venue={undefined}
      now={new Date('2099-12-01T00:00:00Z')}
      disabled={false}
      form={{ '1': [{ match: 3, opponent: 2, result: 'win' }] } as never}
      matchCentreUrl="https://matchcentre.example/bbl/{match}"
      mateTips={undefined}
      tipsOpen={false}
      onToggleTips={() => undefined}
      onPick={() => undefined}
      onMargin={() => undefined}
    />,
  )

describe('MatchCard (spec 2 "Match cards")', () => {
  it('has a FORM GUIDE disclosure that says whether it is open', () => {
    card()
    const toggle = screen.getByRole('button', { name: 'Form guide' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(toggle.querySelector('svg')).not.toBeNull()
    expect(screen.queryByRole('region', { name: 'Form guide' })).toBeNull()
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const panel = screen.getByRole('region', { name: 'Form guide' })
    expect(toggle.getAttribute('aria-controls')).toBe(panel.id)
    expect(panel.textContent).toContain('Win')
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })

  it("prints each team's share of the tips in its button, and links the Match Centre", () => {
    card()
    expect(screen.getByTestId('pick-9-1').textContent).toContain('60%')
    expect(screen.getByTestId('pick-9-2').textContent).toContain('40%')
    const link = screen.getByRole('link', { name: /Match Centre/ })
    expect(link.getAttribute('href')).toBe('https://matchcentre.example/bbl/21')
  })
  it('marks a tip autopilot placed, and only that one', () => {
    const props = (isAutopilot: boolean) => ({
      match,
      pick: {
        match: match.id,
        squad: asSquadId(1),
        margin: null,
        isMarginGame: false,
        isAutoTip: false,
        ...(isAutopilot ? { isAutopilot: true as const } : {}),
        isCorrect: null,
        counted: null,
        marginResult: null,
        status: 'scheduled' as const,
      },
      squads,
      venue: undefined,
      now: new Date('2099-12-01T00:00:00Z'),
      disabled: false,
      form: {},
      matchCentreUrl: null,
      mateTips: undefined,
      tipsOpen: false,
      onToggleTips: () => undefined,
      onPick: () => undefined,
      onMargin: () => undefined,
    })
    const { rerender } = render(<MatchCard {...(props(true) as Parameters<typeof MatchCard>[0])} />)
    expect(screen.getByTestId('autopilot-badge').textContent).toBe('PLACED BY AUTOPILOT')
    rerender(<MatchCard {...props(false)} />)
    expect(screen.queryByTestId('autopilot-badge')).toBeNull()
  })
})

describe('MatchCard memoised (decision 035)', () => {
  /** Squads that count the card's renders: a render reads each side's squad. */
  class CountingSquads extends Map<number, Squad> {
    reads = 0
    override get(id: number) {
      this.reads++
      return super.get(id)
    }
  }

  it('is redrawn by the clock only when the match closes, and tells its handlers the match', () => {
    const counted = new CountingSquads(squads)
    const picks: [number, number][] = []
    const onPick = (m: number, s: number) => void picks.push([m, s])
    // The page hands every card the same functions and files from one render to the next.
    const none = () => undefined
    const form = {}
    const at = (now: string) => (
      <MatchCard
        match={match}
        pick={undefined}
        squads={counted}
        venue={undefined}
        now={new Date(now)}
        disabled={false}
        form={form}
        matchCentreUrl={null}
        mateTips={undefined}
        tipsOpen={false}
        onToggleTips={none}
        onPick={onPick}
        onMargin={none}
      />
    )
    const { rerender } = render(at('2099-12-04T08:14:58Z'))
    const first = counted.reads
    expect(first).toBeGreaterThan(0)
    // A tick of the clock with the match still open: nothing on the card changes.
    rerender(at('2099-12-04T08:14:59Z'))
    expect(counted.reads).toBe(first)
    fireEvent.click(screen.getByTestId('pick-9-2'))
    expect(picks).toEqual([[9, 2]])
    // The tick that locks the match redraws it: its buttons close.
    rerender(at('2099-12-04T08:15:00Z'))
    expect(counted.reads).toBeGreaterThan(first)
    expect(screen.getByTestId<HTMLButtonElement>('pick-9-2').disabled).toBe(true)
  })
})
