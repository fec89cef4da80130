import type { Sport } from '@tipping/contract/constants'
import { asRoundNumber } from '@tipping/contract/ids'
import { averageOf } from '@tipping/contract/rules/season'
import type { SeasonLeague } from '@tipping/contract/season'
import { Batcher, byScope } from '../../batch.ts'
import type { Database } from '../../db/schema.ts'
import { ReadCache, StaleWhileRebuild } from '../../read-cache.ts'
import { BIG_LEAGUE, bigLeagueRebuildDue, type LeaguesService } from '../leagues/service.ts'
import { groupsOf, rankIn, type RoundGroups } from './history.ts'
import * as q from './queries.ts'

/**
 * My season's "the same for each of my leagues" (issue 31): the caller's points per round against
 * the league's average and best, and their rank in the league after each round. Only a member
 * reads it (LeaguesService.forLiveRank: a private league is not found, a public one's visitor is
 * refused, as for a place on its ladder). The league's groups (queries.ts leagueGroupRows) are kept like
 * its ladder (decision 009): keyed by the scores version (a result, a registration or a
 * deactivation bumps it) and the member count, so a result shows at once; READ_CACHE_MS bounds
 * how long a join or leave takes to show. The caller's own totals are read fresh from their rows.
 */
type OwnRow = Awaited<ReturnType<typeof q.usersRoundScores>>[number]

interface Kept {
  played: number[]
  groups: Map<number, RoundGroups>
}

export class SeasonLeagues {
  private readonly groups: ReadCache<Kept>
  /**
   * A big league's groups (over BIG_LEAGUE members: seconds of SQL at 100,000 members, 3.8 s
   * measured at 1M), rebuilt behind their readers as its ladder is (decision 020): with the
   * TTL cache every reader waited for a rebuild each READ_CACHE_MS (p99 4.9 s in the bench).
   */
  private readonly bigGroups = new StaleWhileRebuild<Kept>()

  /**
   * `${competitionId}:${userId}` -> the caller's round scores: the requests of one turn of the
   * event loop share one statement (decision 037). A tipper without rows resolves to none.
   */
  private readonly own = new Batcher<string, OwnRow[]>(async (keys) => {
    const found = new Map<string, OwnRow[]>()
    for (const [scope, group] of byScope(keys)) {
      const rows = await q.usersRoundScores(
        this.db,
        Number(scope),
        group.map((k) => k.n),
      )
      for (const row of rows) {
        const key = `${scope}:${row.user_id}`
        const list = found.get(key)
        if (list) list.push(row)
        else found.set(key, [row])
      }
    }
    return found
  })

  constructor(
    private readonly db: Database,
    private readonly leagues: Pick<LeaguesService, 'forLiveRank'>,
    private readonly readCacheMs: number,
  ) {
    this.groups = new ReadCache(readCacheMs)
  }

  async league(sport: Sport, userId: number, leagueId: number): Promise<SeasonLeague> {
    const l = await this.leagues.forLiveRank(sport, leagueId, userId)
    const key = `${leagueId}:${l.startRound}:${l.scoresVersion}:${l.numUsers}`
    const build = async (): Promise<Kept> => {
      const at = { competitionId: l.competitionId, leagueId, startRound: l.startRound }
      const [played, rows] = await Promise.all([
        q.leaguePlayedRounds(this.db, l.competitionId, l.startRound),
        q.leagueGroupRows(this.db, at),
      ])
      return { played, groups: groupsOf(rows) }
    }
    const [kept, mine] = await Promise.all([
      l.numUsers > BIG_LEAGUE && this.readCacheMs > 0
        ? this.bigGroups.get(
            `${leagueId}:${l.startRound}`,
            `${l.scoresVersion}:${l.numUsers}`,
            build,
            bigLeagueRebuildDue(l.scoresVersion),
          )
        : this.groups.get(key, build),
      this.own.get(`${l.competitionId}:${userId}`).then((rows) => rows ?? []),
    ])
    const ranked = mine.length > 0 && mine[0]!.active
    let points = 0
    let margin = 0
    return {
      league: { id: leagueId, name: l.name, startRound: asRoundNumber(l.startRound) },
      rounds: kept.played.map((number) => {
        const g = kept.groups.get(number)
        const own = mine.find((r) => r.number === number)
        points += own?.points ?? 0
        margin += own?.margin ?? 0
        return {
          round: asRoundNumber(number),
          points: own?.points ?? 0,
          tippers: g?.tippers ?? 0,
          average: averageOf(g?.total ?? 0, g?.tippers ?? 0),
          best: g?.best ?? 0,
          // 1 + the members strictly ahead through this round (RANK()).
          rank: ranked && g ? rankIn(g, points, margin) : null,
        }
      }),
    }
  }
}
