import type { Sport } from '@tipping/contract/constants'
import { asRoundNumber } from '@tipping/contract/ids'
import { averageOf } from '@tipping/contract/rules/season'
import type { SeasonLeague } from '@tipping/contract/season'
import { Batcher, byScope } from '../../batch.ts'
import type { Database } from '../../db/schema.ts'
import type { KeptLeague, LeaguesService } from '../leagues/service.ts'
import { groupsOf, rankIn, type RoundGroups } from './history.ts'
import * as q from './queries.ts'

/**
 * My season's "the same for each of my leagues" (issue 31): the caller's points per round against
 * the league's average and best, and their rank in the league after each round. Only a member
 * reads it (LeaguesService.forLiveRank: a private league is not found, a public one's visitor is
 * refused, as for a place on its ladder). The league's groups are worked out in the process from
 * the league as its ladder keeps it (LeaguesService.keptLeague, KeptLeague.chartGroups), once per
 * kept league: a result shows when the ladder shows it, and a big league's chart is built with
 * its ladder, ahead of its readers, at start-up and after each result (decision 020). The
 * caller's own totals are read fresh from their rows.
 */
type OwnRow = Awaited<ReturnType<typeof q.usersRoundScores>>[number]

interface Kept {
  played: number[]
  groups: Map<number, RoundGroups>
}

export class SeasonLeagues {
  /** Each kept league's chart, worked out the first time it is read; goes with the league. */
  private readonly charts = new WeakMap<KeptLeague, Promise<Kept>>()

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
    private readonly leagues: Pick<LeaguesService, 'forLiveRank' | 'keptLeague'>,
  ) {}

  async league(sport: Sport, userId: number, leagueId: number): Promise<SeasonLeague> {
    const l = await this.leagues.forLiveRank(sport, leagueId, userId)
    const [kept, mine] = await Promise.all([
      this.leagues
        .keptLeague({ ...l, leagueId })
        .then((league) => this.chartOf(league, l.competitionId, l.startRound)),
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

  /**
   * The league's rounds from its start round with a completed match, and its groups in them.
   * The rounds are read when the chart is first worked out. A big league's kept ladder may be
   * the previous scores version while the next builds (seconds after a result): a round that
   * result first played then shows no groups in it until the next version is kept.
   */
  private chartOf(league: KeptLeague, competitionId: number, startRound: number): Promise<Kept> {
    let chart = this.charts.get(league)
    if (!chart) {
      chart = q.leaguePlayedRounds(this.db, competitionId, startRound).then((played) => ({
        played,
        groups: groupsOf(league.chartGroups(played)),
      }))
      this.charts.set(league, chart)
      // a failed read is not kept: the next reader tries again
      chart.catch(() => this.charts.delete(league))
    }
    return chart
  }
}
