import { GOLDEN_WEEK_MULTIPLIER, POINTS_PER_TIP } from '../constants.ts'
import {
  rankRows,
  marginResult,
  scoreRound,
  tipOutcomes,
  type RoundScore,
  type ScoringMatch,
  type ScoringTip,
} from './scoring.ts'

// The reference of the My season page's numbers (issue 31): plain and per user, written for
// reading. The server computes the same numbers with set-based SQL (modules/season/queries.ts)
// and test/season.property.test.ts holds the two equal on generated seasons. Every rule of the
// game itself (correct, counted, margin, bonus) is scoring.ts's; this file only counts.

/** A match as the season's numbers see it: scoring's fields plus the order matches are played in. */
export interface SeasonMatch extends ScoringMatch {
  startsAt: Date
  /** The match's number in its season: the order of two matches starting together. */
  number: number
}

/** How well one squad was read: tips naming it on decided matches, and how many were right. */
export interface TeamRecord {
  squadId: number
  correct: number
  tipped: number
}

export interface SeasonNumbers {
  /** Tips (own and auto) on completed matches with a winner, and how many named it. */
  correct: number
  judged: number
  /** Best first: share right, then more tips, then squad id. */
  teams: TeamRecord[]
  longestStreak: number
  currentStreak: number
  /** Auto-tips on decided matches that named the loser. */
  autoTipsWrong: number
  /** Correct auto-tips that did not count (AUTOTIP_COUNT_LIMIT). */
  autoTipsNotCounted: number
  /** Completed margin games with their sixes known on which the user had a tip. */
  marginGames: number
  marginMissTotal: number
  bestMiss: number | null
}

/**
 * How a streak runs, as the help says it: over the user's tips on completed matches with a
 * winner, in the order the matches started. A match without a winner, and one the user has no tip
 * on (it started before they joined), is skipped, neither extending nor breaking a streak.
 */
export const SEASON_STREAK_RULE =
  'a streak is your correct tips in a row, in the order the matches started, auto-tips included; a wrong tip ends it. A match that ends without a winner, and a match you have no tip on (it started before you joined), is skipped: it neither adds to a streak nor breaks it. Your current streak is the run since your last wrong tip.'

/** The order matches are played in: start time, then match number, then id. */
const playOrder = (a: SeasonMatch, b: SeasonMatch) =>
  a.startsAt.getTime() - b.startsAt.getTime() || a.number - b.number || a.id - b.id

/**
 * One user's numbers over the season from their tips (auto-tips included, as scoring sees them)
 * and the matches.
 *
 * Streaks: SEASON_STREAK_RULE (the same sentence is in the help).
 */
export function seasonNumbers(
  userId: number,
  matches: readonly SeasonMatch[],
  tips: readonly ScoringTip[],
): SeasonNumbers {
  const mine = new Map(tips.filter((t) => t.userId === userId).map((t) => [t.matchId, t]))
  const judged = [...matches]
    .filter((m) => m.status === 'complete' && m.winnerSquadId !== null && mine.has(m.id))
    .sort(playOrder)
    .map((m) => {
      const t = mine.get(m.id)!
      return { squadId: t.squadId, isAutoTip: t.isAutoTip, correct: t.squadId === m.winnerSquadId }
    })

  let run = 0
  let longest = 0
  for (const j of judged) {
    run = j.correct ? run + 1 : 0
    longest = Math.max(longest, run)
  }

  const teams = new Map<number, TeamRecord>()
  for (const j of judged) {
    const team = teams.get(j.squadId) ?? { squadId: j.squadId, correct: 0, tipped: 0 }
    team.tipped++
    if (j.correct) team.correct++
    teams.set(j.squadId, team)
  }

  let autoTipsNotCounted = 0
  for (const round of new Set(matches.map((m) => m.roundNumber))) {
    const inRound = matches.filter((m) => m.roundNumber === round)
    const outcomes = tipOutcomes(
      inRound,
      inRound.flatMap((m) => (mine.has(m.id) ? [mine.get(m.id)!] : [])),
    )
    for (const [matchId, o] of outcomes)
      if (o.correct === true && o.counted === false && mine.get(matchId)!.isAutoTip)
        autoTipsNotCounted++
  }

  const misses = matches.flatMap((m) => {
    const t = mine.get(m.id)
    const miss = t ? marginResult(m, t.margin) : null
    return miss === null ? [] : [miss]
  })

  return {
    correct: judged.filter((j) => j.correct).length,
    judged: judged.length,
    teams: sortTeams([...teams.values()]),
    longestStreak: longest,
    currentStreak: run,
    autoTipsWrong: judged.filter((j) => j.isAutoTip && !j.correct).length,
    autoTipsNotCounted,
    marginGames: misses.length,
    marginMissTotal: misses.reduce((a, b) => a + b, 0),
    bestMiss: misses.length > 0 ? Math.min(...misses) : null,
  }
}

