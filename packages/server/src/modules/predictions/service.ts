import { AUTOTIP_COUNT_LIMIT, type Sport } from '@tipping/contract/constants'
import type {
  Lifecycle,
  Match,
  Prediction,
  PredictionsResponse,
  Round,
  TipInput,
} from '@tipping/contract/predictions'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import { pickSplit } from '@tipping/contract/rules/picks'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import {
  LEAGUE_MATES_TIPS_LIMIT,
  type LeagueMatesTipsResponse,
  type Tipper,
  type UserTipsResponse,
} from '@tipping/contract/scores'
import { AppError, notFound } from '../../errors.ts'
import { ReadCache } from '../../read-cache.ts'
import * as q from './queries.ts'

/**
 * GAME_RULES.md: a match locks at its start time. The stored status may lag the clock until the
 * lifecycle job runs, so reads and writes both judge by the clock too.
 */
export function effectiveStatus(status: Lifecycle, startsAt: Date, now: Date): Lifecycle {
  if (status === 'scheduled' && startsAt.getTime() <= now.getTime()) return 'active'
  return status
}

/** GAME_RULES.md: scheduled until the first match starts, complete when all are complete. */
export function roundStatus(statuses: readonly Lifecycle[]): Lifecycle {
  if (statuses.length > 0 && statuses.every((s) => s === 'complete')) return 'complete'
  if (statuses.every((s) => s === 'scheduled')) return 'scheduled'
  return 'active'
}

