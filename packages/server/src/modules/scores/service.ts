import type { Sport } from '@tipping/contract/constants'
import { asRoundNumber, type RoundNumber } from '@tipping/contract/ids'
import { SPORTS } from '@tipping/contract/constants'
import type {
  Dashboard,
  RankingRow,
  RankingsQuery,
  RankingsResponse,
  Snapshot,
} from '@tipping/contract/scores'
import type { Database } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import type { CurrentCompetitions } from '../competitions/service.ts'
import { isRegistered } from '../predictions/service.ts'
import * as q from './queries.ts'
import { toRankingRow } from './ranking-row.ts'
import { ScoresReads, type PageRow } from './reads.ts'

/** The rankings answer with its page of rows as JSON text, as the database wrote it. */
export type RankingsReply = Omit<RankingsResponse, 'rankings'> & { rankingsJson: string }

const toRow = (r: PageRow) => toRankingRow({ ...r, user_id: r.id })

/** Reads of the scores the scoring job wrote: snapshot, rankings, dashboard. */
export class ScoresService {
  private readonly reads: ScoresReads

  /**
   * Tipper counts, round maxima and the current round may be readCacheMs old; rankings pages
   * pageCacheMs (reads.ts).
   */
  constructor(
    private readonly db: Database,
    private readonly competitions: CurrentCompetitions,
    readCacheMs = 0,
    pageCacheMs = 0,
  ) {
    this.reads = new ScoresReads(db, readCacheMs, pageCacheMs)
  }

  /** After a result (any process's): the shared reads are read afresh (reads.ts). */
  forgetShared(): void {
    this.reads.forgetShared()
  }

  private competition(sport: Sport) {
    return this.competitions.get(sport)
  }

  async snapshot(sport: Sport, userId: number, roundNumber?: RoundNumber): Promise<Snapshot> {
    const c = await this.competition(sport)
    const round = roundNumber ?? (await this.reads.currentRound(c.id)) ?? asRoundNumber(1)
    const roundId = await this.reads.roundId(c.id, round)
    if (roundId === undefined) throw notFound('Round', 'round')
    const [mine, maxima, total] = await Promise.all([
      this.reads.snapshotRow(c.id, roundId, userId),
      this.reads.maxPoints(c.id),
      this.reads.registeredCount(c.id),
    ])
    return {
      round_points: mine?.round_points ?? 0,
      overall_points: mine?.total_points ?? 0,
      overall_rank: mine?.rank ?? 0,
      round,
      max_round_points: maxima.find((m) => m.number === round)?.maxPoints ?? 0,
      max_total_points: maxima.reduce((sum, m) => sum + m.maxPoints, 0),
      total_users: total,
    }
  }

  async rankings(sport: Sport, userId: number, query: RankingsQuery): Promise<RankingsReply> {
    const c = await this.competition(sport)
    let roundId: number | null = null
    if (query.round !== undefined) {
      roundId = (await this.reads.roundId(c.id, query.round)) ?? null
      if (roundId === null) throw notFound('Round', 'round')
    }
    const available = await this.reads.hasCompletedMatch(c.id)
    if (!available) return { rankingsJson: '[]', nextPage: null, user: null, available }
    const offset = (query.page - 1) * query.limit
    const [page, own] = await Promise.all([
      query.search
        ? q
            .searchRankings(this.db, {
              competitionId: c.id,
              roundId,
              search: query.search,
              offset,
              limit: query.limit,
            })
            .then((p) => ({ json: JSON.stringify(p.rows.map(toRow)), more: p.more }))
        : this.reads.page(c.scores_version, c.id, roundId, query.limit, offset),
      this.reads.ownRow(c.id, roundId, userId),
    ])
    return {
      rankingsJson: page.json,
      nextPage: page.more ? query.page + 1 : null,
      user: own ? toRow(own) : null,
      available,
    }
  }

  /**
   * The user's own rankings row, overall or in one round, as the rankings show it (null before
   * they are scored, or while deactivated).
   */
  async ownRow(sport: Sport, userId: number, round?: RoundNumber): Promise<RankingRow | null> {
    const c = await this.competition(sport)
    let roundId: number | null = null
    if (round !== undefined) {
      roundId = (await this.reads.roundId(c.id, round)) ?? null
      if (roundId === null) throw notFound('Round', 'round')
    }
    const own = await this.reads.ownRow(c.id, roundId, userId)
    return own ? toRow(own) : null
  }

  async dashboard(userId: number): Promise<Dashboard> {
    const sports: Dashboard['sports'] = []
    for (const sport of SPORTS) {
      const c = await this.competitions.find(sport)
      if (!c) continue
      const registered = await isRegistered(this.db, c.id, userId)
      const snap = registered ? await this.snapshot(sport, userId) : null
      sports.push({
        sport,
        name: c.name,
        registered,
        round: snap?.round ?? (await q.currentRoundNumber(this.db, c.id)),
        round_points: snap?.round_points ?? 0,
        overall_points: snap?.overall_points ?? 0,
        overall_rank: snap?.overall_rank ?? 0,
        total_users: snap?.total_users ?? (await q.registeredCount(this.db, c.id)),
      })
    }
    return { sports }
  }
}