/** Best read first: the larger share right, then more tips, then the squad id. */
export function sortTeams(teams: readonly TeamRecord[]): TeamRecord[] {
  return [...teams].sort(
    (a, b) =>
      b.correct * a.tipped - a.correct * b.tipped || b.tipped - a.tipped || a.squadId - b.squadId,
  )
}

/** A share as a whole percentage, null when there is nothing to divide. */
export const percentOf = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((100 * part) / whole)

/** An average to one decimal, null when there is nothing to average. */
export const averageOf = (total: number, count: number): number | null =>
  count === 0 ? null : Math.round((10 * total) / count) / 10

/** One round of the points-per-round chart. */
export interface RoundComparison {
  roundNumber: number
  /** The user's points in the round. */
  points: number
  /** Over every ranked tipper: how many, their points together, the most any of them scored. */
  tippers: number
  totalPoints: number
  best: number
}

/**
 * The user's points in each round beside the round's sum and best over the ranked tippers
 * (`ranked`: every ranked tipper's round scores, the user's among them), for `rounds` in order.
 */
export function roundComparisons(
  userId: number,
  rounds: readonly number[],
  ranked: readonly RoundScore[],
): RoundComparison[] {
  return rounds.map((roundNumber) => {
    const inRound = ranked.filter((s) => s.roundNumber === roundNumber)
    return {
      roundNumber,
      points: inRound.find((s) => s.userId === userId)?.points ?? 0,
      tippers: inRound.length,
      totalPoints: inRound.reduce((a, s) => a + s.points, 0),
      best: inRound.reduce((a, s) => Math.max(a, s.points), 0),
    }
  })
}

/**
 * The overall rank after each of `rounds` (GAME_RULES "Ranking"): every ranked tipper's points
 * and margin summed over the rounds up to and including it (`ranked`: the round scores of the
 * tippers ranked today, registered and active, the user's among them), ranked as RANK() does.
 * A tipper who joined late counts from their rows (0 points and the round's sixes for what they
 * missed), as in the rankings. null for a round when the user is not among the ranked.
 */
export function rankHistory(
  userId: number,
  rounds: readonly number[],
  ranked: readonly RoundScore[],
): (number | null)[] {
  const users = [...new Set(ranked.map((s) => s.userId))]
  return rounds.map((roundNumber) => {
    const totals = users.map((u) => {
      const upTo = ranked.filter((s) => s.userId === u && s.roundNumber <= roundNumber)
      return {
        userId: u,
        points: upTo.reduce((a, s) => a + s.points, 0),
        margin: upTo.reduce((a, s) => a + s.margin, 0),
      }
    })
    return rankRows(totals).find((t) => t.userId === userId)?.rank ?? null
  })
}

/**
 * Why one tip earned what it did, in the order the rules decide it: no tip; the match not over;
 * over without a winner; wrong; right and counted (own or auto); right but an auto-tip past
 * AUTOTIP_COUNT_LIMIT.
 */
export type TipVerdict =
  'not-tipped' | 'pending' | 'no-result' | 'wrong' | 'counted' | 'auto-counted' | 'auto-not-counted'

/** Whether the round earned the Clean Sweep Bonus, and if not, what stood in the way. */
export type SweepVerdict =
  'earned' | 'round-not-over' | 'missed-a-winner' | 'auto-tip' | 'no-winner'

export interface TipExplanation {
  matchId: number
  squadId: number | null
  isAutoTip: boolean
  correct: boolean | null
  counted: boolean | null
  verdict: TipVerdict
  /** Points the tip earned: POINTS_PER_TIP, doubled in the Golden Week, when counted. */
  points: number
  /** The margin game's miss (marginResult), null on other matches or before the sixes are known. */
  marginResult: number | null
}

