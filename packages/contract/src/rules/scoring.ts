import {
  AUTOTIP_COUNT_LIMIT,
  CLEAN_SWEEP_BONUS,
  GOLDEN_WEEK_MULTIPLIER,
  POINTS_PER_TIP,
} from '../constants.ts'
import type { Lifecycle } from '../predictions.ts'

// The reference implementation of GAME_RULES.md "Scoring a round" and "Ranking": plain, slow and
// obviously right. The server scores with set-based SQL; property tests hold the two equal.

export interface ScoringMatch {
  id: number
  roundNumber: number
  status: Lifecycle
  /** Null for no result, abandoned or a tie without a winner. */
  winnerSquadId: number | null
  isMarginGame: boolean
  sixes: number | null
}

export interface ScoringTip {
  userId: number
  matchId: number
  squadId: number
  margin: number | null
  isAutoTip: boolean
}

/** A match as the auto-tip rule sees it. */
export interface AutoTipMatch {
  id: number
  status: Lifecycle
  startsAt: Date
  awaySquadId: number
  isMarginGame: boolean
}

/**
 * GAME_RULES.md "Auto-tip": on every locked match, each user registered before it started who has
 * no tip gets the away squad, margin 0 on the margin game. Returns only the auto-tips to add.
 */
export function autoTips(
  users: readonly { userId: number; registeredAt: Date }[],
  matches: readonly AutoTipMatch[],
  tips: readonly ScoringTip[],
): ScoringTip[] {
  const tipped = new Set(tips.map((t) => `${t.userId}:${t.matchId}`))
  return matches
    .filter((m) => m.status !== 'scheduled')
    .flatMap((m) =>
      users
        .filter((u) => u.registeredAt < m.startsAt && !tipped.has(`${u.userId}:${m.id}`))
        .map((u) => ({
          userId: u.userId,
          matchId: m.id,
          squadId: m.awaySquadId,
          margin: m.isMarginGame ? 0 : null,
          isAutoTip: true,
        })),
    )
}

export interface RoundScore {
  userId: number
  roundNumber: number
  correct: number
  counted: number
  tipPoints: number
  bonus: number
  points: number
  margin: number
}

export interface Standing {
  userId: number
  totalPoints: number
  totalMargin: number
  rank: number
}

/** What one tip earned: `correct` and `counted` are null until its match has a result to judge. */
export interface TipOutcome {
  correct: boolean | null
  /** A correct tip earns its points; a correct auto-tip only under AUTOTIP_COUNT_LIMIT. */
  counted: boolean | null
}

/**
 * GAME_RULES.md "Counting auto-tips", tip by tip: over one user's tips in one round, a tip is
 * correct when its match is complete with a winner and the tip named it; a correct auto-tip counts
 * only while the user has fewer than AUTOTIP_COUNT_LIMIT correct tips of their own in the round.
 * Keyed by match id; a match with no tip has no entry.
 */
export function tipOutcomes(
  matches: readonly Pick<ScoringMatch, 'id' | 'status' | 'winnerSquadId'>[],
  tips: readonly Pick<ScoringTip, 'matchId' | 'squadId' | 'isAutoTip'>[],
): Map<number, TipOutcome> {
  const byMatch = new Map(tips.map((t) => [t.matchId, t]))
  const judged = matches.flatMap((m) => {
    const t = byMatch.get(m.id)
    if (!t) return []
    const correct =
      m.status === 'complete' && m.winnerSquadId !== null ? t.squadId === m.winnerSquadId : null
    return [{ matchId: m.id, isAutoTip: t.isAutoTip, correct }]
  })
  const correctOwn = judged.filter((j) => j.correct === true && !j.isAutoTip).length
  return new Map(
    judged.map((j) => [
      j.matchId,
      {
        correct: j.correct,
        counted:
          j.correct === null
            ? null
            : j.correct && (!j.isAutoTip || correctOwn < AUTOTIP_COUNT_LIMIT),
      },
    ]),
  )
}

/**
 * GAME_RULES.md "Round margin": on the margin game once it is complete with its sixes known, the
 * distance between the predicted and the actual sixes, no tip or no margin counting as 0
 * (decision 004); null on any other match.
 */
export function marginResult(
  match: Pick<ScoringMatch, 'isMarginGame' | 'status' | 'sixes'>,
  predicted: number | null | undefined,
): number | null {
  return match.isMarginGame && match.status === 'complete' && match.sixes !== null
    ? Math.abs((predicted ?? 0) - match.sixes)
    : null
}

/** One user's round. `goldenWeek` doubles tip points, never the bonus. */
export function scoreRound(
  userId: number,
  roundNumber: number,
  matches: readonly ScoringMatch[],
  tips: readonly ScoringTip[],
  goldenWeek: boolean,
): RoundScore {
  const inRound = matches.filter((m) => m.roundNumber === roundNumber)
  const ids = new Set(inRound.map((m) => m.id))
  const mine = new Map(
    tips.filter((t) => t.userId === userId && ids.has(t.matchId)).map((t) => [t.matchId, t]),
  )
  const outcomes = tipOutcomes(inRound, [...mine.values()])
  const isCorrect = (m: ScoringMatch) => outcomes.get(m.id)?.correct === true
  const correct = inRound.filter(isCorrect).length
  const counted = inRound.filter((m) => outcomes.get(m.id)?.counted === true).length
  const tipPoints = counted * POINTS_PER_TIP * (goldenWeek ? GOLDEN_WEEK_MULTIPLIER : 1)

  const withWinner = inRound.filter((m) => m.winnerSquadId !== null)
  const sweep =
    inRound.length > 0 &&
    inRound.every((m) => m.status === 'complete') &&
    withWinner.length > 0 &&
    withWinner.every(isCorrect) &&
    [...mine.values()].every((t) => !t.isAutoTip)
  const bonus = sweep ? CLEAN_SWEEP_BONUS : 0

  const marginGame = inRound.find((m) => m.isMarginGame)
  const margin = marginGame ? (marginResult(marginGame, mine.get(marginGame.id)?.margin) ?? 0) : 0

  return {
    userId,
    roundNumber,
    correct,
    counted,
    tipPoints,
    bonus,
    points: tipPoints + bonus,
    margin,
  }
}

