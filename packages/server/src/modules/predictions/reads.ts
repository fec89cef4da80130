import type { Match } from '@tipping/contract/predictions'
import { type RoundNumber, asMatchId, asSquadId } from '@tipping/contract/ids'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import { pickSplit } from '@tipping/contract/rules/picks'
import { effectiveStatus } from '@tipping/contract/rules/status'
import type { Database } from '../../db/schema.ts'
import { Batcher, byScope } from '../../batch.ts'
import { ReadCache, StaleWhileRebuild } from '../../read-cache.ts'
import * as q from './queries.ts'

type PickCounts = Awaited<ReturnType<typeof q.roundPickCounts>>

/** Rounds whose counts are kept: a season's rounds of both competitions, with room to spare. */
const PICK_COUNT_ROUNDS = 100

/** A round and its matches, the same for every tipper. */
export interface Fixture {
  round: NonNullable<Awaited<ReturnType<typeof q.roundByNumber>>>
  matches: q.MatchRecord[]
}

/**
 * How the round read keeps up with a deadline crowd (decision 009), apart from its rules: shared
 * caches of what is the same for every tipper, one query for the tips of the tippers whose
 * requests arrive together, and a round's matches built and serialised once for all of them.
 */
export class PredictionsReads {
  private readonly fixtures: ReadCache<Fixture | null>
  /**
   * Per round, its pick counts, rebuilt behind the readers once PICK_COUNTS_CACHE_MS old
   * (decision 032): a count takes seconds at a million tippers, longer than the TTL on a slow
   * box, and a reader must never wait for one once the round has a count.
   */
  private readonly pickCounts = new StaleWhileRebuild<PickCounts>(PICK_COUNT_ROUNDS)

  /** `${roundId}:${userId}` -> that user's tips in the round, for requests arriving together. */
  private readonly tips = new Batcher<string, q.TipRecord[]>(async (keys) => {
    const found = new Map<string, q.TipRecord[]>(keys.map((k) => [k, []]))
    for (const [scope, group] of byScope(keys)) {
      const roundId = Number(scope)
      const rows = await q.usersRoundTips(
        this.db,
        roundId,
        group.map((k) => k.n),
      )
      for (const { user_id, ...tip } of rows) found.get(`${roundId}:${user_id}`)?.push(tip)
    }
    return found
  })

  private readonly matchesMemo = new WeakMap<
    readonly q.MatchRecord[],
    WeakMap<object, { statuses: string; dtos: Match[]; json: string }>
  >()

  constructor(
    private readonly db: Database,
    /** The round and its matches may be this old (READ_CACHE_MS). */
    readCacheMs: number,
    /** Pick percentages may be this old: counting a round's tips takes seconds at 1M tippers. */
    private readonly pickCountsMs: number,
    /** Counts a round (tests slow it down or count it by hand). */
    private readonly countRound: (roundId: number) => Promise<PickCounts> = (roundId) =>
      q.roundPickCounts(db, roundId),
  ) {
    this.fixtures = new ReadCache(readCacheMs)
  }

  /** The round by number and its matches; shared, READ_CACHE_MS old at most. */
  fixture(competitionId: number, roundNumber: RoundNumber): Promise<Fixture | null> {
    return this.fixtures.get(`${competitionId}:${roundNumber}`, async () => {
      const round = await q.roundByNumber(this.db, competitionId, roundNumber)
      return round ? { round, matches: await q.roundMatches(this.db, round.id) } : null
    })
  }

  /** The user's tips in the round, never cached: a tipper always sees their own saves. */
  async roundTips(roundId: number, userId: number): Promise<q.TipRecord[]> {
    return (await this.tips.get(`${roundId}:${userId}`)) ?? []
  }

  /**
   * How many tippers picked each squad of the round's matches, rebuilt behind the readers once
   * PICK_COUNTS_CACHE_MS old: the held counts are answered however long the rebuild takes. A
   * round with no count yet has one build, shared by every reader meanwhile and by the warm-up.
   */
  roundPickCounts(roundId: number): Promise<PickCounts> {
    if (this.pickCountsMs <= 0) return this.countRound(roundId)
    // Kept by age, not by what it was built from: every call passes a new "version" (the time),
    // and `due` decides whether the held counts are old enough to recount.
    return this.pickCounts.get(String(roundId), String(Date.now()), this.counter(roundId), (at) =>
      this.olderThan(at, this.pickCountsMs),
    )
  }

