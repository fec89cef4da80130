import type { Sport } from '@tipping/contract/constants'
import { asMatchId, asRoundNumber, asSquadId, type RoundNumber } from '@tipping/contract/ids'
import {
  averageOf,
  explainRound,
  percentOf,
  sortTeams,
  TIE_BREAK_RULE,
} from '@tipping/contract/rules/season'
import type { RoundExplanation, Season } from '@tipping/contract/season'
import type { Database } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { ReadCache } from '../../read-cache.ts'
import type { CurrentCompetition, CurrentCompetitions } from '../competitions/service.ts'
import type { ScoresService } from '../scores/service.ts'
import { historyGroups, rankIn, rebuildSeasonHistories, type RoundGroups } from './history.ts'
import * as q from './queries.ts'

/** The scheduler's season_history job (history.ts), which keeps the rank history. */
export { rebuildSeasonHistories }

type RoundStat = Awaited<ReturnType<typeof q.roundStats>>[number]

/** What season() needs of a competition (the current one, or a past one for the archive). */
export type SeasonCompetition = Pick<
  CurrentCompetition,
  'id' | 'golden_week_round' | 'scores_version'
>

/** Two sports, each at its current scores version and perhaps the one before while it moves. */
const ROUND_STATS_ENTRIES = 8
/** The same for the history (a past season's too, for the archive). */
const HISTORY_ENTRIES = 8

/**
 * The My season page (issue 31): one tipper's numbers over the season and any round explained
 * tip by tip. The caller's own numbers are read fresh (two small statements over their own rows);
 * the rounds' average and best, the same for every tipper and a scan of every round score, are
 * kept per competition and scores version (decision 009): a re-score or a deactivation moves to a
 * new version, so a kept answer is never stale, only replaced.
 *
 * The overall rank after each round and the rounds' tippers, total and best come from the
 * season history (history.ts: a few thousand groups per round, kept per competition and history
 * version); only a round re-scored since the history was last built is counted from round_scores.
 * Everything is read by competition id, so a past season's page reads the same way.
 */
export class SeasonService {
  private readonly stats = new ReadCache<{ played: number[]; rows: RoundStat[] }>(
    Number.POSITIVE_INFINITY,
    ROUND_STATS_ENTRIES,
  )
  private readonly groups = new ReadCache<Map<number, RoundGroups>>(
    Number.POSITIVE_INFINITY,
    HISTORY_ENTRIES,
  )

  constructor(
    private readonly db: Database,
    private readonly competitions: CurrentCompetitions,
    private readonly scores: ScoresService,
  ) {}

  /** Played rounds, and the stats of those after `after` (not covered by the history). */
  private roundStats(competitionId: number, scoresVersion: number, after: number) {
    return this.stats.get(`${competitionId}:${scoresVersion}:${after}`, async () => {
      const [played, rows] = await Promise.all([
        q.playedRounds(this.db, competitionId),
        q.roundStats(this.db, competitionId, after),
      ])
      return { played, rows }
    })
  }

  /** The history's rounds up to the last one it covers that is not stale, at its version. */
  private async history(competitionId: number) {
    const state = await q.historyState(this.db, competitionId)
    const groups = await this.groups.get(`${competitionId}:${state.version}`, () =>
      historyGroups(this.db, competitionId),
    )
    return { shownThrough: state.shownThrough, groups }
  }

  async season(sport: Sport, userId: number): Promise<Season> {
    return this.seasonOf(await this.competitions.get(sport), userId)
  }

