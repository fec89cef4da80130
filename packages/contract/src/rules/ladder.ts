// GAME_RULES.md "Team ladder": points descending, then net run rate descending, then name.

export interface LadderTally {
  squadId: number
  name: string
  played: number
  won: number
  lost: number
  tied: number
  noResult: number
  runsFor: number
  ballsFaced: number
  runsAgainst: number
  ballsBowled: number
}

export interface LadderPoints {
  win: number
  noResult: number
  tie: number
  loss: number
}

/** Net run rate: runs per over scored minus runs per over conceded, to 3 decimals. */
export function netRunRate(
  t: Pick<LadderTally, 'runsFor' | 'ballsFaced' | 'runsAgainst' | 'ballsBowled'>,
): number | null {
  if (t.ballsFaced === 0 || t.ballsBowled === 0) return null
  const nrr = (t.runsFor * 6) / t.ballsFaced - (t.runsAgainst * 6) / t.ballsBowled
  return Math.round(nrr * 1000) / 1000
}

export function ladderOrder(tallies: readonly LadderTally[], points: LadderPoints) {
  const rows = tallies.map((t) => ({
    ...t,
    points:
      t.won * points.win +
      t.lost * points.loss +
      t.tied * points.tie +
      t.noResult * points.noResult,
    percentage: netRunRate(t),
  }))
  rows.sort(
    (a, b) =>
      b.points - a.points ||
      (b.percentage ?? -Infinity) - (a.percentage ?? -Infinity) ||
      a.name.localeCompare(b.name),
  )
  return rows.map((r, i) => ({ ...r, position: i + 1 }))
}
