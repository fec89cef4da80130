import type { Database } from '../../db/schema.ts'
import { Batcher, byScope } from '../../batch.ts'
import { ReadCache, StaleWhileRebuild } from '../../read-cache.ts'
import { KeptLeague, type LadderView } from './kept-league.ts'
import * as q from './queries.ts'

export type LeagueRow = NonNullable<Awaited<ReturnType<typeof q.findLeague>>>
/** A view of a league's whole ladder, and the scores version it was built at. */
export type Ladder = LadderView

/** The ladder a read asks for: the league, its start round, overall (round null) or one round. */
export interface LadderKey {
  competitionId: number
  leagueId: number
  startRound: number
  round: number | null
  /** What the ladder is built from: new scores are seen at once, joins of a big league later. */
  scoresVersion: number
  numUsers: number
}

/** Members above which a league's ladder is rebuilt behind its readers (it takes seconds). */
export const BIG_LEAGUE = 1000

/** The scores version part of a big ladder's version (`${scoresVersion}:${numUsers}`). */
const scoresOf = (version: string): number => Number(version.split(':')[0])

/**
 * The members a process keeps of its big leagues, every view of their ladders together (about
 * 20 MB per 100,000 members in a season of 14 rounds, kept-league.ts KeptLeague): the two
 * 100,000-member public leagues and a few more. Past it the league read least recently goes,
 * and its next reader waits for a build (decision 038).
 */
export const BIG_LEAGUE_MEMBERS_KEPT = 500_000

/** Big leagues whose overall ladders are built ahead of their readers (the largest first). */
export const WARM_LEAGUES_MAX = 10

/**
 * How long a big league's ladder may miss members who joined or left (its scores are never
 * older than the last scoring run plus one rebuild).
 */
export const BIG_LADDER_MEMBERS_MAX_AGE_MS = 60_000

/**
 * When a big league's kept read (versioned `${scoresVersion}:${numUsers}`) is rebuilt for a
 * reader at `scoresVersion`: newer scores at once; only members after a while; never back to
 * older scores (a reader holding an older version of the competition than the warm-up read).
 * StaleWhileRebuild's `due` for the kept league, which its ladder and My season's league chart
 * are both drawn from.
 */
const bigLeagueRebuildDue =
  (scoresVersion: number) =>
  (builtAt: number, held: string): boolean =>
    scoresOf(held) < scoresVersion ||
    (scoresOf(held) === scoresVersion && Date.now() - builtAt > BIG_LADDER_MEMBERS_MAX_AGE_MS)

/**
 * How the ladder read keeps up with a deadline crowd (decision 009), apart from the league rules:
 * the league row of requests arriving together in one query; each league's members' round
 * scores read in one statement and kept once for every view of its ladder (decision 038): a
 * small league's for READ_CACHE_MS at a scores version and member count, a big league's rebuilt
 * behind its readers, built once however many ask, ahead of them at start-up and after each
 * result (`warmBig`), and served at the previous scores version while the next one builds
 * (decision 020).
 */
export class LeaguesReads {
  private readonly ladders: ReadCache<KeptLeague>
  private readonly bigLeagues: StaleWhileRebuild<KeptLeague>

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
    bigLeagueMembersKept = BIG_LEAGUE_MEMBERS_KEPT,
  ) {
    this.ladders = new ReadCache(readCacheMs)
    this.bigLeagues = new StaleWhileRebuild<KeptLeague>(20, {
      weigh: (league) => league.size,
      maxWeight: bigLeagueMembersKept,
    })
  }

  /** The members held of big leagues, every view together (tests). */
  bigLeagueMembersHeld(): number {
    return this.bigLeagues.heldWeight()
  }

  /** The league as the user sees it (is_member for them), never cached. */
  league(competitionId: number, leagueId: number, userId: number) {
    return this.seen.get(`${competitionId}:${leagueId}:${userId}`)
  }

  /**
   * The league's whole ladder (every page and every member's own row come from it), from its
   * start round, overall or for one round. `scoresVersion` and `numUsers` say what it is built
   * from: new scores are seen at once, joins and leaves of a big league within
   * BIG_LADDER_MEMBERS_MAX_AGE_MS. A big league's answer may be the previous scores version
   * while the new one builds; `Ladder.scoresVersion` says which.
   */
  async ladder(l: LadderKey): Promise<Ladder> {
    return (await this.kept(l)).view(l.round)
  }

  /**
   * The league as kept for its ladder (the same object for all its views while it is held): My
   * season's league chart is drawn from it too (season/league.ts), so a big league's chart is
   * built with its ladder, ahead of its readers, and never read from the database on its own.
   */
  kept(l: Omit<LadderKey, 'round'>): Promise<KeptLeague> {
    return this.isBig(l)
      ? this.bigLeagues.get(
          this.keyOf(l),
          this.versionOf(l),
          this.builder(l),
          bigLeagueRebuildDue(l.scoresVersion),
        )
      : this.ladders.get(`${this.keyOf(l)}:${this.versionOf(l)}`, this.builder(l))
  }

  /**
   * Builds the overall ladders of the competition's biggest leagues (more than BIG_LEAGUE
   * members, at most WARM_LEAGUES_MAX) at `scoresVersion`, one after another, so that no reader
   * waits seconds for a cold one: at start-up and when a result moved the scores (app.ts). A
   * ladder already held at this version is left alone; a ladder that is building is waited for,
   * not built twice. Uses the index on leagues (competition_id) and reads a handful of rows.
   */
  async warmBig(competitionId: number, scoresVersion: number): Promise<number> {
    if (this.readCacheMs <= 0) return 0
    const big = await q.biggestLeagues(this.db, competitionId, BIG_LEAGUE, WARM_LEAGUES_MAX)
    let built = 0
    for (const league of big) {
      const l: LadderKey = {
        competitionId,
        leagueId: league.id,
        startRound: league.start_round,
        round: null,
        scoresVersion,
        numUsers: league.num_users,
      }
      const before = this.bigLeagues.versionOf(this.keyOf(l))
      // Only the scores decide: a membership change alone waits for its readers (60 s policy).
      if (before !== undefined && scoresOf(before) >= scoresVersion) continue
      await this.bigLeagues.warm(this.keyOf(l), this.versionOf(l), this.builder(l))
      built++
    }
    return built
  }

  private isBig(l: Omit<LadderKey, 'round'>): boolean {
    return l.numUsers > BIG_LEAGUE && this.readCacheMs > 0
  }

  /** A league is kept once for all the views of its ladder (decision 038). */
  private keyOf(l: Omit<LadderKey, 'round'>): string {
    return `${l.leagueId}:${l.startRound}`
  }

  private versionOf(l: Omit<LadderKey, 'round'>): string {
    return `${l.scoresVersion}:${l.numUsers}`
  }

  private builder(l: Omit<LadderKey, 'round'>): () => Promise<KeptLeague> {
    return async () =>
      new KeptLeague(
        await q.leagueScores(this.db, { competitionId: l.competitionId, leagueId: l.leagueId }),
        l.startRound,
        l.scoresVersion,
      )
  }
}
