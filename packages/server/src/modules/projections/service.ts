import type { Sport } from '@tipping/contract/constants'
import { asRoundNumber, type RoundNumber } from '@tipping/contract/ids'
import type {
  LiveRankQuery,
  LiveRankResponse,
  LiveStandingResponse,
} from '@tipping/contract/projections'
import { rankIn, type ScoreGroup } from '@tipping/contract/rules/projections'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import type { CurrentCompetitions } from '../competitions/service.ts'
import type { LeaguesService } from '../leagues/service.ts'
import * as q from './queries.ts'

// GAME_RULES "Live projections", the ranking half (the page projects its own points with the
// contract's rules/projections.ts). A rank needs everyone's projected totals, and they change
// only with the scores (scoresVersion) and, on the margin game, the live sixes: so each
// (competition, version, match, sixes) is computed once, both sides in one statement, and kept
// in memory; every lookup after that is arithmetic on a few hundred (points, margin) groups.

/** Projected totals counted by (points, margin), per side, and how many tippers they cover. */
interface Distribution {
  sides: Map<number, ScoreGroup[]>
  total: number
}

/** The facts of a match that do not change while it is live, for the cache key. */
interface MatchFacts {
  roundNumber: number
  isMarginGame: boolean
  sides: [number, number]
}

/**
 * A small least-recently-used map of promises: concurrent misses share one load, a failed load is
 * forgotten. Entries never go stale, since every key names the data its value came from.
 */
class Lru<V> {
  private readonly entries = new Map<string, Promise<V>>()
  constructor(private readonly max: number) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit
    }
    const value = load()
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key)
    })
    return value
  }
}

/** A few live matches at a time, a few dozen sixes counts each: every one of a round fits. */
const OVERALL_ENTRIES = 64
const LEAGUE_ENTRIES = 1024
const FACT_ENTRIES = 256

const toDistribution = (rows: (ScoreGroup & { side: number })[], sides: number[]) => {
  const map = new Map<number, ScoreGroup[]>(sides.map((s) => [s, []]))
  for (const { side, points, margin, count } of rows) map.get(side)?.push({ points, margin, count })
  const first = map.get(sides[0]!) ?? []
  return { sides: map, total: first.reduce((n, g) => n + g.count, 0) }
}

export class ProjectionsService {
  private readonly facts = new Lru<MatchFacts>(FACT_ENTRIES)
  private readonly overall = new Lru<Distribution>(OVERALL_ENTRIES)
  private readonly leagueDistributions = new Lru<Distribution>(LEAGUE_ENTRIES)

  constructor(
    private readonly db: Database,
    private readonly competitions: CurrentCompetitions,
    private readonly leagues: LeaguesService,
  ) {}

  /** Where projected season totals would rank overall, answered from memory once computed. */
  async rank(sport: Sport, round: RoundNumber, query: LiveRankQuery): Promise<LiveRankResponse> {
    const c = await this.competitions.get(sport)
    const facts = await this.matchFacts(c.id, round, query)
    const sixes = this.sixesOf(facts, query)
    const d = await this.overall.get(`${c.id}:${query.v}:${query.match}:${sixes ?? ''}`, () =>
      this.compute(c.id, query, facts, (trx, live) =>
        q.overallDistribution(trx, {
          competitionId: c.id,
          roundId: live.round_id,
          matchId: query.match,
          sides: facts.sides,
          sixes: sixes ?? 0,
        }),
      ),
    )
    return this.lookup(d, query)
  }

  /** Where projected league totals would place the caller on the league's ladder (members). */
  async leagueRank(
    sport: Sport,
    userId: number,
    leagueId: number,
    query: LiveRankQuery & { round: RoundNumber },
  ): Promise<LiveRankResponse> {
    const league = await this.leagues.forLiveRank(sport, leagueId, userId)
    const facts = await this.matchFacts(league.competitionId, query.round, query)
    const sixes = this.sixesOf(facts, query)
    const key = `${league.competitionId}:${query.v}:${leagueId}:${league.numUsers}:${query.match}:${sixes ?? ''}`
    const d = await this.leagueDistributions.get(key, () =>
      this.compute(league.competitionId, query, facts, (trx, live) =>
        q.leagueDistribution(trx, {
          competitionId: league.competitionId,
          roundId: live.round_id,
          roundNumber: live.round_number,
          matchId: query.match,
          sides: facts.sides,
          sixes: sixes ?? 0,
          leagueId,
          startRound: league.startRound,
        }),
      ),
    )
    return this.lookup(d, query)
  }

