import type { Sport } from '@tipping/contract/constants'
import type {
  HeadToHeadQuery,
  HeadToHeadResponse,
  HeadToHeadRoundRow,
  TipDifferenceView,
} from '@tipping/contract/head-to-head'
import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import { initialOf } from '@tipping/contract/scores'
import type { Database } from '../../../db/schema.ts'
import { AppError, notFound } from '../../../errors.ts'
import type { CurrentCompetitions } from '../../competitions/service.ts'
import { effectiveTip, type CompletedMatch, type OwnTip } from '../../season/service.ts'
import { HeadToHeadReads } from './reads.ts'

/**
 * A league's head-to-head (issue 31): two members' record against each other and the tips they
 * differed on in a round. Only the league's members may read it (a public league's visitors too
 * are refused, as for a member's live rank: the record is the members' own); the two compared
 * must be active members. One statement per request (queries.ts pairReads, decision 034; shared
 * by the requests arriving together, decision 037, reads.ts), and the round's completed matches
 * kept per scores version, the auto-tips derived from them as the effective_tips view derives
 * them.
 */
export class HeadToHeadService {
  private readonly reads: HeadToHeadReads

  constructor(
    db: Database,
    private readonly competitions: CurrentCompetitions,
  ) {
    this.reads = new HeadToHeadReads(db)
  }

  async read(
    sport: Sport,
    callerId: number,
    leagueId: number,
    query: HeadToHeadQuery,
  ): Promise<HeadToHeadResponse> {
    const c = await this.competitions.get(sport)
    const read = await this.reads.pair(c.id, {
      leagueId,
      caller: callerId,
      a: query.a,
      b: query.b,
      round: query.round ?? null,
    })
    if (!read) throw notFound('Competition', 'sport')
    if (read.privacy === null || read.start_round === null) throw notFound('League', 'id')
    if (!read.is_member && read.privacy !== 'public') throw notFound('League', 'id')
    if (!read.is_member)
      throw new AppError('FORBIDDEN', 'Only the league’s members can compare its tippers', 'id')
    const side = (userId: number, param: 'a' | 'b') => {
      const m = param === 'a' ? read.member_a : read.member_b
      // A deactivated member is off the ladder, and off the head-to-head with it.
      if (!m || !m[4]) throw notFound('Tipper in this league', param)
      return { id: m[0], teamName: m[1], firstName: m[2], lastNameInitial: initialOf(m[3]) }
    }
    const a = side(query.a, 'a')
    const b = side(query.b, 'b')
    if (query.round !== undefined && read.round_id === null) throw notFound('Round', 'round')

    // The record: the begun rounds from the league's start that both were counted in, each won
    // once complete by the ladder's order (more points, then the smaller margin), and the totals.
    const record = pairRecord(read.scores ?? [], a.id, b.id)
    const totals = { aWon: 0, bWon: 0, drawn: 0, aPoints: 0, aMargin: 0, bPoints: 0, bMargin: 0 }
    for (const r of record) {
      if (r.winner === 'a') totals.aWon++
      else if (r.winner === 'b') totals.bWon++
      else if (r.winner === 'draw') totals.drawn++
      totals.aPoints += r.a.points
      totals.aMargin += r.a.margin
      totals.bPoints += r.b.points
      totals.bMargin += r.b.margin
    }

    let tips: HeadToHeadResponse['tips'] = null
    if (read.round_id !== null && read.round !== null) {
      const completed = await this.reads.completedMatches(c.id, read.scores_version)
      const registered = new Map(read.registered ?? [])
      const own = new Map<string, OwnTip>()
      for (const [user, match, squad, margin, auto] of read.tips ?? [])
        own.set(`${user}:${match}`, { squad, margin, auto })
      const effective = (user: number, m: CompletedMatch) =>
        effectiveTip(m, own.get(`${user}:${m.id}`), registered.get(user) ?? null)
      const view = (t: OwnTip | null, winner: number | null) =>
        t === null
          ? null
          : {
              squad: asSquadId(t.squad),
              margin: t.margin,
              isAutoTip: t.auto,
              correct: winner === null ? null : t.squad === winner,
            }
      let agreed = 0
      const differences: TipDifferenceView[] = []
      // Only the round's completed matches are walked: the pair's tips on a match not yet
      // complete were read with the round's but are never looked at, so never shown.
      for (const m of completed.byRound.get(read.round_id) ?? []) {
        const ta = effective(a.id, m)
        const tb = effective(b.id, m)
        // Tipped alike: same squad, and on the margin game the same sixes.
        if (
          ta !== null &&
          tb !== null &&
          ta.squad === tb.squad &&
          (!m.isMarginGame || ta.margin === tb.margin)
        ) {
          agreed++
          continue
        }
        // Neither had a tip (both joined after it started): nothing to compare.
        if (ta === null && tb === null) continue
        differences.push({
          match: asMatchId(m.id),
          homeSquad: asSquadId(m.homeSquadId),
          awaySquad: asSquadId(m.awaySquadId),
          winnerSquad: m.winnerSquadId === null ? null : asSquadId(m.winnerSquadId),
          isMarginGame: m.isMarginGame,
          sixes: m.sixes,
          a: view(ta, m.winnerSquadId),
          b: view(tb, m.winnerSquadId),
        })
      }
      tips = { round: asRoundNumber(read.round), agreed, differences }
    }

    const person = (u: typeof a) => ({
      userId: u.id,
      teamName: u.teamName,
      firstName: u.firstName,
      lastNameInitial: u.lastNameInitial,
    })
    return {
      startRound: asRoundNumber(read.start_round),
      a: { ...person(a), won: totals.aWon, points: totals.aPoints, margin: totals.aMargin },
      b: { ...person(b), won: totals.bWon, points: totals.bPoints, margin: totals.bMargin },
      drawn: totals.drawn,
      rounds: record,
      tips,
    }
  }
}

/** The rounds both have a score in, from rows ordered by round then user. */
function pairRecord(
  scores: readonly [number, boolean, number, number, number][],
  a: number,
  b: number,
): HeadToHeadRoundRow[] {
  const rows: HeadToHeadRoundRow[] = []
  for (let i = 0; i < scores.length; i++) {
    const [round, complete] = scores[i]!
    const next = scores[i + 1]
    if (!next || next[0] !== round) continue
    i++
    const of = (user: number) => {
      const row = scores[i - 1]![2] === user ? scores[i - 1]! : scores[i]!
      return { points: row[3], margin: row[4] }
    }
    const sa = of(a)
    const sb = of(b)
    const winner = !complete
      ? null
      : sa.points > sb.points
        ? 'a'
        : sa.points < sb.points
          ? 'b'
          : sa.margin < sb.margin
            ? 'a'
            : sa.margin > sb.margin
              ? 'b'
              : 'draw'
    rows.push({ round: asRoundNumber(round), complete, a: sa, b: sb, winner })
  }
  return rows
}