  /** season() for a given competition, current or past (the season archive, issue 31). */
  async seasonOf(c: SeasonCompetition, userId: number): Promise<Season> {
    const golden = c.golden_week_round
    const [tips, mine, history] = await Promise.all([
      q.userTipNumbers(this.db, c.id, userId),
      q.userRoundScores(this.db, c.id, userId),
      this.history(c.id),
    ])
    const stats = await this.roundStats(c.id, c.scores_version, history.shownThrough)
    const points = new Map(mine.map((r) => [r.number, r.points]))
    const byRound = new Map(stats.rows.map((r) => [r.number, r]))
    const stored = (number: number) => {
      if (number > history.shownThrough) return undefined
      const g = history.groups.get(number)
      return { tippers: g?.tippers ?? 0, total: g?.total ?? 0, best: g?.best ?? 0 }
    }
    // The caller's totals through each round, from their own rows (a round without one adds 0);
    // no rows at all: not placed yet; deactivated: not ranked.
    const rankAfter = (number: number): number | null => {
      const g = history.groups.get(number)
      if (number > history.shownThrough || !g || !mine[0]?.active) return null
      let p = 0
      let m = 0
      for (const r of mine)
        if (r.number <= number) {
          p += r.points
          m += r.margin
        }
      return rankIn(g, p, m)
    }
    return {
      tips: {
        judged: tips.judged,
        correct: tips.correct,
        percent: percentOf(tips.correct, tips.judged),
      },
      teams: sortTeams(
        tips.teams.map((t) => ({ squadId: t.squad, correct: t.correct, tipped: t.tipped })),
      ).map((t) => ({ squad: asSquadId(t.squadId), correct: t.correct, tipped: t.tipped })),
      streaks: { longest: tips.longest, current: tips.current },
      cleanSweeps: mine.filter((r) => r.bonus > 0).map((r) => asRoundNumber(r.number)),
      goldenWeek:
        golden === null ? null : { round: asRoundNumber(golden), points: points.get(golden) ?? 0 },
      autoTips: {
        wrong: tips.autos_wrong,
        notCounted: mine.reduce((n, r) => n + r.not_counted, 0),
      },
      superSixes: {
        games: tips.margin_games,
        averageMiss: averageOf(tips.miss_total, tips.margin_games),
        bestMiss: tips.best_miss,
      },
      rounds: stats.played.map((number) => {
        const s = stored(number) ?? byRound.get(number)
        return {
          round: asRoundNumber(number),
          isGoldenWeek: number === golden,
          points: points.get(number) ?? 0,
          tippers: s?.tippers ?? 0,
          average: averageOf(s?.total ?? 0, s?.tippers ?? 0),
          best: s?.best ?? 0,
          rank: rankAfter(number),
        }
      }),
    }
  }

  /**
   * "Why my rank is what it is" for one round: each tip judged by the scoring reference
   * (explainRound: tipOutcomes, marginResult, scoreRound, as the predictions read does), the
   * round's points and margin that result, and the ranks the rankings show.
   */
  async round(sport: Sport, userId: number, number: RoundNumber): Promise<RoundExplanation> {
    const c = await this.competitions.get(sport)
    const found = await q.roundWithMatches(this.db, c.id, number)
    if (!found) throw notFound('Round', 'round')
    const [tips, roundRow, overallRow] = await Promise.all([
      q.userRoundTips(this.db, userId, found.round.id),
      this.scores.ownRow(sport, userId, number),
      this.scores.ownRow(sport, userId),
    ])
    const goldenWeek = c.golden_week_round === number
    const matches = found.matches.map((m) => ({
      id: m.id,
      roundNumber: number,
      status: m.status,
      winnerSquadId: m.winner_squad_id,
      isMarginGame: m.is_margin_game,
      sixes: m.sixes,
    }))
    const explained = explainRound(
      userId,
      number,
      matches,
      tips.map((t) => ({
        userId,
        matchId: t.match_id,
        squadId: t.squad_id,
        margin: t.margin,
        isAutoTip: t.is_auto_tip,
      })),
      goldenWeek,
    )
    const tipOf = new Map(tips.map((t) => [t.match_id, t]))
    const { score } = explained
    return {
      round: number,
      isGoldenWeek: goldenWeek,
      pointsPerTip: explained.pointsPerTip,
      tips: found.matches.map((m, i) => {
        const line = explained.tips[i]!
        const t = tipOf.get(m.id)
        return {
          match: asMatchId(m.id),
          date: m.starts_at.toISOString(),
          status: m.status,
          homeSquadId: asSquadId(m.home_squad_id),
          awaySquadId: asSquadId(m.away_squad_id),
          winnerSquadId: m.winner_squad_id === null ? null : asSquadId(m.winner_squad_id),
          squad: t ? asSquadId(t.squad_id) : 0,
          isAutoTip: line.isAutoTip,
          correct: line.correct,
          counted: line.counted,
          verdict: line.verdict,
          points: line.points,
          isMarginGame: m.is_margin_game,
          margin: t?.margin ?? null,
          sixes: m.status === 'complete' ? m.sixes : null,
          marginResult: line.marginResult,
        }
      }),
      correct: score.correct,
      counted: score.counted,
      tipPoints: score.tipPoints,
      bonus: score.bonus,
      sweep: explained.sweep,
      points: score.points,
      margin: score.margin,
      roundRank: roundRow?.rank ?? 0,
      overallRank: overallRow?.rank ?? 0,
      overallPoints: overallRow?.totalPoints ?? 0,
      overallMargin: overallRow?.totalMargin ?? 0,
      tieBreak: TIE_BREAK_RULE,
    }
  }
}

/** My season's league charts (league.ts). */
export { SeasonLeagues } from './league.ts'