export interface RoundExplanation {
  tips: TipExplanation[]
  score: RoundScore
  pointsPerTip: number
  sweep: SweepVerdict
}

/**
 * The round of one user, tip by tip, with scoring.ts's own rules (tipOutcomes, marginResult,
 * scoreRound): each match's tip, whether it was right and counted and why, what it was worth,
 * and the round's total as scoring stores it. `matches` are the round's in play order.
 */
export function explainRound(
  userId: number,
  roundNumber: number,
  matches: readonly ScoringMatch[],
  tips: readonly ScoringTip[],
  goldenWeek: boolean,
): RoundExplanation {
  const inRound = matches.filter((m) => m.roundNumber === roundNumber)
  const mine = new Map(tips.filter((t) => t.userId === userId).map((t) => [t.matchId, t]))
  const outcomes = tipOutcomes(
    inRound,
    inRound.flatMap((m) => (mine.has(m.id) ? [mine.get(m.id)!] : [])),
  )
  const pointsPerTip = POINTS_PER_TIP * (goldenWeek ? GOLDEN_WEEK_MULTIPLIER : 1)
  const score = scoreRound(userId, roundNumber, inRound, [...mine.values()], goldenWeek)
  const lines = inRound.map((m): TipExplanation => {
    const t = mine.get(m.id)
    const o = outcomes.get(m.id)
    const verdict: TipVerdict = !t
      ? 'not-tipped'
      : m.status !== 'complete'
        ? 'pending'
        : m.winnerSquadId === null
          ? 'no-result'
          : !o?.correct
            ? 'wrong'
            : !t.isAutoTip
              ? 'counted'
              : o.counted
                ? 'auto-counted'
                : 'auto-not-counted'
    return {
      matchId: m.id,
      squadId: t?.squadId ?? null,
      isAutoTip: t?.isAutoTip ?? false,
      correct: o?.correct ?? null,
      counted: o?.counted ?? null,
      verdict,
      points: o?.counted ? pointsPerTip : 0,
      marginResult: marginResult(m, t?.margin),
    }
  })
  const withWinner = inRound.filter((m) => m.winnerSquadId !== null)
  const sweep: SweepVerdict =
    score.bonus > 0
      ? 'earned'
      : inRound.some((m) => m.status !== 'complete')
        ? 'round-not-over'
        : withWinner.length === 0
          ? 'no-winner'
          : withWinner.some((m) => outcomes.get(m.id)?.correct !== true)
            ? 'missed-a-winner'
            : 'auto-tip'
  return { tips: lines, score, pointsPerTip, sweep }
}

/** How tippers level on points are ordered: the game rules' "Ranking", shown beside a round. */
export const TIE_BREAK_RULE =
  'Tippers are ordered by points, highest first, then by Super Sixes margin, lowest first. Tippers level on both share a rank and the next rank is skipped (1, 1, 3); tippers who share a rank are listed in the order they joined.'

/** One round of a league on My season: the caller's points, the league's, the caller's rank. */
export interface LeagueRoundComparison extends RoundComparison {
  /** The caller's rank in the league after the round; null when the caller is not ranked. */
  rank: number | null
}

/**
 * "The same for each of my leagues" (issue 31): roundComparisons and rankHistory over the
 * league's ranked members (`members`: registered for the competition and active; the caller among
 * them or not) from its start round (GAME_RULES "Leagues": a league counts its rounds from there),
 * for the `rounds` shown (rounds before `startRound` are dropped). The rank after a round is by
 * points then margin summed from the start round through it, ties sharing (RANK()).
 */
export function leagueSeason(input: {
  userId: number
  members: readonly number[]
  startRound: number
  rounds: readonly number[]
  scores: readonly RoundScore[]
}): LeagueRoundComparison[] {
  const members = new Set(input.members)
  const rounds = input.rounds.filter((r) => r >= input.startRound)
  const shown = new Set(rounds)
  const ranked = input.scores.filter((s) => members.has(s.userId) && shown.has(s.roundNumber))
  const ranks = members.has(input.userId)
    ? rankHistory(input.userId, rounds, ranked)
    : rounds.map(() => null)
  return roundComparisons(input.userId, rounds, ranked).map((r, i) => ({
    ...r,
    rank: ranks[i] ?? null,
  }))
}
