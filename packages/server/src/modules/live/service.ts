import type { Sport } from '@tipping/contract/constants'
import {
  type MatchId,
  type RoundNumber,
  asMatchId,
  asRoundNumber,
  asSquadId,
} from '@tipping/contract/ids'
import type {
  LiveMatch,
  LiveRoundResponse,
  LiveScoreBody,
  PicksEvent,
  ResultEvent,
} from '@tipping/contract/live'
import { ballsFromOvers, oversFromBalls } from '@tipping/contract/rules/cricket'
import { liveFigures } from '@tipping/contract/rules/live'
import type { Clock } from '../../clock.ts'
import type { Database, LiveInningsColumn } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

type LifecycleStatus = LiveMatch['status']

function toLiveMatch(
  row: { match_id: number; innings: LiveInningsColumn[]; version: number; updated_at: Date },
  status: LifecycleStatus,
  roundNumber: number,
): LiveMatch {
  return {
    matchId: asMatchId(row.match_id),
    roundNumber: asRoundNumber(roundNumber),
    status,
    version: row.version,
    updatedAt: new Date(row.updated_at).toISOString(),
    innings: row.innings.map((i) => ({
      battingSquadId: asSquadId(i.battingSquadId),
      runs: i.runs,
      wickets: i.wickets,
      overs: oversFromBalls(i.balls),
      oversAllotted: i.ballsAllotted === null ? null : oversFromBalls(i.ballsAllotted),
      sixes: i.sixes,
    })),
    sixes: row.innings.reduce((s, i) => s + i.sixes, 0),
    figures: liveFigures(row.innings),
  }
}

/** A result set or corrected, as the push channel tells it. */
export interface ResultChange {
  type: 'result'
  matchId: number
  change: ResultEvent['change']
}

/** A round's pick split moved (pick-split.ts), as the push channel tells it. */
export interface PickSplitChange {
  type: 'picks'
  sport: string
  competitionId: number
  payload: PicksEvent
}

/**
 * Adds an event to the push channel inside the caller's transaction: pages hear of it when (and
 * only if) the transaction commits. Call it last in the transaction (queries.ts insertEvent).
 */
export async function publishEvent(
  trx: Database,
  event: ResultChange | PickSplitChange,
  at: Date,
): Promise<void> {
  if (event.type === 'picks') {
    const { sport, competitionId, payload } = event
    await q.insertEvent(trx, { sport, competitionId, type: 'picks', payload, at })
    return
  }
  const m = await q.afterResult(trx, event.matchId)
  if (m.outcome === null) return
  const payload: ResultEvent = {
    matchId: asMatchId(event.matchId),
    roundNumber: asRoundNumber(m.round_number),
    roundStatus: m.round_status,
    change: event.change,
    outcome: m.outcome,
    winnerSquadId: m.winner_squad_id === null ? null : asSquadId(m.winner_squad_id),
    sixes: m.sixes,
    scoresVersion: m.scores_version,
  }
  await q.insertEvent(trx, {
    sport: m.sport,
    competitionId: m.competition_id,
    type: 'result',
    payload,
    at,
  })
}

/**
 * Live scores: set or corrected by an admin or the feed (cli/feed-replay.ts), kept apart from
 * results (a live score never scores a round), and pushed to every open page.
 */
export class LiveService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** Called after each committed change (the hub reads the table at once when it has no listener). */
    private readonly afterCommit: () => void = () => {},
  ) {}

  async setLive(
    sport: Sport,
    matchId: MatchId,
    body: LiveScoreBody,
    actorUserId: number | null,
  ): Promise<LiveMatch> {
    const now = this.clock.now()
    const live = await inTransaction(this.db, async (trx) => {
      const match = await q.matchForLive(trx, matchId)
      if (!match || match.sport !== sport) throw notFound('Match', 'id')
      if (match.status === 'scheduled')
        throw new AppError('CONFLICT', 'This match has not started: it has no live score yet', 'id')
      if (match.status === 'complete')
        throw new AppError('CONFLICT', 'This match is complete: correct its result instead', 'id')
      const sides = [match.home_squad_id, match.away_squad_id]
      const innings = body.innings.map((inn, i): LiveInningsColumn => {
        if (!sides.includes(inn.battingSquadId))
          throw new AppError(
            'INVALID_SQUAD',
            'The batting side must be one of the two squads',
            `innings.${i}.battingSquadId`,
          )
        return {
          battingSquadId: inn.battingSquadId,
          runs: inn.runs,
          wickets: inn.wickets,
          balls: ballsFromOvers(inn.overs),
          ballsAllotted: inn.oversAllotted === undefined ? null : ballsFromOvers(inn.oversAllotted),
          sixes: inn.sixes,
        }
      })
      const row = await q.upsertLiveScore(trx, matchId, innings, now)
      const dto = toLiveMatch(row, match.status, match.round_number)
      // A person's entry or correction is audited; the feed's ball-by-ball updates are not.
      if (actorUserId !== null) await q.audit(trx, { actorUserId, matchId, data: body, at: now })
      await q.insertEvent(trx, {
        sport,
        competitionId: match.competition_id,
        type: 'live',
        payload: dto,
        at: now,
      })
      return dto
    })
    this.afterCommit()
    return live
  }

  /** The live scores of a round of the current competition (matches with none are left out). */
  async roundLive(sport: Sport, roundNumber: RoundNumber): Promise<LiveRoundResponse> {
    const rows = await q.liveScoresOfRound(this.db, sport, roundNumber)
    if (rows.length === 0 && !(await q.roundExists(this.db, sport, roundNumber)))
      throw notFound('Round', 'round')
    return {
      round: roundNumber,
      matches: rows.map((r) => toLiveMatch(r, r.status, r.round_number)),
    }
  }
}