/**
 * GAME_RULES.md: the most points a round's completed matches could have given, the Clean Sweep
 * Bonus included once the round is over: the points of a tipper who tipped every winner
 * themself. `matches` are the round's.
 */
export function maxRoundPoints(
  matches: readonly Omit<ScoringMatch, 'roundNumber'>[],
  goldenWeek: boolean,
): number {
  const round = matches.map((m) => ({ ...m, roundNumber: 0 }))
  const perfect = round.flatMap((m) =>
    m.winnerSquadId === null
      ? []
      : [{ userId: 0, matchId: m.id, squadId: m.winnerSquadId, margin: null, isAutoTip: false }],
  )
  return scoreRound(0, 0, round, perfect, goldenWeek).points
}

/** SQL RANK(): points descending, then margin ascending; equals share a rank and the next skips. */
export function rankRows<T extends { points: number; margin: number }>(
  rows: readonly T[],
): (T & { rank: number })[] {
  const sorted = [...rows].sort((a, b) => b.points - a.points || a.margin - b.margin)
  return sorted.map((row, i) => {
    let first = i
    while (
      first > 0 &&
      sorted[first - 1]!.points === row.points &&
      sorted[first - 1]!.margin === row.margin
    )
      first--
    return { ...row, rank: first + 1 }
  })
}

export interface SeasonInput {
  users: readonly number[]
  rounds: readonly { number: number; isGoldenWeek: boolean }[]
  matches: readonly ScoringMatch[]
  tips: readonly ScoringTip[]
}

/** Every user's score in every round, and the overall standings ranked over everyone. */
export function scoreSeason(input: SeasonInput): { rounds: RoundScore[]; standings: Standing[] } {
  const rounds: RoundScore[] = []
  for (const r of input.rounds) {
    for (const u of input.users)
      rounds.push(scoreRound(u, r.number, input.matches, input.tips, r.isGoldenWeek))
  }
  const totals = input.users.map((userId) => {
    const mine = rounds.filter((s) => s.userId === userId)
    return {
      userId,
      points: mine.reduce((a, s) => a + s.points, 0),
      margin: mine.reduce((a, s) => a + s.margin, 0),
    }
  })
  const standings = rankRows(totals).map((t) => ({
    userId: t.userId,
    totalPoints: t.points,
    totalMargin: t.margin,
    rank: t.rank,
  }))
  return { rounds, standings }
}

/** A registration as the ranking rules see it, in the order the tippers registered. */
export interface RankedRegistration {
  userId: number
  registeredAt: Date
  /** False while the account is deactivated: scored, but out of every ranking and count. */
  active: boolean
}

/** One row of a ranking as it is listed: rank, then points and margin. */
export interface RankedRow {
  userId: number
  points: number
  margin: number
  rank: number
}

export interface RankedSeasonInput {
  /** In registration order, which lists tied tippers. */
  registrations: readonly RankedRegistration[]
  rounds: readonly { number: number; isGoldenWeek: boolean }[]
  matches: readonly (ScoringMatch & { startsAt: Date; awaySquadId: number })[]
  /** The tips users made (auto-tips are derived here, as the rules say). */
  tips: readonly ScoringTip[]
}

/**
 * GAME_RULES "Who is ranked", the reference: every registered tipper is scored from the moment
 * they register (auto-tips only for matches that started after that); the overall rankings and
 * each round's rank the active ones, listed by points, then margin, then registration order;
 * `totalUsers` is the number of ranked rows.
 */
export function rankSeason(input: RankedSeasonInput): {
  rounds: RoundScore[]
  roundRankings: Map<number, RankedRow[]>
  standings: RankedRow[]
  totalUsers: number
} {
  const users = input.registrations.map((r) => r.userId)
  const auto = autoTips(input.registrations, input.matches, input.tips)
  const { rounds, standings } = scoreSeason({
    users,
    rounds: input.rounds,
    matches: input.matches,
    tips: [...input.tips, ...auto],
  })
  const order = new Map(users.map((id, i) => [id, i]))
  const active = new Set(input.registrations.filter((r) => r.active).map((r) => r.userId))
  const listed = (rows: { userId: number; points: number; margin: number }[]): RankedRow[] =>
    rankRows(rows.filter((r) => active.has(r.userId)))
      .sort(
        (a, b) =>
          b.points - a.points || a.margin - b.margin || order.get(a.userId)! - order.get(b.userId)!,
      )
      .map(({ userId, points, margin, rank }) => ({ userId, points, margin, rank }))
  const roundRankings = new Map(
    input.rounds.map((r) => [r.number, listed(rounds.filter((s) => s.roundNumber === r.number))]),
  )
  return {
    rounds,
    roundRankings,
    standings: listed(
      standings.map((s) => ({ userId: s.userId, points: s.totalPoints, margin: s.totalMargin })),
    ),
    totalUsers: active.size,
  }
}
