import { AUTOTIP_COUNT_LIMIT, type Sport } from '@tipping/contract/constants'
import type {
  Match,
  Prediction,
  PredictionsResponse,
  Round,
  TipInput,
} from '@tipping/contract/predictions'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import { pickSplit } from '@tipping/contract/rules/picks'
import { effectiveStatus, roundStatus } from '@tipping/contract/rules/status'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import {
  initialOf,
  LEAGUE_MATES_TIPS_LIMIT,
  type LeagueMatesTipsResponse,
  type Tipper,
  type UserTipsResponse,
} from '@tipping/contract/scores'
import { notFound } from '../../errors.ts'
import { Batcher, byScope } from '../../batch.ts'
import { ReadCache } from '../../read-cache.ts'
import * as q from './queries.ts'
import { checkDistinct, checkTippable, TipWriter } from './tip-writer.ts'

export class PredictionsService {
  private readonly competitions: ReadCache<Awaited<ReturnType<typeof q.currentCompetition>>>
  private readonly writer: TipWriter
  private readonly pickCounts: ReadCache<Awaited<ReturnType<typeof q.roundPickCounts>>>
  private readonly rounds: ReadCache<{
    round: NonNullable<Awaited<ReturnType<typeof q.roundByNumber>>>
    matches: Awaited<ReturnType<typeof q.roundMatches>>
  } | null>

  /** `${roundId}:${userId}` -> that user's tips in the round, for requests arriving together. */
  private readonly roundTips = new Batcher<string, q.TipRecord[]>(async (keys) => {
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

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** The current competition and round may be this old (bench/README.md). */
    readCacheMs = 0,
    /** Pick percentages may be this old: counting a round's tips takes seconds at 1M tippers. */
    pickCountsMs = readCacheMs,
  ) {
    this.competitions = new ReadCache(readCacheMs)
    this.pickCounts = new ReadCache(pickCountsMs)
    this.rounds = new ReadCache(readCacheMs)
    this.writer = new TipWriter(db, clock)
  }

  private async competition(sport: Sport) {
    const competition = await this.competitions.get(sport, () =>
      q.currentCompetition(this.db, sport),
    )
    if (!competition) throw notFound('Competition', 'sport')
    return competition
  }

  /** PredictionsResponse, its matches as JSON text (matchesOf). */
  async roundForUser(
    sport: Sport,
    roundNumber: number,
    userId: number,
  ): Promise<Omit<PredictionsResponse, 'matches'> & { matchesJson: string }> {
    const competition = await this.competition(sport)
    // The round and its matches are the same for everyone: shared, READ_CACHE_MS old at most.
    const fixture = await this.rounds.get(`${competition.id}:${roundNumber}`, async () => {
      const round = await q.roundByNumber(this.db, competition.id, roundNumber)
      return round ? { round, matches: await q.roundMatches(this.db, round.id) } : null
    })
    if (!fixture) throw notFound('Round', 'round')
    const { round, matches } = fixture
    const [tips, counts] = await Promise.all([
      this.roundTips.get(`${round.id}:${userId}`).then((t) => t ?? []),
      this.pickCounts.get(String(round.id), () => q.roundPickCounts(this.db, round.id)),
    ])
    const { dtos: matchDtos, json: matchesJson } = this.matchesOf(matches, counts)
    const roundDto: Round = {
      id: round.id,
      number: round.number,
      label: round.label,
      status: roundStatus(matchDtos.map((m) => m.status)),
      startDate: matchDtos[0]?.date ?? '',
      endDate: matchDtos.at(-1)?.date ?? '',
      isGoldenWeek: competition.golden_week_round === round.number,
    }
    return {
      round: roundDto,
      matchesJson,
      predictions: toPredictions(matchDtos, tips),
    }
  }

  /**
   * A round's matches with their pick split, the same for every tipper until the fixture or the
   * counts reload or a match's status moves: kept with their JSON text, which the route splices
   * into each answer. Building and serialising eight matches per request was a tenth of the API's
   * work on this read, the most asked-for in a deadline rush.
   */
  private matchesOf(
    matches: readonly q.MatchRecord[],
    counts: Awaited<ReturnType<typeof q.roundPickCounts>>,
  ): { dtos: Match[]; json: string } {
    const now = this.clock.now()
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

  private readonly matchesMemo = new WeakMap<
    readonly q.MatchRecord[],
    WeakMap<object, { statuses: string; dtos: Match[]; json: string }>
  >()

  /** Locks the listed matches and checks each can still be tipped; the list index names the param. */
  private async lockTippable(
    trx: Database,
    competitionId: number,
    sport: Sport,
    userId: number,
    matchIds: number[],
  ) {
    checkDistinct(matchIds)
    const locked = await q.lockForTipping(trx, competitionId, userId, matchIds)
    const registered = locked.registered ?? (await q.lockRegistration(trx, competitionId, userId))
    return checkTippable(sport, registered, matchIds, locked.matches, this.clock.now())
  }

  /**
   * Saves a list of tips, all or nothing: if any tip is refused (locked match, squad not in the
   * match, match of another competition), nothing of the list is written (group commit: TipWriter).
   */
  async saveList(sport: Sport, userId: number, items: TipInput[]): Promise<Prediction[]> {
    const competition = await this.competition(sport)
    return this.writer.save(sport, competition.id, userId, items)
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
      lastNameInitial: initialOf(target.last_name),
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
            lastNameInitial: initialOf(r.last_name),
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
    // GAME_RULES "Round margin": no tip, or no margin, on a complete margin game counts as 0
    const marginResult =
      m.isMarginGame && m.status === 'complete' && m.sixes !== null
        ? Math.abs((t?.margin ?? 0) - m.sixes)
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
