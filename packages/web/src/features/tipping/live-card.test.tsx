import { render, screen } from '@testing-library/react'
import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { LiveMatch } from '@tipping/contract/live'
import type { Prediction } from '@tipping/contract/predictions'
import { ballsFromOvers } from '@tipping/contract/rules/cricket'
import { liveFigures } from '@tipping/contract/rules/live'
import type { Squad } from '@tipping/contract/static-files'
import { describe, expect, it } from 'vitest'
import { LiveCard } from './live-card.tsx'

const squads = new Map<number, Squad>([
  [1, { id: 1, name: 'Home Heat', shortName: 'HOM' } as Squad],
  [2, { id: 2, name: 'Away Stars', shortName: 'AWY' } as Squad],
])
const inn = (battingSquadId: number, runs: number, wickets: number, overs: string, sixes = 0) => ({
  battingSquadId: asSquadId(battingSquadId),
  runs,
  wickets,
  overs,
  oversAllotted: null,
  sixes,
})
const liveOf = (innings: ReturnType<typeof inn>[]): LiveMatch => ({
  matchId: asMatchId(7),
  roundNumber: asRoundNumber(3),
  status: 'active',
  version: 1,
  updatedAt: '2026-12-01T08:30:00Z',
  innings,
  sixes: innings.reduce((n, i) => n + i.sixes, 0),
  figures: liveFigures(
    innings.map((i) => ({ ...i, balls: ballsFromOvers(i.overs), ballsAllotted: null })),
  ),
})
const tip = (squad: number, margin: number | null = null) =>
  ({ match: asMatchId(7), squad: asSquadId(squad), margin }) as Prediction

const show = (live: LiveMatch, pick?: Prediction, isMarginGame = false) =>
  render(
    <LiveCard
      live={live}
      homeSquadId={1}
      awaySquadId={2}
      squads={squads}
      pick={pick}
      isMarginGame={isMarginGame}
    />,
  )

describe('the live card', () => {
  it('shows the first innings with its run rate and calls nobody ahead yet', () => {
    show(liveOf([inn(1, 87, 3, '10.2', 4)]), tip(1))
    const card = screen.getByRole('region', { name: 'Live score, HOM v AWY' })
    expect(card.textContent).toContain('HOM87/3(10.2 ov)')
    expect(card.textContent).toContain('RR 8.42')
    expect(card.textContent).not.toContain('Target')
    expect(card.textContent).not.toContain('right now')
  })

  it('gives the chase and says whether the pick is ahead right now', () => {
    // 181 to win; 100 from 60 balls (10 an over) against 81 needed from 60 (8.1).
    const live = liveOf([inn(1, 180, 6, '20'), inn(2, 100, 2, '10')])
    const { unmount } = show(live, tip(2))
    const text = screen.getByRole('region').textContent
    expect(text).toContain('Target 181 · needs 81 from 60 balls · required 8.10')
    expect(text).toContain('Your pick, AWY, is ahead right now')
    unmount()
    show(live, tip(1))
    expect(screen.getByRole('region').textContent).toContain('Your pick, HOM, is behind right now')
  })

  it("counts the sixes against the tipper's Super Sixes guess on the margin game", () => {
    show(liveOf([inn(1, 150, 5, '18', 9), inn(2, 20, 0, '2', 5)]), tip(1, 15), true)
    expect(screen.getByRole('region').textContent).toContain('14 sixes so far - you said 15')
  })
})
