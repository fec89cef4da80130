import type { Database } from '../../db/schema.ts'
import { Batcher, byScope } from '../../batch.ts'
import { ReadCache, StaleWhileRebuild } from '../../read-cache.ts'
import * as q from './queries.ts'

export type LeagueRow = NonNullable<Awaited<ReturnType<typeof q.findLeague>>>
type LadderRows = Awaited<ReturnType<typeof q.ladderPage>>
export type Ladder = { all: LadderRows; byUser: Map<number, LadderRows[number]> }

/** Members above which a league's ladder is rebuilt behind its readers (it takes seconds). */
export const BIG_LEAGUE = 1000

/**
 * How long a big league's ladder may miss members who joined or left (its scores are never
 * older than the last scoring run plus one rebuild).
 */
export const BIG_LADDER_MEMBERS_MAX_AGE_MS = 60_000

/**
 * How the ladder read keeps up with a deadline crowd (decision 009), apart from the league rules:
 * the league row of requests arriving together in one query, a small league's whole ladder
 * shared for READ_CACHE_MS at a scores version and member count, and a big league's rebuilt
 * behind its readers.
 */
export class LeaguesReads {
  private readonly ladders: ReadCache<Ladder>
  private readonly bigLadders = new StaleWhileRebuild<Ladder>()

  /** `${competitionId}:${leagueId}:${userId}` -> the league as that user sees it. */
  private readonly seen = new Batcher<string, LeagueRow>(async (keys) => {
    const found = new Map<string, LeagueRow>()
    for (const [scope, group] of byScope(keys)) {
      const [c, l] = scope.split(':').map(Number) as [number, number]
      const league = await q.findLeague(this.db, c, l, 0)
      if (!league) continue
      const users = group.map((k) => k.n)
      const members = new Set(await q.membersAmong(this.db, l, users))
      for (const u of users) found.set(`${scope}:${u}`, { ...league, is_member: members.has(u) })
    }
    return found
  })

  constructor(
    private readonly db: Database,
    /** How long a ladder may be served from memory; 0 computes it every time. */
    private readonly readCacheMs: number,
  ) {
    this.ladders = new ReadCache(readCacheMs)
  }

  /** The league as the user sees it (is_member for them), never cached. */
  league(competitionId: number, leagueId: number, userId: number) {
    return this.seen.get(`${competitionId}:${leagueId}:${userId}`)
  }

  /**
   * The league's whole ladder (every page and every member's own row come from it), from its
   * start round, overall or for one round. `scoresVersion` and `numUsers` say what it is built
   * from: new scores are seen at once, joins and leaves of a big league within
   * BIG_LADDER_MEMBERS_MAX_AGE_MS.
   */
  async ladder(l: {
    competitionId: number
    leagueId: number
    startRound: number
    round: number | null
    scoresVersion: number
    numUsers: number
  }): Promise<Ladder> {
    const build = async (): Promise<Ladder> => {
      const all = await q.ladderPage(this.db, {
        leagueId: l.leagueId,
        competitionId: l.competitionId,
        startRound: l.startRound,
        roundNumber: l.round,
        limit: 10_000_000,
        offset: 0,
      })
      return { all, byUser: new Map(all.map((r) => [r.user_id, r])) }
    }
    const key = `${l.leagueId}:${l.startRound}:${l.round ?? ''}`
    const version = `${l.scoresVersion}:${l.numUsers}`
    if (l.numUsers > BIG_LEAGUE && this.readCacheMs > 0)
      return this.bigLadders.get(
        key,
        version,
        build,
        (builtAt, held) =>
          held.split(':')[0] !== String(l.scoresVersion) ||
          Date.now() - builtAt > BIG_LADDER_MEMBERS_MAX_AGE_MS,
      )
    return this.ladders.get(`${key}:${version}`, build)
  }
}
