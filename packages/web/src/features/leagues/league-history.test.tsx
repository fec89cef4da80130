import { render, screen, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestStore } from '../../lib/test-store.ts'
import { LeagueHistory } from './league-history.tsx'

// A league's past seasons through the real store and data layer: only fetch is replaced,
// answering as GET /api/{sport}/league/{id}/history does.

const tipper = (userId: number, firstName: string) => ({
  userId,
  teamName: null,
  firstName,
  lastNameInitial: 'B',
})
const row = (userId: number, firstName: string, rank: number) => ({
  ...tipper(userId, firstName),
  rank,
  points: 0,
  margin: 0,
  totalPoints: 40,
  totalMargin: 12,
})

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url === '/api/bbl/league/7/history')
      return new Response(
        JSON.stringify({
          success: {
            seasons: [
              {
                leagueId: 3,
                year: '2024-25',
                name: 'The Desk',
                numUser: 3,
                champions: [row(1, 'Ava', 1)],
                user: row(2, 'Ben', 2),
                rounds: [
                  { round: 1, points: 4, margin: 3, winnerCount: 1, winners: [tipper(1, 'Ava')] },
                  {
                    round: 2,
                    points: 3,
                    margin: 9,
                    winnerCount: 2,
                    winners: [tipper(1, 'Ava'), tipper(2, 'Ben')],
                  },
                ],
              },
            ],
          },
        }),
        { status: 200 },
      )
    return new Response(JSON.stringify({ errors: [{ code: 'x', message: 'No', param: null }] }), {
      status: 404,
    })
  })
})
afterEach(() => vi.unstubAllGlobals())

describe('league history', () => {
  it("shows each past season's champions and its week winners", async () => {
    render(
      <Provider store={createTestStore()}>
        <MemoryRouter>
          <LeagueHistory sport="bbl" leagueId={7} />
        </MemoryRouter>
      </Provider>,
    )
    const region = await screen.findByRole('region', { name: 'Past seasons' })
    expect(within(region).getByRole('link', { name: '2024-25: The Desk' })).toBeTruthy()
    expect(region.textContent).toContain('champion: Ava B.')
    const weeks = within(region).getByTestId('past-week-winners')
    expect(weeks.querySelector('summary')?.textContent).toContain('2024-25 week winners (2 weeks)')
    const items = [...weeks.querySelectorAll('li')].map((li) => li.textContent)
    expect(items).toEqual([
      'Week 1: Ava B. · 4 pts, margin 3',
      'Week 2: Ava B., Ben B. · 3 pts, margin 9',
    ])
  })
})
