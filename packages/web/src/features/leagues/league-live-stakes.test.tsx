import { act, render, screen, waitFor, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { asRoundNumber } from '@tipping/contract/ids'
import type { League } from '@tipping/contract/leagues'
import { handleLiveEvent } from '../../lib/live-channel.ts'
import { liveRound, liveRoundAnswer, liveScore, stubLiveApi } from '../../lib/live-test-fixtures.ts'
import { createTestStore } from '../../lib/test-store.ts'
import { LeagueLiveStakes } from './league-live-stakes.tsx'

// A league ladder's live projection through the real store, with only the network stubbed: the
// member's place in this league and points for each side, from the shared reads (the round, the
// stored numbers, one league rank lookup per side), gone when the result event lands.

const round = liveRound
const live = liveScore(4, { version: 1 })
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

/** The API as the stub answers it: a league rank is the projected points' distance from 6. */
const stubApi = () => stubLiveApi(liveRoundAnswer({ marginGame: false }), live)

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
    await waitFor(() => expect(sixers!.textContent).toBe('Sixers win: 2nd of 4, +1 pt (4 pts)'))
    // Hurricanes win: the week stays at 1 (no points), the league at 3 points: 3rd.
    await waitFor(() =>
      expect(hurricanes!.textContent).toBe('Hurricanes win: 3rd of 4, no points (3 pts)'),
    )
    // One league lookup per side, nothing overall, no per-member reads.
    const paths = asked.map((a) => a.path)
    expect(paths.filter((p) => p.includes('live-rank'))).toHaveLength(2)
    expect(paths).not.toContain('/api/bbl/live/1/rank')

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
    expect(asked.map((a) => a.path).filter((p) => p.startsWith('/api/'))).toEqual([])
  })
})