  /** The caller's stored numbers a page projects from (read when the scores change). */
  async standing(sport: Sport, userId: number, round: RoundNumber): Promise<LiveStandingResponse> {
    const c = await this.competitions.get(sport)
    // One snapshot, so the version names the numbers beside it. A read: PostgreSQL does not abort
    // one to break a deadlock, so there is nothing to run again (inTransaction).
    // eslint-disable-next-line no-restricted-syntax
    const { mine, leagues } = await this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => q.storedStanding(trx, { competitionId: c.id, roundNumber: round, userId }))
    return {
      scoresVersion: mine.scores_version,
      round: { points: mine.round_points, margin: mine.round_margin },
      total: { points: mine.total_points, margin: mine.total_margin },
      leagues: leagues.map((l) => ({
        id: l.id,
        name: l.name,
        startRound: asRoundNumber(l.start_round),
        points: l.points,
        margin: l.margin,
      })),
    }
  }

  private matchFacts(competitionId: number, round: RoundNumber, query: LiveRankQuery) {
    return this.facts
      .get(`${competitionId}:${query.v}:${query.match}`, async () => {
        const m = await q.liveMatchFacts(this.db, competitionId, query.match)
        if (!m) throw notFound('Match', 'match')
        return {
          roundNumber: m.round_number,
          isMarginGame: m.is_margin_game,
          sides: [m.home_squad_id, m.away_squad_id] as [number, number],
        }
      })
      .then((facts) => {
        if (facts.roundNumber !== round) throw notFound('Match', 'match')
        if (!facts.sides.includes(query.side))
          throw new AppError('VALIDATION', 'The side is one of the match’s two squads', 'side')
        return facts
      })
  }

  /** The sixes that key the distribution: the live count on the margin game, else none. */
  private sixesOf(facts: MatchFacts, query: LiveRankQuery): number | null {
    if (!facts.isMarginGame) return null
    if (query.sixes === undefined)
      throw new AppError('VALIDATION', 'The margin game’s sixes so far are required', 'sixes')
    return query.sixes
  }

  /**
   * Computes a distribution in one snapshot, after checking that it is what the key names: the
   * scores at version `v`, the match live, and on the margin game the live sixes as asked. A
   * lookup for anything else is a 409 naming the field, and nothing is kept for it.
   */
  private async compute(
    competitionId: number,
    query: LiveRankQuery,
    facts: MatchFacts,
    build: (
      trx: Database,
      live: NonNullable<Awaited<ReturnType<typeof q.liveMatchFacts>>>,
    ) => Promise<(ScoreGroup & { side: number })[]>,
  ): Promise<Distribution> {
    // A read in one snapshot, as in standing().
    // eslint-disable-next-line no-restricted-syntax
    const rows = await this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const version = await q.scoresVersionOf(trx, competitionId)
        if (version !== query.v)
          throw new AppError('CONFLICT', `The scores are at version ${version}`, 'v')
        const live = await q.liveMatchFacts(trx, competitionId, query.match)
        if (!live) throw notFound('Match', 'match')
        if (live.status !== 'active')
          throw new AppError('CONFLICT', 'The match is not live', 'match')
        if (facts.isMarginGame && (live.live_sixes ?? 0) !== query.sixes)
          throw new AppError('CONFLICT', `The live sixes are ${live.live_sixes ?? 0}`, 'sixes')
        return build(trx, live)
      })
    return toDistribution(rows, facts.sides)
  }

  private lookup(d: Distribution, query: LiveRankQuery): LiveRankResponse {
    return {
      rank: rankIn(d.sides.get(query.side) ?? [], query.totalPoints, query.totalMargin),
      totalUsers: d.total,
    }
  }
}
