import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RoundExplanation, Season } from '@tipping/contract/season'
import { answer, notFound, renderPageAt } from '../../lib/test-page.tsx'
import SeasonPage from './season-page.tsx'

// The page through the real store and data layer: only fetch is replaced, answering as the
// server would (answers are checked against the contract's schemas in tests).

const season = {
  tips: { judged: 12, correct: 9, percent: 75 },
  teams: [
    { squad: 1, correct: 5, tipped: 5 },
    { squad: 2, correct: 4, tipped: 7 },
  ],
  streaks: { longest: 6, current: 2 },
  cleanSweeps: [2],
  goldenWeek: { round: 3, points: 8 },
  autoTips: { wrong: 1, notCounted: 1 },
  superSixes: { games: 2, averageMiss: 3.5, bestMiss: 1 },
  rounds: [
    { round: 1, isGoldenWeek: false, points: 3, tippers: 1200, average: 2.4, best: 5, rank: 640 },
    { round: 2, isGoldenWeek: false, points: 7, tippers: 1200, average: 3.1, best: 7, rank: 12 },
    { round: 3, isGoldenWeek: true, points: 8, tippers: 1200, average: 4, best: 8, rank: null },
  ],
} as unknown as Season

const explanation = (round: number): RoundExplanation =>
  ({
    round,
    isGoldenWeek: false,
    pointsPerTip: 1,
    tips: [
      {
        match: 11,
        date: '2025-12-14T08:15:00.000Z',
        status: 'complete',
        homeSquadId: 1,
        awaySquadId: 2,
        winnerSquadId: 2,
        squad: 2,
        isAutoTip: true,
        correct: true,
        counted: false,
        verdict: 'auto-not-counted',
        points: 0,
        isMarginGame: true,
        margin: null,
        sixes: 14,
        marginResult: 14,
      },
    ],
    correct: 1,
    counted: 0,
    tipPoints: 0,
    bonus: 0,
    sweep: 'auto-tip',
    points: round === 1 ? 3 : 7,
    margin: 14,
    roundRank: round === 1 ? 40 : 1,
    overallRank: 12,
    overallPoints: 10,
    overallMargin: 20,
    tieBreak: 'Tippers are ordered by points, then by margin.',
  }) as unknown as RoundExplanation

const league = (id: number, name: string) => ({
  id,
  userId: 1,
  name,
  description: '',
  status: 'active',
  class: '',
  startRound: 2,
  privacy: 'private',
  code: 'ABCD1234',
  numUser: 3,
  isMember: true,
  isCommissioner: false,
})

const leagueSeason = (id: number) => ({
  league: { id, name: id === 5 ? 'Office' : 'Family', startRound: 2 },
  rounds: [
    { round: 2, points: 7, tippers: 3, average: 5.3, best: 7, rank: id === 5 ? 1 : 2 },
    { round: 3, points: 8, tippers: 3, average: 6, best: 9, rank: id === 5 ? 2 : 3 },
  ],
})

let calls: string[] = []
beforeEach(() => {
  calls = []
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url)
    if (url === '/api/bbl/season') return answer(season)
    if (url === '/api/bbl/leagues?page=1')
      return answer({ leagues: [league(5, 'Office'), league(9, 'Family')], next: null })
    const inLeague = /^\/api\/bbl\/season\/leagues\/(\d+)$/.exec(url)
    if (inLeague) return answer(leagueSeason(Number(inLeague[1])))
    const round = /^\/api\/bbl\/season\/rounds\/(\d+)$/.exec(url)
    if (round) return answer(explanation(Number(round[1])))
    return notFound()
  })
})
afterEach(() => vi.unstubAllGlobals())

const renderPage = () => renderPageAt('/bbl/season', '/:sport/season', <SeasonPage />)

describe('My season', () => {
  it('shows the numbers, the team record and the chart as a table for screen readers', async () => {
    renderPage()
    const numbers = await screen.findByRole('region', { name: 'My numbers' })
    expect(within(numbers).getByText('9 of 12')).toBeTruthy()
    expect(within(numbers).getByText('75%')).toBeTruthy()
    expect(within(numbers).getByText('1 wrong, 1 right but not counted')).toBeTruthy()
    expect(within(numbers).getByText('average over 2; best 1')).toBeTruthy()
    const teams = screen.getByRole('table', { name: /by the team tipped/ })
    expect(within(teams).getAllByRole('row')).toHaveLength(3)
    const chartTable = screen.getByRole('table', { name: /Points per round/ })
    const week2 = within(chartTable).getByRole('row', { name: /Week 2/ })
    expect(
      within(week2)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['7', '3.1', '7'])
  })

  it('gives the rank after each round in words and as a table, week 3 still being counted', async () => {
    renderPage()
    const rank = await screen.findByRole('region', { name: 'Overall rank after each round' })
    expect(rank.querySelector('[data-rank-now]')!.textContent).toBe(
      'After week 2: 12 of 1,200 (the latest result is being counted)',
    )
    const table = within(rank).getByRole('table', { name: /overall rank after each round/ })
    const cells = (week: number) =>
      within(within(table).getByRole('row', { name: new RegExp(`Week ${week}`) }))
        .getAllByRole('cell')
        .map((c) => c.textContent)
    expect(cells(1)).toEqual(['640', '1,200'])
    expect(cells(3)).toEqual(['not counted yet', '1,200'])
    // The line: one dot per counted round.
    expect(rank.querySelectorAll('svg circle')).toHaveLength(2)
  })

  it('explains the latest week, and another when it is chosen', async () => {
    renderPage()
    const why = await screen.findByRole('region', { name: 'Why my rank is what it is' })
    expect(
      await within(why).findByText(/Correct auto-tip, not counted: you had 4 correct tips/),
    ).toBeTruthy()
    expect(calls).toContain('/api/bbl/season/rounds/3')
    expect(within(why).getByText('No Clean Sweep Bonus: the week had an auto-tip')).toBeTruthy()
    expect(
      within(why).getByText(/you predicted nothing \(counted as 0\), 14 were hit/),
    ).toBeTruthy()
    fireEvent.change(within(why).getByLabelText('Week'), { target: { value: '1' } })
    expect(await within(why).findByText('40')).toBeTruthy()
    expect(calls).toContain('/api/bbl/season/rounds/1')
  })

  it('shows the chosen league: my points against its average and best, my rank in it', async () => {
    renderPage()
    const section = await screen.findByRole('region', { name: 'In my leagues' })
    const table = await within(section).findByRole('table', { name: /Office: my points per round/ })
    const cells = (t: HTMLElement, week: number) =>
      within(within(t).getByRole('row', { name: new RegExp(`Week ${week}`) }))
        .getAllByRole('cell')
        .map((c) => c.textContent)
    expect(cells(table, 3)).toEqual(['8', '6', '9', '2', '3'])
    expect(section.querySelector('[data-league-rank-now]')!.textContent).toBe(
      'After week 3: 2 of 3 in Office',
    )
    fireEvent.change(within(section).getByLabelText('League'), { target: { value: '9' } })
    const family = await within(section).findByRole('table', {
      name: /Family: my points per round/,
    })
    expect(cells(family, 2)).toEqual(['7', '5.3', '7', '2', '3'])
    expect(calls).toContain('/api/bbl/season/leagues/9')
  })
})
