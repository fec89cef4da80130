import type { Sport } from '@tipping/contract/constants'
import {
  type RoundNumber,
  asMatchId,
  asRoundId,
  asRoundNumber,
  asSquadId,
} from '@tipping/contract/ids'
import type {
  Match,
  Prediction,
  PredictionsResponse,
  Round,
  TipInput,
} from '@tipping/contract/predictions'
import { marginResult, tipOutcomes } from '@tipping/contract/rules/scoring'
import { roundStatus } from '@tipping/contract/rules/status'
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
import type { CurrentCompetitions } from '../competitions/service.ts'
import * as q from './queries.ts'
import { PredictionsReads, matchPickSplit, toMatch } from './reads.ts'
import { checkDistinct, checkTippable, TipWriter, type SavedList } from './tip-writer.ts'
import { insertSaves, receiptOf, ReceiptSigner, type SaveKind } from './receipts.ts'
import { ReceiptReads } from './receipt-reads.ts'
import { inTransaction } from '../../db/transaction.ts'

/** The pick count (decision 032), also for the round stats files the publisher writes. */
export { pickCounts } from './queries.ts'
/**
 * The lock every tip write of a user takes first: their registrations FOR UPDATE in user order,
 * by the primary key. Autopilot's batches take it too (decision 026), so they and the savers
 * keep one lock order (registrations, then the match FOR SHARE, then the tips) and never deadlock.
 */
export { lockRegistrations } from './queries.ts'

/**
 * A round's pick split per match, counted now (not cached): what the push channel's `picks` event
 * tells (live/pick-split.ts), the same figures the round read shows.
 */
export async function countRoundPickSplit(
  db: Database,
  roundId: number,
): Promise<{ id: number; home_percent: number; away_percent: number }[]> {
  const matches = await q.roundMatches(db, roundId)
  const counts = await q.roundPickCounts(db, roundId)
  return matches.map((m) => ({ id: m.id, ...matchPickSplit(m, counts) }))
}

