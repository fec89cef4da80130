import { render, screen, waitFor, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestStore } from '../../lib/test-store.ts'
import { ordinal } from '../../lib/live-projection.ts'
import {
  liveRound,
  liveRoundAnswer,
  liveScore,
  liveSquads,
  liveStanding,
  okJson,
  stubLiveApi,
} from '../../lib/live-test-fixtures.ts'
import { LiveStakes } from './live-stakes.tsx'

// The live stakes through the real store, with only the network stubbed: the tipper's projection
// worked out from the cached round and stored numbers, the ranks looked up for it, and a change of
// the margin game's sixes asking again with the new figures.

const round = liveRound
const live = (sixes: number) => liveScore(sixes)
// Match 2 is the margin game, the Sixers tipped by 10 sixes.
const roundAnswer = liveRoundAnswer({ marginGame: true })

/** The API as the stub answers it; reads the overall rank lookups' queries asked so far. */
function stubApi() {
  const asked = stubLiveApi(roundAnswer, live(6))
  return () => asked.filter((a) => a.path === '/api/bbl/live/1/rank').map((a) => a.params)
}

afterEach(() => vi.unstubAllGlobals())

describe('LiveStakes', () => {
  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 1002].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '1,002nd',
    ])
  })

  it("lists each side's projected rank, week gain, totals and league places, and follows the sixes", async () => {
    const ranks = stubApi()
    const store = createTestStore()
    const { rerender } = render(
      <Provider store={store}>
        <LiveStakes sport="bbl" round={round} live={live(6)} spreadMs={3000} />
      </Provider>,
    )
    const section = await screen.findByRole('region', { name: /if it ends this way \(6 sixes\)/i })
    // Sixers win: week 1 + 1 = 2 (+1 on the stored 1), total 5 - 1 + 2 = 6, margin 3 + |10 - 6| = 7.
    const [sixers, hurricanes] = within(section)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement?.parentElement === section)
    await waitFor(() => expect(sixers!.textContent).toContain('Sixers win: 4th of 1,234, +1 pt'))
    expect(sixers!.textContent).toContain('Week 2 pts, total 6 pts, margin 7')
    // In the league: 3 - 1 + 2 = 4 points: 6 - 4 = 2nd.
    await waitFor(() =>
      expect(within(sixers!).getByRole('list').textContent).toBe('Office mates: 2nd of 4'),
    )
    // Hurricanes win: the week stays at 1 (no points), total 5, margin 3 + 4 = 7.
    await waitFor(() =>
      expect(hurricanes!.textContent).toContain('Hurricanes win: 5th of 1,234, no points'),
    )
    expect(ranks().map((p) => p.toString())).toContain(
      'match=2&side=3&totalPoints=6&totalMargin=7&v=7&sixes=6',
    )
    // The first lookups go at once, and never without the margin game's sixes.
    expect(ranks().every((p) => p.get('sixes') === '6')).toBe(true)
    // Two more sixes: asked again with them within the spread, the margin now 3 + |10 - 8| = 5.
    rerender(
      <Provider store={store}>
        <LiveStakes sport="bbl" round={round} live={live(8)} spreadMs={3000} />
      </Provider>,
    )
    await waitFor(
      () =>
        expect(ranks().map((p) => p.toString())).toContain(
          'match=2&side=3&totalPoints=6&totalMargin=5&v=7&sixes=8',
        ),
      { timeout: 4000 },
    )
    expect(await screen.findByRole('region', { name: /\(8 sixes\)/ })).toBeTruthy()
    expect(sixers!.textContent).toContain('margin 5')
  })

  it('reads its stored numbers again when the server has newer scores (409 on v)', async () => {
    let version = 7
    const asked: string[] = []
    vi.stubGlobal('fetch', async (url: string) => {
      const [path, query] = url.split('?') as [string, string | undefined]
      if (path === '/api/bbl/predictions/1') return okJson({ success: roundAnswer })
      if (path === '/api/bbl/live/1/standing')
        return okJson({ success: { ...liveStanding, scoresVersion: version } })
      if (path === '/static/checksums.json') return okJson({ files: {} })
      if (path === '/static/bbl/squads.json') return okJson(liveSquads)
      const v = new URLSearchParams(query).get('v')
      asked.push(`${path} v=${v}`)
      if (v !== '8') {
        // A result landed: the server is at version 8 now.
        version = 8
        return okJson({ errors: [{ code: 'CONFLICT', message: 'newer', param: 'v' }] }, 409)
      }
      return okJson({ success: { rank: 1, totalUsers: 2 } })
    })
    render(
      <Provider store={createTestStore()}>
        <LiveStakes sport="bbl" round={round} live={live(6)} spreadMs={0} />
      </Provider>,
    )
    await waitFor(() =>
      expect(screen.getAllByRole('listitem')[0]!.textContent).toContain('Sixers win: 1st of 2'),
    )
    expect(asked).toContain('/api/bbl/live/1/rank v=7')
    expect(asked).toContain('/api/bbl/live/1/rank v=8')
  })

  it('shows nothing once the match is no longer live', async () => {
    stubApi()
    const { container } = render(
      <Provider store={createTestStore()}>
        <LiveStakes
          sport="bbl"
          round={round}
          live={{ ...live(6), status: 'complete' }}
          spreadMs={0}
        />
      </Provider>,
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(container.textContent).toBe('')
  })
})
