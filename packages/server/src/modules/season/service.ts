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
import type { CurrentCompetition, CurrentCompetitions } from '../competitions/service.ts'
import type { ScoresService } from '../scores/service.ts'
import { rankIn, rebuildSeasonHistories } from './history.ts'
import { effectiveTip, type CompletedMatch, type OwnTip } from './matches.ts'
import * as q from './queries.ts'
import { SeasonReads } from './reads.ts'

/** The scheduler's season_history job (history.ts), which keeps the rank history. */
export { rebuildSeasonHistories }

/**
 * The season numbers of one tipper's effective tips on the completed matches (in play order),
 * counted as the reference (contract/rules/season.ts seasonNumbers) defines them (SQL over
 * effective_tips until decision 034): judged tips are those on matches with a
 * winner; each wrong one ends a streak; the Super Sixes miss is |prediction - sixes|, no
 * prediction counting as 0, on margin games with their sixes known.
 */
export function tipNumbers(
  matches: readonly CompletedMatch[],
  own: readonly [number, number, number | null, boolean][],
  registeredUs: number | null,
) {
  const mine = new Map<number, OwnTip>()
  for (const [match, squad, margin, auto] of own) mine.set(match, { squad, margin, auto })
  let judged = 0
  let correct = 0
  let run = 0
  let longest = 0
  let autosWrong = 0
  let marginGames = 0
  let missTotal = 0
  let bestMiss: number | null = null
  const teams = new Map<number, { squadId: number; correct: number; tipped: number }>()
  for (const m of matches) {
    const t = effectiveTip(m, mine.get(m.id), registeredUs)
    if (!t) continue
    if (m.winnerSquadId !== null) {
      const right = t.squad === m.winnerSquadId
      judged++
      let team = teams.get(t.squad)
      if (!team) teams.set(t.squad, (team = { squadId: t.squad, correct: 0, tipped: 0 }))
      team.tipped++
      if (right) {
        correct++
        team.correct++
        run++
        if (run > longest) longest = run
      } else {
        run = 0
        if (t.auto) autosWrong++
      }
    }
    if (m.isMarginGame && m.sixes !== null) {
      const miss = Math.abs((t.margin ?? 0) - m.sixes)
      marginGames++
      missTotal += miss
      if (bestMiss === null || miss < bestMiss) bestMiss = miss
    }
  }
  return {
    judged,
    correct,
    longest,
    current: run,
    autosWrong,
    teams: [...teams.values()],
    marginGames,
    missTotal,
    bestMiss,
  }
}

/** What season() needs of a competition (the current one, or a past one for the archive). */
export type SeasonCompetition = Pick<
  CurrentCompetition,
  'id' | 'golden_week_round' | 'scores_version'
>

/**
 * The My season page (issue 31): one tipper's numbers over the season and any round explained
 * tip by tip. Decision 034: a request runs one statement (queries.ts seasonReads: the tipper's own
 * rows and the versions of what is kept) and builds the answer in memory from what is the same
 * for every tipper, kept per competition and version by reads.ts: the completed matches
 * (matches.ts, per scores version), the rounds' tippers, total and best and the rank groups
 * (history.ts, per history version), and for a round re-scored since the history was last built,
 * its stats counted from round_scores (per scores version, in the seconds before the scheduler
 * rebuilds it). Everything is read by competition id, so a past season's page reads the same way.
 */
export class SeasonService {
  private readonly reads: SeasonReads

  constructor(
    private readonly db: Database,
    private readonly competitions: CurrentCompetitions,
    private readonly scores: ScoresService,
  ) {
    this.reads = new SeasonReads(db)
  }

  async season(sport: Sport, userId: number): Promise<Season> {
    return this.seasonOf(await this.competitions.get(sport), userId)
  }

  /** season() for a given competition, current or past (the season archive, issue 31). */
  async seasonOf(c: SeasonCompetition, userId: number): Promise<Season> {
    const golden = c.golden_week_round
    const read = await this.reads.tipper(c.id, userId)
    if (!read) throw notFound('Competition', 'sport')
    // The history's rounds up to the last one it covers that is not stale.
    const covered = read.covered ?? 0
    const shownThrough = read.stale_from === null ? covered : Math.min(covered, read.stale_from - 1)
    const [completed, groups] = await Promise.all([
      this.reads.completedMatches(c.id, read.scores_version),
      this.reads.historyGroups(c.id, read.history_version),
    ])
    const { played } = completed
    const stats = await this.reads.roundStats(
      c.id,
      read.scores_version,
      shownThrough,
      played.at(-1) ?? 0,
    )
    const mine = read.scores ?? []
    const tips = tipNumbers(completed.matches, read.tips ?? [], read.registered_us)
    const points = new Map(mine.map((r) => [r[0], r[1]]))
    const byRound = new Map(stats.map((r) => [r.number, r]))
    const stored = (number: number) => {
      if (number > shownThrough) return undefined
      const g = groups.get(number)
      return { tippers: g?.tippers ?? 0, total: g?.total ?? 0, best: g?.best ?? 0 }
    }
    // The caller's totals through each round, from their own rows (a round without one adds 0);
    // no rows at all: not placed yet; deactivated: not ranked.
    const ranked = mine.length > 0 && read.active === true
    let p = 0
    let m = 0
    let next = 0
    const rankAfter = (number: number): number | null => {
      // Rounds are asked in order, so the running totals only move forward.
      while (next < mine.length && mine[next]![0] <= number) {
        p += mine[next]![1]
        m += mine[next]![2]
        next++
      }
      const g = groups.get(number)
      if (number > shownThrough || !g || !ranked) return null
      return rankIn(g, p, m)
    }
    let notCounted = 0
    const cleanSweeps: RoundNumber[] = []
    for (const r of mine) {
      notCounted += r[4]
      if (r[3] > 0) cleanSweeps.push(asRoundNumber(r[0]))
    }
    return {
      tips: {
        judged: tips.judged,
        correct: tips.correct,
        percent: percentOf(tips.correct, tips.judged),
      },
      teams: sortTeams(tips.teams).map((t) => ({
        squad: asSquadId(t.squadId),
        correct: t.correct,
        tipped: t.tipped,
      })),
      streaks: { longest: tips.longest, current: tips.current },
      cleanSweeps,
      goldenWeek:
        golden === null ? null : { round: asRoundNumber(golden), points: points.get(golden) ?? 0 },
      autoTips: { wrong: tips.autosWrong, notCounted },
      superSixes: {
        games: tips.marginGames,
        averageMiss: averageOf(tips.missTotal, tips.marginGames),
        bestMiss: tips.bestMiss,
      },
      rounds: played.map((number) => {
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

/** The completed matches kept per scores version, and a tipper's effective tip on one (the head-to-head). */
export { CompletedMatchesCache, effectiveTip, type CompletedMatch, type OwnTip } from './matches.ts'

/** My season's league charts (league.ts). */
export { SeasonLeagues } from './league.ts'
