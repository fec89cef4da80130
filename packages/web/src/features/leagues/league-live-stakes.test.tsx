import { act, render, screen, waitFor, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { League } from '@tipping/contract/leagues'
import type { LiveMatch } from '@tipping/contract/live'
import type { PredictionsResponse } from '@tipping/contract/predictions'
import type { LiveStandingResponse } from '@tipping/contract/projections'
import { handleLiveEvent } from '../../lib/live-channel.ts'
import { createTestStore } from '../../lib/test-store.ts'
import { LeagueLiveStakes } from './league-live-stakes.tsx'

// A league ladder's live projection through the real store, with only the network stubbed: the
// member's place in this league and points for each side, from the shared reads (the round, the
// stored numbers, one league rank lookup per side), gone when the result event lands.

const round = asRoundNumber(1)
const roundInfo = {
  id: asRoundId(1),
  number: round,
  label: 'Week 1',
  status: 'active' as const,
  startDate: '2026-12-01T08:00:00Z',
  endDate: '2026-12-08T08:00:00Z',
  isGoldenWeek: false,
}
const match = (id: number, over: Partial<PredictionsResponse['matches'][number]>) => ({
  id: asMatchId(id),
  number: id,
  status: 'scheduled' as const,
  date: '2026-12-01T08:00:00Z',
  homeSquadId: asSquadId(1),
  awaySquadId: asSquadId(2),
  homeRuns: null,
  awayRuns: null,
  homeWicketsFallen: null,
  awayWicketsFallen: null,
  homeOvers: null,
  awayOvers: null,
  venueId: 1,
  class: 'match',
  isMarginGame: false,
  winnerSquadId: null,
  outcome: null,
  sixes: null,
  home_percent: 0,
  away_percent: 0,
  ...over,
})
const pick = (id: number, squad: number) => ({
  match: asMatchId(id),
  squad: asSquadId(squad),
  margin: null,
  isMarginGame: false,
  isAutoTip: false,
  isCorrect: null,
  counted: null,
  marginResult: null,
  status: 'active' as const,
})
// Match 1 won as tipped; match 2 live (the Sixers, 3, tipped); 3 to come.
const matches = [
  match(1, { status: 'complete', winnerSquadId: asSquadId(1), outcome: 'win' }),
  match(2, { status: 'active', homeSquadId: asSquadId(3), awaySquadId: asSquadId(4) }),
  match(3, {}),
]
const roundAnswer: PredictionsResponse = {
  round: roundInfo,
  matches,
  predictions: [pick(1, 1), pick(2, 3), pick(3, 1)],
}
const fixture = {
  competition: {
    identifier: 'x',
    name: 'BBL',
    season: 2026,
    year: '2026-27',
    goldenWeekRound: null,
  },
  rounds: [
    {
      ...roundInfo,
      matches: matches.map((m) => ({
        id: m.id,
        number: m.number,
        status: m.status,
        date: m.date,
        homeSquadId: m.homeSquadId,
        awaySquadId: m.awaySquadId,
        venueId: m.venueId,
        isMarginGame: m.isMarginGame,
        class: m.class,
        winnerSquadId: m.winnerSquadId,
        outcome: m.outcome,
      })),
    },
  ],
}
const standing: LiveStandingResponse = {
  scoresVersion: 7,
  round: { points: 1, margin: 0 },
  total: { points: 5, margin: 3 },
  leagues: [{ id: 9, name: 'Office mates', startRound: round, points: 3, margin: 0 }],
}
const squads = {
  squads: [1, 2, 3, 4].map((id) => ({
    id,
    code: `S${id}`,
    name: ['Strikers', 'Heat', 'Sydney Sixers', 'Hobart Hurricanes'][id - 1],
    nickname: ['Strikers', 'Heat', 'Sixers', 'Hurricanes'][id - 1],
    shortName: `S${id}`,
    colour: '#000000',
    secondColour: '#ffffff',
    logo: '',
  })),
}
const live: LiveMatch = {
  matchId: asMatchId(2),
  roundNumber: round,
  status: 'active',
  version: 1,
  updatedAt: '2026-12-01T09:00:00Z',
  innings: [],
  sixes: 4,
  figures: { runRates: [], target: null, runsNeeded: null, ballsLeft: null, requiredRate: null },
}
const league = (over: Partial<League> = {}): League => ({
  id: 9,
  userId: 1,
  name: 'Office mates',
  description: '',
  status: 'active',
  class: 'league',
  startRound: round,
  privacy: 'private',
  code: 'ABCDEFGH',
  numUser: 4,
  isMember: true,
  isCommissioner: false,
  ...over,
})

const json = (body: unknown) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })

/** The API as the stub answers it: a league rank is the projected points' distance from 6. */
function stubApi() {
  const asked: string[] = []
  vi.stubGlobal('fetch', async (url: string) => {
    const [path, query] = url.split('?') as [string, string | undefined]
    asked.push(path)
    if (path === '/api/bbl/predictions/1') return json({ success: roundAnswer })
    if (path === '/api/bbl/live/1') return json({ success: { round, matches: [live] } })
    if (path === '/api/bbl/live/1/standing') return json({ success: standing })
    if (path === '/static/checksums.json') return json({ files: {} })
    if (path === '/static/bbl/squads.json') return json(squads)
    if (path === '/static/bbl/rounds.json') return json(fixture)
    const params = new URLSearchParams(query)
    if (path === '/api/bbl/league/9/live-rank')
      return json({ success: { rank: 6 - Number(params.get('totalPoints')), totalUsers: 4 } })
    return new Response('{"errors":[{"code":"NOT_FOUND","message":"no","param":null}]}', {
      status: 404,
    })
  })
  return asked
}

afterEach(() => vi.unstubAllGlobals())

describe('LeagueLiveStakes', () => {
  it("shows the member's place in this league and points for each side, until the result lands", async () => {
    const asked = stubApi()
    const store = createTestStore()
    render(
      <Provider store={store}>
        <LeagueLiveStakes sport="bbl" league={league()} spreadMs={0} />
      </Provider>,
    )
    const section = await screen.findByRole('region', { name: /your place here/i })
    const [sixers, hurricanes] = within(section).getAllByRole('listitem')
    // Sixers win: the week 1 + 1 = 2 (+1), the league 3 - 1 + 2 = 4 points: 6 - 4 = 2nd.
    await waitFor(() => expect(sixers!.textContent).toBe('Sixers win: 2nd of 4, +1 (4 pts)'))
    // Hurricanes win: the week stays at 1 (±0), the league at 3 points: 3rd.
    await waitFor(() =>
      expect(hurricanes!.textContent).toBe('Hurricanes win: 3rd of 4, ±0 (3 pts)'),
    )
    // One league lookup per side, nothing overall, no per-member reads.
    expect(asked.filter((p) => p.includes('live-rank'))).toHaveLength(2)
    expect(asked).not.toContain('/api/bbl/live/1/rank')

    // The result event: the match is no longer live, so the projection goes (the ladder's
    // spread refetch brings the real numbers).
    act(() =>
      handleLiveEvent(
        store.dispatch,
        () => store.getState(),
        'bbl',
        'result',
        {
          matchId: 2,
          roundNumber: 1,
          roundStatus: 'active',
          change: 'set',
          outcome: 'win',
          winnerSquadId: 3,
          sixes: null,
          scoresVersion: 8,
        },
        () => undefined,
      ),
    )
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: /your place here/i })).toBeNull(),
    )
  })

  it('shows nothing to a visitor who is not a member, or before the league starts', async () => {
    const asked = stubApi()
    const store = createTestStore()
    const { container, rerender } = render(
      <Provider store={store}>
        <LeagueLiveStakes sport="bbl" league={league({ isMember: false })} spreadMs={0} />
      </Provider>,
    )
    await new Promise((r) => setTimeout(r, 50))
    rerender(
      <Provider store={store}>
        <LeagueLiveStakes
          sport="bbl"
          league={league({ startRound: asRoundNumber(2) })}
          spreadMs={0}
        />
      </Provider>,
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(container.textContent).toBe('')
    expect(asked.filter((p) => p.startsWith('/api/'))).toEqual([])
  })
})
