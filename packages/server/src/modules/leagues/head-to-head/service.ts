import type { Sport } from '@tipping/contract/constants'
import type { HeadToHeadQuery, HeadToHeadResponse } from '@tipping/contract/head-to-head'
import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import { initialOf } from '@tipping/contract/scores'
import type { Database } from '../../../db/schema.ts'
import { AppError, notFound } from '../../../errors.ts'
import type { CurrentCompetitions } from '../../competitions/service.ts'
import { findLeague } from '../queries.ts'
import * as q from './queries.ts'

/**
 * A league's head-to-head (issue 31): two members' record against each other and the tips they
 * differed on in a round. Only the league's members may read it (a public league's visitors too
 * are refused, as for a member's live rank: the record is the members' own); the two compared
 * must be active members. Four statements, two at a time, each reading a bounded set; nothing is
 * cached, since at a million tippers a pair is rarely asked for twice between two results.
 */
export class HeadToHeadService {
  constructor(
    private readonly db: Database,
    private readonly competitions: CurrentCompetitions,
  ) {}

  async read(
    sport: Sport,
    callerId: number,
    leagueId: number,
    query: HeadToHeadQuery,
  ): Promise<HeadToHeadResponse> {
    const c = await this.competitions.get(sport)
    const [league, members] = await Promise.all([
      findLeague(this.db, c.id, leagueId, callerId),
      q.membersOf(this.db, leagueId, [query.a, query.b]),
    ])
    if (!league || (!league.is_member && league.privacy !== 'public'))
      throw notFound('League', 'id')
    if (!league.is_member)
      throw new AppError('FORBIDDEN', 'Only the league’s members can compare its tippers', 'id')
    const side = (userId: number, param: 'a' | 'b') => {
      const m = members.find((u) => u.id === userId)
      // A deactivated member is off the ladder, and off the head-to-head with it.
      if (!m || m.deactivated_at !== null) throw notFound('Tipper in this league', param)
      return m
    }
    const a = side(query.a, 'a')
    const b = side(query.b, 'b')

    const pair = { competitionId: c.id, a: a.id, b: b.id }
    const rows = await q.record(this.db, { ...pair, startRound: league.start_round })
    const round = query.round ?? rows.at(-1)?.round ?? null
    const tips = round === null ? null : await q.roundTips(this.db, { ...pair, round })
    if (query.round !== undefined && tips?.length === 0) throw notFound('Round', 'round')

    const first = rows[0]
    const person = (u: typeof a) => ({
      userId: u.id,
      teamName: u.team_name,
      firstName: u.first_name,
      lastNameInitial: initialOf(u.last_name),
    })
    const tip = (
      squad: number | null,
      margin: number | null,
      auto: boolean | null,
      winner: number | null,
    ) =>
      squad === null
        ? null
        : {
            squad: asSquadId(squad),
            margin,
            isAutoTip: auto ?? false,
            correct: winner === null ? null : squad === winner,
          }
    const played = (tips ?? []).filter((t) => t.match_id !== null)
    return {
      startRound: asRoundNumber(league.start_round),
      a: {
        ...person(a),
        won: first?.a_won ?? 0,
        points: first?.a_total_points ?? 0,
        margin: first?.a_total_margin ?? 0,
      },
      b: {
        ...person(b),
        won: first?.b_won ?? 0,
        points: first?.b_total_points ?? 0,
        margin: first?.b_total_margin ?? 0,
      },
      drawn: first?.drawn ?? 0,
      rounds: rows.map((r) => ({
        round: asRoundNumber(r.round),
        complete: r.complete,
        a: { points: r.a_points, margin: r.a_margin },
        b: { points: r.b_points, margin: r.b_margin },
        winner: r.winner,
      })),
      tips:
        round === null
          ? null
          : {
              round: asRoundNumber(round),
              agreed: played.filter((t) => t.agreed).length,
              differences: played
                // Neither had a tip (both joined after it started): nothing to compare.
                .filter((t) => !t.agreed && (t.a_squad !== null || t.b_squad !== null))
                .map((t) => ({
                  match: asMatchId(t.match_id!),
                  homeSquad: asSquadId(t.home_squad_id),
                  awaySquad: asSquadId(t.away_squad_id),
                  winnerSquad: t.winner_squad_id === null ? null : asSquadId(t.winner_squad_id),
                  isMarginGame: t.is_margin_game,
                  sixes: t.sixes,
                  a: tip(t.a_squad, t.a_margin, t.a_auto, t.winner_squad_id),
                  b: tip(t.b_squad, t.b_margin, t.b_auto, t.winner_squad_id),
                })),
            },
    }
  }
}
