import { maxRoundPoints } from '@tipping/contract/rules/scoring'
import type { RoundNumber } from '@tipping/contract/ids'
import type { Database } from '../../db/schema.ts'
import { Batcher, byScope } from '../../batch.ts'
import { ReadCache } from '../../read-cache.ts'
import * as q from './queries.ts'

export type PageRow = Awaited<ReturnType<typeof q.searchRankings>>['rows'][number]
/** A page of rankings rows as JSON text (RankingRow[]), and whether a later page has rows. */
export type JsonPage = { json: string; more: boolean }
export type SnapshotRow = Awaited<ReturnType<typeof q.snapshotScores>>[number]

/**
 * Bounded: at a million tippers there are 50,000 pages of about 3 KB each. Readers come back to
 * the first pages and their own; 5,000 pages (15 MB of the API's heap) held mostly pages read once
 * (bench/README.md, 2026-12-07).
 */
const PAGE_CACHE_ENTRIES = 2_000

/**
 * How the scores reads keep up with a deadline crowd (decision 009), apart from their rules:
 * what is the same for every tipper (round ids, the current round, tipper counts, round maxima,
 * whether any match is over) is shared for READ_CACHE_MS; rankings pages for PAGE_CACHE_MS at a
 * scores version; each tipper's own rows are never cached, and the requests that arrive together
 * share one query per competition and round.
 */
export class ScoresReads {
  private readonly maxima: ReadCache<{ number: number; maxPoints: number }[]>
  private readonly counts: ReadCache<number>
  private readonly roundIds: ReadCache<number | undefined>
  private readonly currentRounds: ReadCache<RoundNumber | null>
  private readonly started: ReadCache<boolean>
  /**
   * Pages as they stood at a scores version (a re-score moves to a new one), kept up to
   * pageCacheMs (then answered stale while they reload), so renamed or deactivated tippers show
   * within twice that time.
   */
  private readonly pageCache: ReadCache<JsonPage>

  /** `${competitionId}:${roundId}:${userId}` -> the user's snapshot row. */
  private readonly mine = new Batcher<string, SnapshotRow>(async (keys) => {
    const found = new Map<string, SnapshotRow>()
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

  /** `${competitionId}:${roundId}:${userId}` -> the user's own rankings row. */
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

  constructor(
    private readonly db: Database,
    readCacheMs: number,
    pageCacheMs: number,
  ) {
    this.pageCache = new ReadCache(pageCacheMs, PAGE_CACHE_ENTRIES)
    this.maxima = new ReadCache(readCacheMs)
    this.counts = new ReadCache(readCacheMs)
    this.roundIds = new ReadCache(readCacheMs)
    this.currentRounds = new ReadCache(readCacheMs)
    this.started = new ReadCache(readCacheMs)
  }

  /**
   * A result changes the current round, whether a match is over and the round maxima: forgotten,
   * so the next read is fresh. Pages are kept: they are keyed by scores version.
   */
  forgetShared(): void {
    this.maxima.clear()
    this.currentRounds.clear()
    this.started.clear()
  }

  roundId(competitionId: number, round: RoundNumber): Promise<number | undefined> {
    return this.roundIds.get(`${competitionId}:${round}`, () =>
      q.roundIdByNumber(this.db, competitionId, round),
    )
  }

  currentRound(competitionId: number): Promise<RoundNumber | null> {
    return this.currentRounds.get(String(competitionId), () =>
      q.currentRoundNumber(this.db, competitionId),
    )
  }

  registeredCount(competitionId: number): Promise<number> {
    return this.counts.get(String(competitionId), () => q.registeredCount(this.db, competitionId))
  }

  hasCompletedMatch(competitionId: number): Promise<boolean> {
    return this.started.get(String(competitionId), () =>
      q.hasCompletedMatch(this.db, competitionId),
    )
  }

  /** The most points each round could have given so far, by the scoring reference's rule. */
  maxPoints(competitionId: number): Promise<{ number: number; maxPoints: number }[]> {
    return this.maxima.get(String(competitionId), async () =>
      (await q.roundResults(this.db, competitionId)).map((r) => ({
        number: r.number,
        maxPoints: maxRoundPoints(r.matches, r.golden),
      })),
    )
  }

  /** The user's snapshot row in the round (never cached), or undefined before they are scored. */
  snapshotRow(competitionId: number, roundId: number, userId: number) {
    return this.mine.get(`${competitionId}:${roundId}:${userId}`)
  }

  /** The user's own rankings row (never cached), overall when `roundId` is null. */
  ownRow(competitionId: number, roundId: number | null, userId: number) {
    return this.ownRows.get(`${competitionId}:${roundId ?? ''}:${userId}`)
  }

  /** A page of the rankings as JSON text, as it stood at `scoresVersion`. */
  page(
    scoresVersion: number,
    competitionId: number,
    roundId: number | null,
    limit: number,
    offset: number,
  ): Promise<JsonPage> {
    const scope = `${competitionId}:${roundId ?? ''}:${limit}`
    return this.pageCache.get(
      `${scoresVersion}:${scope}:${offset}`,
      async () => (await this.pages.get(`${scope}:${offset}`)) ?? { json: '[]', more: false },
    )
  }
}
