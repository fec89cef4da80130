import { asRoundNumber } from '@tipping/contract/ids'
import { initialOf } from '@tipping/contract/scores'
import { HONOURS_WINNERS_MAX, type LeagueHonoursResponse } from '@tipping/contract/leagues'
import { remainingChances } from '@tipping/contract/rules/honours'
import type { Database } from '../../../db/schema.ts'
import { ReadCache } from '../../../read-cache.ts'
import * as h from './queries.ts'

/**
 * A league's honours, and the competition's points still to play for, kept like the ladders
 * (reads.ts, decision 009): keyed by the scores version (a result, a late registration or a
 * deactivation bumps it) and, for the honours, the league's member count, so a result is seen
 * at once; READ_CACHE_MS bounds how long a join or leave takes to show.
 */
export class HonoursReads {
  private readonly honours: ReadCache<LeagueHonoursResponse['rounds']>
  private readonly left: ReadCache<LeagueHonoursResponse['remaining']>

  constructor(
    private readonly db: Database,
    readCacheMs: number,
  ) {
    this.honours = new ReadCache(readCacheMs)
    this.left = new ReadCache(readCacheMs, 16)
  }

  rounds(l: {
    competitionId: number
    leagueId: number
    startRound: number
    scoresVersion: number
    numUsers: number
  }): Promise<LeagueHonoursResponse['rounds']> {
    const key = `${l.leagueId}:${l.startRound}:${l.scoresVersion}:${l.numUsers}`
    return this.honours.get(key, async () => {
      const q = { ...l, namesMax: HONOURS_WINNERS_MAX }
      const rows =
        l.numUsers > h.HONOURS_WALK_FROM
          ? await h.honoursByWalk(this.db, { ...q, depth: h.HONOURS_WALK_DEPTH })
          : await h.honoursByMembers(this.db, q)
      return toRounds(rows)
    })
  }

  remaining(competitionId: number, scoresVersion: number) {
    return this.left.get(`${competitionId}:${scoresVersion}`, async () => {
      const s = await h.seasonLeft(this.db, competitionId)
      return remainingChances(s.rounds, s.matches)
    })
  }
}

/** Rows (one per listed winner, by round) as the contract's rounds. */
export function toRounds(rows: readonly h.HonourRow[]): LeagueHonoursResponse['rounds'] {
  const byRound = new Map<number, LeagueHonoursResponse['rounds'][number]>()
  for (const r of rows) {
    let round = byRound.get(r.round)
    if (!round) {
      round = {
        round: asRoundNumber(r.round),
        points: r.points,
        margin: r.margin,
        winnerCount: r.winner_count,
        winners: [],
      }
      byRound.set(r.round, round)
    }
    round.winners.push({
      userId: r.user_id,
      teamName: r.team_name,
      firstName: r.first_name,
      lastNameInitial: initialOf(r.last_name),
    })
  }
  return [...byRound.values()]
}