export class PredictionsService {
  private readonly competitions: ReadCache<Awaited<ReturnType<typeof q.currentCompetition>>>
  private readonly pickCounts: ReadCache<Awaited<ReturnType<typeof q.roundPickCounts>>>

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** Pick percentages and the current competition may be this old (bench/README.md). */
    readCacheMs = 0,
  ) {
    this.competitions = new ReadCache(readCacheMs)
    this.pickCounts = new ReadCache(readCacheMs)
  }

  private async competition(sport: Sport) {
    const competition = await this.competitions.get(sport, () =>
      q.currentCompetition(this.db, sport),
    )
    if (!competition) throw notFound('Competition', 'sport')
    return competition
  }

  async roundForUser(
    sport: Sport,
    roundNumber: number,
    userId: number,
  ): Promise<PredictionsResponse> {
    const competition = await this.competition(sport)
    const round = await q.roundByNumber(this.db, competition.id, roundNumber)
    if (!round) throw notFound('Round', 'round')
    const [matches, tips, counts] = await Promise.all([
      q.roundMatches(this.db, round.id),
      q.userRoundTips(this.db, userId, round.id),
      this.pickCounts.get(String(round.id), () => q.roundPickCounts(this.db, round.id)),
    ])
    const now = this.clock.now()
    const matchDtos = matches.map((m) => toMatch(m, counts, now))
    const roundDto: Round = {
      id: round.id,
      number: round.number,
      label: round.label,
      status: roundStatus(matchDtos.map((m) => m.status)),
      startDate: matchDtos[0]?.date ?? '',
      endDate: matchDtos.at(-1)?.date ?? '',
      isGoldenWeek: competition.golden_week_round === round.number,
    }
    return { round: roundDto, matches: matchDtos, predictions: toPredictions(matchDtos, tips) }
  }

  /** Locks the listed matches and checks each can still be tipped; the list index names the param. */
  private async lockTippable(
    trx: Database,
    competitionId: number,
    sport: Sport,
    userId: number,
    matchIds: number[],
  ) {
    if (!(await q.lockRegistration(trx, competitionId, userId))) {
      throw new AppError(
        'NOT_REGISTERED',
        `You are not registered for ${sport.toUpperCase()} tipping`,
      )
    }
    const seen = new Set<number>()
    matchIds.forEach((id, i) => {
      if (seen.has(id))
        throw new AppError('VALIDATION', 'This match is listed twice', `predictions.${i}.match`)
      seen.add(id)
    })
    const rows = await q.matchesForTipping(trx, competitionId, matchIds)
    const byId = new Map(rows.map((m) => [m.id, m]))
    const now = this.clock.now()
    return matchIds.map((id, i) => {
      const match = byId.get(id)
      if (!match)
        throw new AppError(
          'NOT_FOUND',
          'No such match in this competition',
          `predictions.${i}.match`,
        )
      if (effectiveStatus(match.status, match.starts_at, now) !== 'scheduled') {
        throw new AppError(
          'MATCH_LOCKED',
          'This match has started; its tip can no longer change',
          `predictions.${i}.match`,
        )
      }
      return match
    })
  }

  /**
   * Saves a list of tips as one transaction: if any tip is refused (locked match, squad not in
   * the match, match of another competition), nothing is written.
   */
  async saveList(sport: Sport, userId: number, items: TipInput[]): Promise<Prediction[]> {
    const competition = await this.competition(sport)
    const roundIds = await this.db.transaction().execute(async (trx) => {
      const matches = await this.lockTippable(
        trx,
        competition.id,
        sport,
        userId,
        items.map((i) => i.match),
      )
      const now = this.clock.now()
      const writes = items.map((item, i) => {
        const match = matches[i]!
        if (item.squad !== match.home_squad_id && item.squad !== match.away_squad_id) {
          throw new AppError(
            'INVALID_SQUAD',
            'That squad is not playing in this match',
            `predictions.${i}.squad`,
          )
        }
        // GAME_RULES.md: only the margin game carries a sixes prediction.
        const margin = match.is_margin_game ? (item.margin ?? null) : null
        return {
          userId,
          matchId: match.id,
          roundId: match.round_id,
          squadId: item.squad,
          margin,
          now,
        }
      })
      // lockTippable holds the user's registration row, so this user's other writes wait; rows
      // still written in match order, whatever order the list came in (races.test.ts).
      await q.upsertTips(
        trx,
        [...writes].sort((a, b) => a.matchId - b.matchId),
      )
      return [...new Set(writes.map((w) => w.roundId))]
    })
    return this.predictionsFor(userId, roundIds, new Set(items.map((i) => i.match)))
  }

  /** GAME_RULES.md "Autopick": untipped open matches get the squad most tippers picked. */
  async autopick(sport: Sport, userId: number, matchIds: number[]): Promise<Prediction[]> {
    const competition = await this.competition(sport)
    const roundIds = await this.db.transaction().execute(async (trx) => {
      const matches = await this.lockTippable(trx, competition.id, sport, userId, matchIds)
      const majority = await q.majoritySquads(trx, matchIds)
      const now = this.clock.now()
      await q.insertMissingTips(
        trx,
        matches.map((m) => ({
          userId,
          matchId: m.id,
          roundId: m.round_id,
          squadId: majority.get(m.id) ?? m.home_squad_id,
          margin: m.is_margin_game ? 0 : null,
          now,
        })),
      )
      return [...new Set(matches.map((m) => m.round_id))]
    })
    return this.predictionsFor(userId, roundIds, new Set(matchIds))
  }

  /** Clear applies only to open matches (spec 5); a locked one refuses the whole list. */
  async clear(sport: Sport, userId: number, matchIds: number[]): Promise<Prediction[]> {
    const competition = await this.competition(sport)
    const roundIds = await this.db.transaction().execute(async (trx) => {
      const matches = await this.lockTippable(trx, competition.id, sport, userId, matchIds)
      await q.deleteTips(trx, userId, matchIds)
      return [...new Set(matches.map((m) => m.round_id))]
    })
    return this.predictionsFor(userId, roundIds, new Set(matchIds))
  }

  /** Another tipper's tips in a round, only on completed matches (spec 6). */
  async tipsOfUser(
    sport: Sport,
    roundNumber: number,
    targetUserId: number,
  ): Promise<UserTipsResponse> {
    const competition = await this.competition(sport)
    const round = await q.roundByNumber(this.db, competition.id, roundNumber)
    if (!round) throw notFound('Round', 'round')
    const target = await q.tipperById(this.db, competition.id, targetUserId)
    if (!target) throw notFound('Tipper', 'userId')
    const [matches, tips] = await Promise.all([
      q.roundMatches(this.db, round.id),
      q.userRoundTips(this.db, targetUserId, round.id),
    ])
    const now = this.clock.now()
    const all = toPredictions(
      matches.map((m) => toMatch(m, [], now)),
      tips,
    )
    const user: Tipper = {
      userId: target.id,
      teamName: target.team_name,
      firstName: target.first_name,
      lastNameInitial: target.last_name.slice(0, 1),
    }
    return { user, predictions: all.filter((p) => p.status === 'complete') }
  }

  /** The tip row: fellow league members' tips, on completed matches only. */
  async leagueMatesTips(
    sport: Sport,
    roundNumber: number,
    userId: number,
  ): Promise<LeagueMatesTipsResponse> {
    const competition = await this.competition(sport)
    const round = await q.roundByNumber(this.db, competition.id, roundNumber)
    if (!round) throw notFound('Round', 'round')
    const complete = (await q.roundMatches(this.db, round.id))
      .filter((m) => m.status === 'complete')
      .map((m) => m.id)
    if (complete.length === 0) return { matches: [] }
    const rows = await q.leagueMatesTips(
      this.db,
      competition.id,
      userId,
      complete,
      LEAGUE_MATES_TIPS_LIMIT,
    )
    return {
      matches: complete.map((match) => ({
        match,
        tips: rows
          .filter((r) => r.match_id === match)
          .map((r) => ({
            userId: r.user_id,
            teamName: r.team_name,
            firstName: r.first_name,
            lastNameInitial: r.last_name.slice(0, 1),
            squad: r.squad_id,
            margin: r.margin,
            isAutoTip: r.is_auto_tip,
          })),
      })),
    }
  }

  private async predictionsFor(
    userId: number,
    roundIds: number[],
    only: Set<number>,
  ): Promise<Prediction[]> {
    const out: Prediction[] = []
    for (const roundId of roundIds) {
      const [matches, tips] = await Promise.all([
        q.roundMatches(this.db, roundId),
        q.userRoundTips(this.db, userId, roundId),
      ])
      const now = this.clock.now()
      out.push(
        ...toPredictions(
          matches.map((m) => toMatch(m, [], now)),
          tips,
        ).filter((p) => only.has(p.match)),
      )
    }
    return out
  }
}

