import type { Sport } from '@tipping/contract/constants'
import { SPORTS } from '@tipping/contract/constants'
import type { Dashboard, RankingsQuery, RankingsResponse, Snapshot } from '@tipping/contract/scores'
import type { Database } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { ReadCache } from '../../read-cache.ts'
import { isRegistered } from '../predictions/service.ts'
import * as q from './queries.ts'
import { toRankingRow } from './ranking-row.ts'

type PageRow = Awaited<ReturnType<typeof q.rankingPage>>[number]
const toRow = (r: PageRow) => toRankingRow({ ...r, user_id: r.id })

/** Reads of the scores the scoring job wrote: snapshot, rankings, dashboard. */
export class ScoresService {
  private readonly competitions: ReadCache<Awaited<ReturnType<typeof q.competitionBySport>>>
  private readonly maxima: ReadCache<Awaited<ReturnType<typeof q.maxPointsByRound>>>
  private readonly counts: ReadCache<number>

  /** Tipper counts, round maxima and the current competition may be readCacheMs old. */
  constructor(
    private readonly db: Database,
    readCacheMs = 0,
  ) {
    this.competitions = new ReadCache(readCacheMs)
    this.maxima = new ReadCache(readCacheMs)
    this.counts = new ReadCache(readCacheMs)
  }

  private async competition(sport: Sport) {
    const c = await this.competitions.get(sport, () => q.competitionBySport(this.db, sport))
    if (!c) throw notFound('Competition', 'sport')
    return c
  }

  async snapshot(sport: Sport, userId: number, roundNumber?: number): Promise<Snapshot> {
    const c = await this.competition(sport)
    const round = roundNumber ?? (await q.currentRoundNumber(this.db, c.id)) ?? 1
    const roundId = await q.roundIdByNumber(this.db, c.id, round)
    if (roundId === undefined) throw notFound('Round', 'round')
    const [score, stand, maxima, total] = await Promise.all([
      q.roundScore(this.db, roundId, userId),
      q.standing(this.db, c.id, userId),
      this.maxima.get(String(c.id), () => q.maxPointsByRound(this.db, c.id)),
      this.counts.get(String(c.id), () => q.registeredCount(this.db, c.id)),
    ])
    return {
      round_points: score?.points ?? 0,
      overall_points: stand?.total_points ?? 0,
      overall_rank: stand?.rank ?? 0,
      round,
      max_round_points: maxima.find((m) => m.number === round)?.max_points ?? 0,
      max_total_points: maxima.reduce((sum, m) => sum + m.max_points, 0),
      total_users: total,
    }
  }

  async rankings(sport: Sport, userId: number, query: RankingsQuery): Promise<RankingsResponse> {
    const c = await this.competition(sport)
    let roundId: number | null = null
    if (query.round !== undefined) {
      roundId = (await q.roundIdByNumber(this.db, c.id, query.round)) ?? null
      if (roundId === null) throw notFound('Round', 'round')
    }
    const available = await q.hasCompletedMatch(this.db, c.id)
    if (!available) return { rankings: [], nextPage: null, user: null, available }
    const base = { competitionId: c.id, roundId, limit: query.limit }
    const [rows, own] = await Promise.all([
      q.rankingPage(this.db, {
        ...base,
        search: query.search ?? null,
        offset: (query.page - 1) * query.limit,
      }),
      q.rankingPage(this.db, { ...base, search: null, offset: 0, onlyUserId: userId }),
    ])
    return {
      rankings: rows.slice(0, query.limit).map(toRow),
      nextPage: rows.length > query.limit ? query.page + 1 : null,
      user: own[0] ? toRow(own[0]) : null,
      available,
    }
  }

  async dashboard(userId: number): Promise<Dashboard> {
    const sports: Dashboard['sports'] = []
    for (const sport of SPORTS) {
      const c = await q.competitionBySport(this.db, sport)
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
