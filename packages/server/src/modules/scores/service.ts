import type { Sport } from '@tipping/contract/constants'
import { SPORTS } from '@tipping/contract/constants'
import type { Dashboard, RankingsQuery, RankingsResponse, Snapshot } from '@tipping/contract/scores'
import type { Database } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { Batcher, byScope } from '../../batch.ts'
import { ReadCache } from '../../read-cache.ts'
import { isRegistered } from '../predictions/service.ts'
import * as q from './queries.ts'
import { toRankingRow } from './ranking-row.ts'

type PageRow = Awaited<ReturnType<typeof q.searchRankings>>['rows'][number]
/** A page of rankings rows as JSON text (RankingRow[]), and whether a later page has rows. */
type JsonPage = { json: string; more: boolean }
type Mine = Awaited<ReturnType<typeof q.snapshotScores>>[number]

/** The rankings answer with its page of rows as JSON text, as the database wrote it. */
export type RankingsReply = Omit<RankingsResponse, 'rankings'> & { rankingsJson: string }

const PAGE_CACHE_ENTRIES = 5_000

const toRow = (r: PageRow) => toRankingRow({ ...r, user_id: r.id })

/** Reads of the scores the scoring job wrote: snapshot, rankings, dashboard. */
export class ScoresService {
  private readonly competitions: ReadCache<Awaited<ReturnType<typeof q.competitionBySport>>>
  private readonly maxima: ReadCache<Awaited<ReturnType<typeof q.maxPointsByRound>>>
  private readonly counts: ReadCache<number>
  private readonly roundIds: ReadCache<number | undefined>
  private readonly currentRounds: ReadCache<number | null>
  private readonly started: ReadCache<boolean>
  // Per-user reads of requests arriving together, one query per competition and round.
  private readonly mine = new Batcher<string, Mine>(async (keys) => {
    const found = new Map<string, Mine>()
    for (const [scope, group] of byScope(keys)) {
      const [c, r] = scope.split(':').map(Number) as [number, number]
      for (const row of await q.snapshotScores(
        this.db,
        c,
        r,
        group.map((k) => k.n),
      ))
        found.set(`${scope}:${row.user_id}`, row)
    }
    return found
  })
  /** `${competitionId}:${roundId}:${limit}:${offset}` -> a page of the rankings. */
  private readonly pages = new Batcher<string, JsonPage>(async (keys) => {
    const found = new Map<string, JsonPage>()
    for (const [scope, group] of byScope(keys)) {
      const [c, r, limit] = scope.split(':')
      const pages = await q.rankingPagesJson(
        this.db,
        Number(c),
        r === '' ? null : Number(r),
        Number(limit),
        group.map((k) => k.n),
      )
      for (const [offset, page] of pages) found.set(`${scope}:${offset}`, page)
    }
    return found
  })
  private readonly ownRows = new Batcher<string, PageRow>(async (keys) => {
    const found = new Map<string, PageRow>()
    for (const [scope, group] of byScope(keys)) {
      const [c, r] = scope.split(':')
      const roundId = r === '' ? null : Number(r)
      for (const row of await q.ownRankingRows(
        this.db,
        Number(c),
        roundId,
        group.map((k) => k.n),
      ))
        found.set(`${scope}:${row.id}`, row)
    }
    return found
  })

  /**
   * Pages of the rankings as they stood at a scores version (a re-score moves to a new one), kept
   * up to pageCacheMs (read-cache.ts: then answered stale while they reload), so renamed or
   * deactivated tippers show within twice that time. Bounded: at a
   * million tippers there are 50,000 pages, and a page is a few kilobytes.
   */
  private readonly pageCache: ReadCache<JsonPage>

  /**
   * Tipper counts, round maxima and the current competition (with its scores version) may be
   * readCacheMs old; rankings pages pageCacheMs.
   */
  constructor(
    private readonly db: Database,
    readCacheMs = 0,
    pageCacheMs = 0,
  ) {
    this.pageCache = new ReadCache(pageCacheMs, PAGE_CACHE_ENTRIES)
    this.competitions = new ReadCache(readCacheMs)
    this.maxima = new ReadCache(readCacheMs)
    this.counts = new ReadCache(readCacheMs)
    this.roundIds = new ReadCache(readCacheMs)
    this.currentRounds = new ReadCache(readCacheMs)
    this.started = new ReadCache(readCacheMs)
  }

  private roundId(competitionId: number, round: number) {
    return this.roundIds.get(`${competitionId}:${round}`, () =>
      q.roundIdByNumber(this.db, competitionId, round),
    )
  }

  private async competition(sport: Sport) {
    const c = await this.competitions.get(sport, () => q.competitionBySport(this.db, sport))
    if (!c) throw notFound('Competition', 'sport')
    return c
  }

  async snapshot(sport: Sport, userId: number, roundNumber?: number): Promise<Snapshot> {
    const c = await this.competition(sport)
    const round =
      roundNumber ??
      (await this.currentRounds.get(String(c.id), () => q.currentRoundNumber(this.db, c.id))) ??
      1
    const roundId = await this.roundId(c.id, round)
    if (roundId === undefined) throw notFound('Round', 'round')
    const [mine, maxima, total] = await Promise.all([
      this.mine.get(`${c.id}:${roundId}:${userId}`),
      this.maxima.get(String(c.id), () => q.maxPointsByRound(this.db, c.id)),
      this.counts.get(String(c.id), () => q.registeredCount(this.db, c.id)),
    ])
    return {
      round_points: mine?.round_points ?? 0,
      overall_points: mine?.total_points ?? 0,
      overall_rank: mine?.rank ?? 0,
      round,
      max_round_points: maxima.find((m) => m.number === round)?.max_points ?? 0,
      max_total_points: maxima.reduce((sum, m) => sum + m.max_points, 0),
      total_users: total,
    }
  }

  async rankings(sport: Sport, userId: number, query: RankingsQuery): Promise<RankingsReply> {
    const c = await this.competition(sport)
    let roundId: number | null = null
    if (query.round !== undefined) {
      roundId = (await this.roundId(c.id, query.round)) ?? null
      if (roundId === null) throw notFound('Round', 'round')
    }
    const available = await this.started.get(String(c.id), () => q.hasCompletedMatch(this.db, c.id))
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
        : this.pageCache.get(
            `${c.scores_version}:${c.id}:${roundId ?? ''}:${query.limit}:${offset}`,
            async () =>
              (await this.pages.get(`${c.id}:${roundId ?? ''}:${query.limit}:${offset}`)) ?? {
                json: '[]',
                more: false,
              },
          ),
      this.ownRows.get(`${c.id}:${roundId ?? ''}:${userId}`),
    ])
    return {
      rankingsJson: page.json,
      nextPage: page.more ? query.page + 1 : null,
      user: own ? toRow(own) : null,
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