function toMatch(
  m: q.MatchRecord,
  counts: readonly { match_id: number; squad_id: number; picks: number }[],
  now: Date,
): Match {
  const mine = counts.filter((c) => c.match_id === m.id)
  const home = mine.find((c) => c.squad_id === m.home_squad_id)?.picks ?? 0
  const away = mine.find((c) => c.squad_id === m.away_squad_id)?.picks ?? 0
  return {
    id: m.id,
    number: m.number,
    status: effectiveStatus(m.status, m.starts_at, now),
    date: m.starts_at.toISOString(),
    homeSquadId: m.home_squad_id,
    awaySquadId: m.away_squad_id,
    homeRuns: m.home_runs,
    awayRuns: m.away_runs,
    homeWicketsFallen: m.home_wickets,
    awayWicketsFallen: m.away_wickets,
    homeOvers: m.home_balls === null ? null : oversFromBalls(m.home_balls),
    awayOvers: m.away_balls === null ? null : oversFromBalls(m.away_balls),
    venueId: m.venue_id,
    class: m.match_class,
    isMarginGame: m.is_margin_game,
    winnerSquadId: m.winner_squad_id,
    outcome: m.outcome,
    sixes: m.sixes,
    ...pickSplit(home, away),
  }
}

/** One prediction per match of the round; squad 0 where the user has no tip. */
function toPredictions(matches: readonly Match[], tips: readonly q.TipRecord[]): Prediction[] {
  const byMatch = new Map(tips.map((t) => [t.match_id, t]))
  const isCorrect = (m: Match, t: q.TipRecord | undefined) =>
    m.status === 'complete' && t !== undefined && m.winnerSquadId !== null
      ? m.winnerSquadId === t.squad_id
      : null
  // GAME_RULES.md: counting auto-tips. C = correct non-auto tips in the round.
  const correctOwn = matches.filter((m) => {
    const t = byMatch.get(m.id)
    return t !== undefined && !t.is_auto_tip && isCorrect(m, t) === true
  }).length
  return matches.map((m) => {
    const t = byMatch.get(m.id)
    const correct = isCorrect(m, t)
    const marginResult =
      m.isMarginGame && m.status === 'complete' && m.sixes !== null && t
        ? Math.abs((t.margin ?? 0) - m.sixes)
        : null
    return {
      match: m.id,
      squad: t?.squad_id ?? 0,
      margin: t?.margin ?? null,
      isMarginGame: m.isMarginGame,
      isAutoTip: t?.is_auto_tip ?? false,
      isCorrect: correct,
      counted:
        correct === true
          ? !t?.is_auto_tip || correctOwn < AUTOTIP_COUNT_LIMIT
          : correct === false
            ? false
            : null,
      marginResult,
      status: m.status,
    }
  })
}

/** The sport's current competition, or 404. */
export async function currentCompetition(db: Database, sport: Sport) {
  const competition = await q.currentCompetition(db, sport)
  if (!competition) throw notFound('Competition', 'sport')
  return competition
}

/** Whether the user is registered for the competition (and so plays, and is ranked, in it). */
export const isRegistered = (
  db: Database,
  competitionId: number,
  userId: number,
): Promise<boolean> => q.isRegistered(db, competitionId, userId)