  /**
   * Counts the given rounds ahead of their readers, one at a time, if they have no count yet (a
   * round that has just opened, or every open round when the process starts). Run every half
   * PICK_COUNTS_CACHE_MS (warmPickCounts in the service). A counted round is recounted by its
   * readers instead, behind them, once its count is a TTL old: a round nobody reads is never
   * counted again, and one being read is counted no more often than before this warm-up existed.
   * At a million tippers each count is about 0.5 s of a database core (2 s before the app's
   * sessions ran without JIT, decision 040); a first version that also
   * recounted every open round each half TTL, read or not, doubled that work for nothing
   * (bench/README.md, 2026-11-27). Never rejects.
   */
  async warmPickCounts(roundIds: readonly number[]): Promise<void> {
    if (this.pickCountsMs <= 0) return
    for (const roundId of roundIds)
      await this.pickCounts.warm(
        String(roundId),
        String(Date.now()),
        this.counter(roundId),
        () => false,
      )
  }

  private counter(roundId: number): () => Promise<PickCounts> {
    return () => this.countRound(roundId)
  }

  private olderThan(builtAt: number, ms: number): boolean {
    return Date.now() - builtAt >= ms
  }

  /**
   * A round's matches with their pick split, the same for every tipper until the fixture or the
   * counts reload or a match's status moves: kept with their JSON text, which the route splices
   * into each answer. Building and serialising the matches per request was a large share of the
   * API's work on this read, the most asked-for in a deadline rush.
   */
  sharedMatches(
    matches: readonly q.MatchRecord[],
    counts: PickCounts,
    now: Date,
  ): { dtos: Match[]; json: string } {
    const statuses = matches.map((m) => effectiveStatus(m.status, m.starts_at, now)).join()
    let byCounts = this.matchesMemo.get(matches)
    if (!byCounts) this.matchesMemo.set(matches, (byCounts = new WeakMap()))
    const kept = byCounts.get(counts)
    if (kept?.statuses === statuses) return kept
    const dtos = matches.map((m) => toMatch(m, counts, now))
    const made = { statuses, dtos, json: JSON.stringify(dtos) }
    byCounts.set(counts, made)
    return made
  }
}

/** A match as the contract shows it, its status judged by the clock, with its pick split. */
export function toMatch(
  m: q.MatchRecord,
  counts: readonly { match_id: number; squad_id: number; picks: number }[],
  now: Date,
): Match {
  return {
    id: asMatchId(m.id),
    number: m.number,
    status: effectiveStatus(m.status, m.starts_at, now),
    date: m.starts_at.toISOString(),
    homeSquadId: asSquadId(m.home_squad_id),
    awaySquadId: asSquadId(m.away_squad_id),
    homeRuns: m.home_runs,
    awayRuns: m.away_runs,
    homeWicketsFallen: m.home_wickets,
    awayWicketsFallen: m.away_wickets,
    homeOvers: m.home_balls === null ? null : oversFromBalls(m.home_balls),
    awayOvers: m.away_balls === null ? null : oversFromBalls(m.away_balls),
    venueId: m.venue_id,
    class: m.match_class,
    isMarginGame: m.is_margin_game,
    winnerSquadId: m.winner_squad_id === null ? null : asSquadId(m.winner_squad_id),
    outcome: m.outcome,
    sixes: m.sixes,
    ...matchPickSplit(m, counts),
    lockedAt: m.locked_at === null ? null : new Date(m.locked_at).toISOString(),
  }
}

/**
 * A match's pick split from its round's counts (roundPickCounts): the round read and the push
 * channel's `picks` event (live/pick-split.ts) both show this.
 */
export function matchPickSplit(
  m: { id: number; home_squad_id: number; away_squad_id: number },
  counts: readonly { match_id: number; squad_id: number; picks: number }[],
): { home_percent: number; away_percent: number } {
  const mine = counts.filter((c) => c.match_id === m.id)
  const home = mine.find((c) => c.squad_id === m.home_squad_id)?.picks ?? 0
  const away = mine.find((c) => c.squad_id === m.away_squad_id)?.picks ?? 0
  return pickSplit(home, away)
}
