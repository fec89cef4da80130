import { fireEvent, render, screen, within } from '@testing-library/react'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import { Provider } from 'react-redux'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RankingRow } from '@tipping/contract/scores'
import type { FixtureRound, Squad } from '@tipping/contract/static-files'
import { createTestStore } from '../../lib/test-store.ts'
import { LadderTable } from './ladder-table.tsx'
import type { LadderState } from './use-ladder.ts'

const tips = {
  user: { userId: 5, teamName: 'Sixes Club', firstName: 'Sam', lastNameInitial: 'Q' },
  predictions: [
    {
      match: 7,
      squad: 1,
      margin: null,
      isMarginGame: false,
      isAutoTip: false,
      isCorrect: true,
      counted: true,
      marginResult: null,
      status: 'complete',
    },
  ],
}

// The API answers from a stubbed fetch: an opened row reads that tipper's tips of the week.
beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string) =>
    url === '/api/bbl/predictions/3/user/5'
      ? new Response(JSON.stringify({ success: tips }), { status: 200 })
      : new Response(JSON.stringify({ errors: [{ code: 'x', message: 'No', param: null }] }), {
          status: 404,
        }),
  )
})
afterEach(() => vi.unstubAllGlobals())

const row: RankingRow = {
  userId: 5,
  teamName: 'Sixes Club',
  firstName: 'Sam',
  lastNameInitial: 'Q',
  rank: 1,
  points: 4,
  totalPoints: 12,
  margin: 3,
  totalMargin: 9,
}
const ladder: LadderState = {
  rows: [row],
  pinned: null,
  nextPage: null,
  loading: false,
  error: null,
  loadMore: () => undefined,
}
const round: FixtureRound = {
  id: asRoundId(30),
  number: asRoundNumber(3),
  label: 'Week 3',
  status: 'active',
  startDate: '2025-12-01T00:00:00Z',
  endDate: '2025-12-07T00:00:00Z',
  isGoldenWeek: false,
  matches: [
    {
      id: asMatchId(7),
      number: 12,
      status: 'complete',
      date: '2025-12-04T08:15:00Z',
      homeSquadId: asSquadId(1),
      awaySquadId: asSquadId(2),
      venueId: 1,
      isMarginGame: false,
      class: 'regular',
      winnerSquadId: asSquadId(1),
      outcome: 'win',
    },
  ],
}
const squads = new Map<number, Squad>([
  [1, { id: 1, name: 'Home Heat', shortName: 'HOM' } as Squad],
  [2, { id: 2, name: 'Away Stars', shortName: 'AWY' } as Squad],
])

const renderTable = () =>
  render(
    <Provider store={createTestStore()}>
      <LadderTable
        sport="bbl"
        ladder={ladder}
        userId={99}
        topHighlight={3}
        showWeek
        tipsRound={round}
        squads={squads}
        caption="Test ladder"
        expectedRows={1}
      />
    </Provider>,
  )

describe('LadderTable (spec 2 "Ladders and rankings")', () => {
  it('names its first column Position for screen readers and wide screens', () => {
    renderTable()
    expect(screen.getByRole('columnheader', { name: 'Position' })).toBeTruthy()
  })

  it('dates each tip of an opened tipper as ccc dd-MM-yyyy', async () => {
    renderTable()
    fireEvent.click(screen.getByRole('button', { name: /Sixes Club/ }))
    const tips = await screen.findByRole('list', { name: 'Tips for Week 3' })
    const tip = within(tips).getByRole('listitem')
    expect(tip.textContent).toContain('HOM v AWY')
    expect(tip.querySelector('time')?.textContent).toBe('Thu 04-12-2025')
    expect(tip.querySelector('time')?.getAttribute('datetime')).toBe('2025-12-04T08:15:00Z')
  })
})