export class PredictionsService {
  private readonly writer: TipWriter
  private readonly signer: ReceiptSigner
  private readonly reads: PredictionsReads
  /** Tip receipts: the history and the public check (decision 027). */
  readonly receipts: ReceiptReads

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly competitions: CurrentCompetitions,
    /** The round and its matches may be this old (READ_CACHE_MS). */
    readCacheMs = 0,
    /** Pick percentages may be this old (PICK_COUNTS_CACHE_MS). */
    pickCountsMs = readCacheMs,
    /** RECEIPT_SECRET; unset, the development key. */
    receiptSecret?: string,
    /** Counts a round's picks (tests slow it down); by default the pick count query. */
    countRound?: (roundId: number) => ReturnType<typeof q.roundPickCounts>,
  ) {
    const signer = new ReceiptSigner(receiptSecret)
    this.signer = signer
    this.pickCountsMs = pickCountsMs
    this.reads = new PredictionsReads(db, readCacheMs, pickCountsMs, countRound)
    this.writer = new TipWriter(db, clock, undefined, undefined, signer)
    this.receipts = new ReceiptReads(db, signer, (sport) => this.competition(sport))
  }

  private readonly pickCountsMs: number
  private warmTimer: NodeJS.Timeout | null = null
  private warming: Promise<void> | null = null

  /**
   * Counts the open rounds' picks ahead of their readers (decision 032): at once (not awaited:
   * start-up readiness does not wait for a count) and then every half PICK_COUNTS_CACHE_MS, one
   * pass at a time. app.ts starts it when the app is ready and stops it when it closes.
   */
  startPickCountWarming(): void {
    if (this.pickCountsMs <= 0 || this.warmTimer) return
    const pass = () => {
      this.warming ??= this.warmPickCounts().finally(() => {
        this.warming = null
      })
    }
    this.warmTimer = setInterval(pass, Math.max(100, this.pickCountsMs / 2))
    this.warmTimer.unref()
    pass()
  }

  /** Stops the warm-up timer and waits for a pass under way (it uses the database). */
  async stopPickCountWarming(): Promise<void> {
    if (this.warmTimer) clearInterval(this.warmTimer)
    this.warmTimer = null
    await this.warming
  }

  /** One warm-up pass: the rounds to count, then each round's count unless it is fresh enough. */
  async warmPickCounts(): Promise<void> {
    try {
      await this.reads.warmPickCounts(await q.roundsToCount(this.db))
    } catch {
      // The database is away or closing: the readers count, as without the warm-up.
    }
  }

  private competition(sport: Sport) {
    return this.competitions.get(sport)
  }

  /** PredictionsResponse, its matches as JSON text (shared by every tipper: reads.ts). */
  async roundForUser(
    sport: Sport,
    roundNumber: RoundNumber,
    userId: number,
  ): Promise<Omit<PredictionsResponse, 'matches'> & { matchesJson: string }> {
    const competition = await this.competition(sport)
    const fixture = await this.reads.fixture(competition.id, roundNumber)
    if (!fixture) throw notFound('Round', 'round')
    const { round, matches } = fixture
    const [tips, counts] = await Promise.all([
      this.reads.roundTips(round.id, userId),
      this.reads.roundPickCounts(round.id),
    ])
    const { dtos: matchDtos, json: matchesJson } = this.reads.sharedMatches(
      matches,
      counts,
      this.clock.now(),
    )
    const roundDto: Round = {
      id: asRoundId(round.id),
      number: asRoundNumber(round.number),
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
  async saveList(sport: Sport, userId: number, items: TipInput[]): Promise<SavedList> {
    const competition = await this.competition(sport)
    return this.writer.save(sport, competition.id, userId, items)
  }

  /**
   * The receipt of an autopick or a clear (decision 029), logged in the write's own transaction
   * after it, from what the write returned: the tips it filled (untipped before) or removed (their
   * old values). One row, one INSERT; tips are not read again. A write that changed nothing is
   * still accepted and still gets its receipt, with no picks.
   */
  private async logWrite(
    trx: Database,
    kind: Exclude<SaveKind, 'save'>,
    competitionId: number,
    userId: number,
    savedAt: Date,
    touched: readonly q.TouchedTip[],
  ) {
    const sorted = [...touched].sort((a, b) => a.match_id - b.match_id)
    const record = {
      id: this.signer.newId(),
      kind,
      userId,
      competitionId,
      savedAt,
      picks: sorted.map((t) =>
        kind === 'clear'
          ? { m: t.match_id, r: t.round_id, s: null, g: null }
          : { m: t.match_id, r: t.round_id, s: t.squad_id, g: t.margin },
      ),
    }
    const row = {
      ...record,
      digest: this.signer.digest(record),
      before: sorted.map((t) =>
        kind === 'clear'
          ? { m: t.match_id, s: t.squad_id, g: t.margin }
          : { m: t.match_id, s: null, g: null },
      ),
    }
    await insertSaves(trx, [row])
    return receiptOf(row)
  }

  /** GAME_RULES.md "Autopick": untipped open matches get the squad most tippers picked. */
  async autopick(sport: Sport, userId: number, matchIds: number[]): Promise<SavedList> {
    const competition = await this.competition(sport)
    const { roundIds, receipt } = await inTransaction(this.db, async (trx) => {
      const matches = await this.lockTippable(trx, competition.id, sport, userId, matchIds)
      const majority = await q.majoritySquads(trx, matchIds)
      const now = this.clock.now()
      const filled = await q.insertMissingTips(
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
      return {
        roundIds: [...new Set(matches.map((m) => m.round_id))],
        receipt: await this.logWrite(trx, 'autopick', competition.id, userId, now, filled),
      }
    })
    return { predictions: await this.predictionsFor(userId, roundIds, new Set(matchIds)), receipt }
  }

  /** Clear applies only to open matches (spec 5); a locked one refuses the whole list. */
  async clear(sport: Sport, userId: number, matchIds: number[]): Promise<SavedList> {
    const competition = await this.competition(sport)
    const { roundIds, receipt } = await inTransaction(this.db, async (trx) => {
      const matches = await this.lockTippable(trx, competition.id, sport, userId, matchIds)
      const now = this.clock.now()
      const removed = await q.deleteTips(trx, userId, matchIds)
      return {
        roundIds: [...new Set(matches.map((m) => m.round_id))],
        receipt: await this.logWrite(trx, 'clear', competition.id, userId, now, removed),
      }
    })
    return { predictions: await this.predictionsFor(userId, roundIds, new Set(matchIds)), receipt }
  }

  /** Another tipper's tips in a round, only on completed matches (spec 6). */
  async tipsOfUser(
    sport: Sport,
    roundNumber: RoundNumber,
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
    roundNumber: RoundNumber,
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
        match: asMatchId(match),
        tips: rows
          .filter((r) => r.match_id === match)
          .map((r) => ({
            userId: r.user_id,
            teamName: r.team_name,
            firstName: r.first_name,
            lastNameInitial: initialOf(r.last_name),
            squad: asSquadId(r.squad_id),
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

/**
 * One prediction per match of the round; squad 0 where the user has no tip. Whether a tip is
 * correct, counted and how far its margin was are the scoring reference's rules (decision 004).
 */
function toPredictions(matches: readonly Match[], tips: readonly q.TipRecord[]): Prediction[] {
  const byMatch = new Map(tips.map((t) => [t.match_id, t]))
  const outcomes = tipOutcomes(
    matches,
    tips.map((t) => ({ matchId: t.match_id, squadId: t.squad_id, isAutoTip: t.is_auto_tip })),
  )
  return matches.map((m) => {
    const t = byMatch.get(m.id)
    const outcome = outcomes.get(m.id)
    return {
      match: m.id,
      squad: t ? asSquadId(t.squad_id) : 0,
      margin: t?.margin ?? null,
      isMarginGame: m.isMarginGame,
      isAutoTip: t?.is_auto_tip ?? false,
      ...(t?.is_autopilot ? { isAutopilot: true as const } : {}),
      isCorrect: outcome?.correct ?? null,
      counted: outcome?.counted ?? null,
      marginResult: marginResult(m, t?.margin),
      status: m.status,
    }
  })
}

/** Whether the user is registered for the competition (and so plays, and is ranked, in it). */
export const isRegistered = (
  db: Database,
  competitionId: number,
  userId: number,
): Promise<boolean> => q.isRegistered(db, competitionId, userId)
