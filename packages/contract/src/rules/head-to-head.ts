// The reference of a league's head-to-head (issue 31): two members' season record against each
// other, and the tips they differed on in one round. Plain and written for reading; the server
// computes the same with set-based SQL over the two users' round_scores and effective tips
// (modules/leagues/head-to-head-queries.ts), and test/head-to-head.property.test.ts holds the two
// equal on generated seasons. The numbers themselves (a round's points and margin, a tip's
// winner) are scoring.ts's; this file only compares.

/** One user's score in one round, as scoring stored it. */
export interface HeadToHeadScore {
  roundNumber: number
  points: number
  margin: number
}

export type RoundWinner = 'a' | 'b' | 'draw'

export interface HeadToHeadRound {
  roundNumber: number
  /** Every match of the round is complete: only then is the round won, lost or drawn. */
  complete: boolean
  a: { points: number; margin: number }
  b: { points: number; margin: number }
  /** null while the round is still being played. */
  winner: RoundWinner | null
}

export interface HeadToHeadRecord {
  /** The rounds both were counted in, from the league's start round, in round order. */
  rounds: HeadToHeadRound[]
  a: { won: number; points: number; margin: number }
  b: { won: number; points: number; margin: number }
  drawn: number
}

/**
 * GAME_RULES "Ranking" applied to two rows: more points first, then the smaller margin; equal in
 * both is a draw (they would share a rank).
 */
export function roundWinner(
  a: { points: number; margin: number },
  b: { points: number; margin: number },
): RoundWinner {
  if (a.points !== b.points) return a.points > b.points ? 'a' : 'b'
  if (a.margin !== b.margin) return a.margin < b.margin ? 'a' : 'b'
  return 'draw'
}

export const HEAD_TO_HEAD_RULE =
  'A round goes to whoever scored more points in it; on equal points the smaller Super Sixes margin wins, as on the ladder; equal in both is a draw. Rounds from the league’s start round that both of you were counted in are compared; each is decided once all its matches are complete. Points and margin add up those rounds so far, the one being played included.'

/** A round's state: scheduled until its first match starts, complete when every match is. */
export type RoundStatus = 'scheduled' | 'active' | 'complete'

/**
 * The record of `a` against `b`: the rounds from `startRound` that have begun and that both have
 * a score in (a tipper has one from the moment they register), each won, lost or drawn once it is
 * complete; points and margin summed over the same rounds, a round still in play included (as the
 * ladder sums them). A round not yet begun is all zeros for everyone and is left out.
 */
export function headToHead(
  a: readonly HeadToHeadScore[],
  b: readonly HeadToHeadScore[],
  startRound: number,
  roundStatus: ReadonlyMap<number, RoundStatus>,
): HeadToHeadRecord {
  const theirs = new Map(b.map((s) => [s.roundNumber, s]))
  const rounds: HeadToHeadRound[] = []
  for (const mine of [...a].sort((x, y) => x.roundNumber - y.roundNumber)) {
    const other = theirs.get(mine.roundNumber)
    const status = roundStatus.get(mine.roundNumber) ?? 'scheduled'
    if (mine.roundNumber < startRound || !other || status === 'scheduled') continue
    const complete = status === 'complete'
    const sideA = { points: mine.points, margin: mine.margin }
    const sideB = { points: other.points, margin: other.margin }
    rounds.push({
      roundNumber: mine.roundNumber,
      complete,
      a: sideA,
      b: sideB,
      winner: complete ? roundWinner(sideA, sideB) : null,
    })
  }
  const sum = (side: 'a' | 'b') => ({
    won: rounds.filter((r) => r.winner === side).length,
    points: rounds.reduce((n, r) => n + r[side].points, 0),
    margin: rounds.reduce((n, r) => n + r[side].margin, 0),
  })
  return {
    rounds,
    a: sum('a'),
    b: sum('b'),
    drawn: rounds.filter((r) => r.winner === 'draw').length,
  }
}

/** A match of the chosen round as the comparison of tips needs it. */
export interface HeadToHeadMatch {
  id: number
  status: 'scheduled' | 'active' | 'complete'
  isMarginGame: boolean
  startsAt: Date
  number: number
}

/** A user's effective tip (their own, or the auto-tip the game placed for them). */
export interface HeadToHeadTip {
  userId: number
  matchId: number
  squadId: number
  margin: number | null
  isAutoTip: boolean
}

export interface TipDifference {
  matchId: number
  a: HeadToHeadTip | null
  b: HeadToHeadTip | null
}

/**
 * The tips of `a` and `b` on the round's matches, completed matches only (another tipper's tip on
 * a match not yet complete is never shown), in play order: those where they named different
 * squads, one of them had no tip (a match that started before they joined), or, on the margin game, predicted different sixes; and how many
 * completed matches they tipped alike.
 */
export function tipDifferences(
  matches: readonly HeadToHeadMatch[],
  tips: readonly HeadToHeadTip[],
  a: number,
  b: number,
): { differences: TipDifference[]; agreed: number } {
  const tipOf = (userId: number, matchId: number) =>
    tips.find((t) => t.userId === userId && t.matchId === matchId) ?? null
  const differences: TipDifference[] = []
  let agreed = 0
  const played = matches
    .filter((m) => m.status === 'complete')
    .sort(
      (x, y) => x.startsAt.getTime() - y.startsAt.getTime() || x.number - y.number || x.id - y.id,
    )
  for (const m of played) {
    const ta = tipOf(a, m.id)
    const tb = tipOf(b, m.id)
    // Neither had a tip (both joined after it started): nothing to compare.
    if (ta === null && tb === null) continue
    const same =
      ta !== null &&
      tb !== null &&
      ta.squadId === tb.squadId &&
      (!m.isMarginGame || ta.margin === tb.margin)
    if (same) agreed++
    else differences.push({ matchId: m.id, a: ta, b: tb })
  }
  return { differences, agreed }
}
