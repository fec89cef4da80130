/** A T20 innings: 20 overs of 6 balls, unless the innings was reduced. */
export const FULL_INNINGS_BALLS = 120

/** One innings of a match in progress, with overs counted as legal balls. */
export interface LiveInningsFigures {
  runs: number
  wickets: number
  balls: number
  /** The balls this innings was allotted when fewer than the full 20 overs (rain); else null. */
  ballsAllotted: number | null
}

/** What a live match card shows besides the raw score. */
export interface LiveFigures {
  /** Runs per over of each innings; null before its first legal ball. */
  runRates: (number | null)[]
  /** In the chase: the first innings' runs plus one; null before the chase. */
  target: number | null
  /** In the chase: runs still needed (0 once reached); null before the chase. */
  runsNeeded: number | null
  /** In the chase: legal balls left of the chasing side's allotment; null before the chase. */
  ballsLeft: number | null
  /**
   * In the chase: runs per over needed from the balls left; null before the chase, once the
   * target is reached, or when no ball is left.
   */
  requiredRate: number | null
}

const twoPlaces = (n: number) => Math.round(n * 100) / 100
const perOver = (runs: number, balls: number) => twoPlaces((runs * 6) / balls)

/**
 * Run rates, target and required rate from the innings so far (GAME_RULES "Live projections"
 * reads the score; these are only the card's figures). The target is the first innings' runs plus
 * one: a target revised by a rain rule (DLS) is not known until the result, so the live card shows
 * the plain one.
 */
export function liveFigures(innings: readonly LiveInningsFigures[]): LiveFigures {
  const runRates = innings.map((i) => (i.balls > 0 ? perOver(i.runs, i.balls) : null))
  const [first, chase] = innings
  if (!first || !chase)
    return { runRates, target: null, runsNeeded: null, ballsLeft: null, requiredRate: null }
  const target = first.runs + 1
  const runsNeeded = Math.max(0, target - chase.runs)
  const ballsLeft = Math.max(0, (chase.ballsAllotted ?? FULL_INNINGS_BALLS) - chase.balls)
  const requiredRate = runsNeeded > 0 && ballsLeft > 0 ? perOver(runsNeeded, ballsLeft) : null
  return { runRates, target, runsNeeded, ballsLeft, requiredRate }
}

/** Which side a live card says is ahead: the chasing side, the defending side, or nobody yet. */
export type LiveLeader = 'chasing' | 'defending' | null

/**
 * Who is ahead right now, for the card's "your pick is ahead" line. The project's own plain
 * reading, not a forecast: nobody during the first innings (a total means nothing until it is
 * chased); in the chase, the chasing side once the target is reached, the defending side once the
 * chase has no wickets or balls left, and otherwise whichever side the rates favour: the chasing
 * side while it scores at least as fast as it needs to (run rate so far >= required rate), else
 * the defending side. Before the chase's first ball the rates say nothing, so nobody.
 */
export function liveLeader(
  innings: readonly LiveInningsFigures[],
  figures: Pick<LiveFigures, 'runRates' | 'runsNeeded' | 'ballsLeft' | 'requiredRate'>,
): LiveLeader {
  const chase = innings[1]
  if (!chase || figures.runsNeeded === null) return null
  if (figures.runsNeeded === 0) return 'chasing'
  if (chase.wickets >= 10 || figures.ballsLeft === 0) return 'defending'
  const rate = figures.runRates[1] ?? null
  if (rate === null || figures.requiredRate === null) return null
  return rate >= figures.requiredRate ? 'chasing' : 'defending'
}
