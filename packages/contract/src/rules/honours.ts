import { CLEAN_SWEEP_BONUS, GOLDEN_WEEK_MULTIPLIER, POINTS_PER_TIP } from '../constants.ts'
import type { Lifecycle } from '../predictions.ts'
import { rankRows } from './scoring.ts'

// Issue 31 "Leagues with a memory", the references: a league's round honours and whether a
// member can still win it. Plain and slow; the server's SQL is held equal to roundHonours by
// test/league-honours.property.test.ts, and the server reads remainingChances itself.

/** One member's score in one round, as round_scores holds it. */
export interface HonoursScore {
  userId: number
  roundNumber: number
  points: number
  margin: number
}

/** A completed round's league winners: everyone ranked first on that week's league ladder. */
export interface RoundHonour {
  round: number
  points: number
  margin: number
  /** User ids, ascending (as the ladder lists a shared rank). */
  winners: number[]
}

/**
 * GAME_RULES "Leagues" (the week view of a league ladder) applied to every completed round from
 * the league's start round: the members ranked first by the game's ranking (rankRows: points
 * descending, then margin ascending, equals share the rank). `members` are the league's ranked
 * tippers (registered for the competition, not deactivated); `scores` may hold anyone's rows.
 * A round nobody in the league has a score for has no honour.
 */
export function roundHonours(input: {
  members: readonly number[]
  startRound: number
  completeRounds: readonly number[]
  scores: readonly HonoursScore[]
}): RoundHonour[] {
  const members = new Set(input.members)
  return [...input.completeRounds]
    .filter((r) => r >= input.startRound)
    .sort((a, b) => a - b)
    .flatMap((round) => {
      const ranked = rankRows(
        input.scores.filter((s) => s.roundNumber === round && members.has(s.userId)),
      )
      const first = ranked.filter((r) => r.rank === 1)
      if (first.length === 0) return []
      return [
        {
          round,
          points: first[0]!.points,
          margin: first[0]!.margin,
          winners: first.map((r) => r.userId).sort((a, b) => a - b),
        },
      ]
    })
}

/** Each member's count of round wins, from the honours. */
export function roundWins(honours: readonly Pick<RoundHonour, 'winners'>[]): Map<number, number> {
  const wins = new Map<number, number>()
  for (const h of honours) for (const u of h.winners) wins.set(u, (wins.get(u) ?? 0) + 1)
  return wins
}

/** What is still to play for in a competition, the same for every tipper. */
export interface Remaining {
  /**
   * The most points anyone can still add to their total: every match not yet complete tipped
   * correctly (doubled in the Golden Week) and the Clean Sweep Bonus of every round not yet
   * complete.
   */
  maxPoints: number
  /** Rounds with a match not yet complete. */
  rounds: number
  /** Whether a margin game (Super Sixes) is still to be completed: margins can still move. */
  marginGameLeft: boolean
}

export interface RemainingMatch {
  roundNumber: number
  status: Lifecycle
  isMarginGame: boolean
}

/**
 * GAME_RULES "Scoring a round", looking ahead: a match that is not complete (scheduled, or
 * started and waiting for its result) can still give POINTS_PER_TIP, doubled in the Golden Week;
 * a round with such a match can still give the Clean Sweep Bonus (never doubled) to a tipper who
 * has tipped all of it right so far. It is an upper bound for every tipper at once: one who has
 * already missed a tip of the round, or been auto-tipped in it, can get less, never more.
 */
export function remainingChances(
  rounds: readonly { number: number; isGoldenWeek: boolean }[],
  matches: readonly RemainingMatch[],
): Remaining {
  let maxPoints = 0
  let open = 0
  let marginGameLeft = false
  for (const r of rounds) {
    const left = matches.filter((m) => m.roundNumber === r.number && m.status !== 'complete')
    if (left.length === 0) continue
    open++
    maxPoints +=
      left.length * POINTS_PER_TIP * (r.isGoldenWeek ? GOLDEN_WEEK_MULTIPLIER : 1) +
      CLEAN_SWEEP_BONUS
    if (left.some((m) => m.isMarginGame)) marginGameLeft = true
  }
  return { maxPoints, rounds: open, marginGameLeft }
}

/** Points and margin on the overall league ladder (from the league's start round). */
export interface LadderTotal {
  points: number
  margin: number
}

/**
 * "Can I still win?": whether some way the rest of the season can go puts the member first on
 * the league's overall ladder, a shared first included (ranks are shared, as RANK() does). The
 * best case for the member is that they win every point left and the leader (and everyone else)
 * none:
 * - above the leader's points then: still in it;
 * - below: out, whatever happens;
 * - level on points: the margin decides (lower is better). While a margin game is still to be
 *   completed, its result can add any amount to the leader's margin (their guess can be far off)
 *   and nothing to the member's (an exact guess), so a level finish on points is still open
 *   whatever the margins are now. With no margin game left, margins are final: the member is in
 *   only with a margin no worse than the leader's.
 * The leader is anyone ranked first; the member ranked first is in.
 */
export function canStillWin(member: LadderTotal, leader: LadderTotal, left: Remaining): boolean {
  const best = member.points + left.maxPoints
  if (best !== leader.points) return best > leader.points
  return left.marginGameLeft || member.margin <= leader.margin
}

/** The ladder shows "still in it" / "out" only late in the season: in its last rounds... */
export const STILL_IN_IT_LATE_ROUNDS = 3

/**
 * ...or once the markers say something: as soon as a member on the ladder is out. Before that
 * every member is in, and the ladder says only how many points are left (decision 022).
 */
export function showStillInIt(left: Remaining, anyoneOut: boolean): boolean {
  return (left.rounds > 0 && left.rounds <= STILL_IN_IT_LATE_ROUNDS) || anyoneOut
}
