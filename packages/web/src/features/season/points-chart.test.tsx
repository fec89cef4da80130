import { render } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SeasonRound } from '@tipping/contract/season'
import { PointsChart } from './points-chart.tsx'
import { RankChart } from './rank-chart.tsx'

// The charts draw at their box's width from the first paint: on a 320 px phone the fallback
// width (358) would run off the screen until the resize observer's first report.

afterEach(() => vi.restoreAllMocks())

function boxesAre(width: number) {
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return this.tagName === 'DIV' ? width : 0
  })
}

// The contract's branded round numbers come from the server; a test's are cast once here.
const rounds = [
  { round: 1, isGoldenWeek: false, points: 3, tippers: 1200, average: 2.4, best: 5, rank: 640 },
  { round: 2, isGoldenWeek: false, points: 7, tippers: 1200, average: 3.1, best: 7, rank: 12 },
] as unknown as SeasonRound[]

describe('the season charts on a narrow screen', () => {
  it('draws the points chart at its box width before anything is painted', () => {
    boxesAre(276)
    const { container } = render(<PointsChart rounds={rounds} />)
    expect(container.querySelector('svg')?.getAttribute('width')).toBe('276')
  })

  it('draws the rank chart at its box width too', () => {
    boxesAre(276)
    const { container } = render(
      <RankChart
        points={[
          { round: 1, rank: 5 },
          { round: 2, rank: 3 },
        ]}
        of={10}
      />,
    )
    expect(container.querySelector('svg')?.getAttribute('width')).toBe('276')
  })
})
