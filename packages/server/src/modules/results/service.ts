import type { Sport } from '@tipping/contract/constants'
import type { MatchResultBody } from '@tipping/contract/results'
import { ballsFromOvers } from '@tipping/contract/rules/cricket'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import { refreshRoundStatuses } from '../lifecycle/service.ts'
import type { Publisher } from '../publisher/service.ts'
import { writeResult } from '../seasons/service.ts'
import { rescoreAfterResult } from '../scoring/service.ts'
import { publishEvent } from '../live/service.ts'
import * as q from './queries.ts'

const balls = (overs: string | undefined) => (overs === undefined ? null : ballsFromOvers(overs))

/**
 * Sets or corrects a match result. The result, the round's status and the re-scored numbers land in
 * one transaction (a crash leaves the old numbers, never half of the new), then files are republished.
 */
export class ResultsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publisher: Publisher,
    /** On PostgreSQL the pool again, for scoring's helper connections; absent on PGlite. */
    private readonly scoringHelpers?: Database,
  ) {}

  async setResult(
    sport: Sport,
    matchId: number,
    body: MatchResultBody,
    actorUserId: number | null,
  ): Promise<void> {
    const now = this.clock.now()
    await this.db.transaction().execute(async (trx) => {
      const match = await q.matchForResult(trx, matchId)
      if (!match || match.sport !== sport) throw notFound('Match', 'id')
      if (match.starts_at.getTime() > now.getTime()) {
        throw new AppError('CONFLICT', 'This match has not started yet', 'id')
      }
      if (
        body.winnerSquadId !== null &&
        ![match.home_squad_id, match.away_squad_id].includes(body.winnerSquadId)
      ) {
        throw new AppError(
          'INVALID_SQUAD',
          'The winner must be one of the two squads',
          'winnerSquadId',
        )
      }
      await writeResult(trx, {
        matchId,
        outcome: body.outcome,
        winnerSquadId: body.winnerSquadId,
        homeRuns: body.home?.runs ?? null,
        homeWickets: body.home?.wickets ?? null,
        homeBalls: body.home ? ballsFromOvers(body.home.overs) : null,
        homeBallsAllotted: balls(body.home?.oversAllotted),
        awayRuns: body.away?.runs ?? null,
        awayWickets: body.away?.wickets ?? null,
        awayBalls: body.away ? ballsFromOvers(body.away.overs) : null,
        awayBallsAllotted: balls(body.away?.oversAllotted),
        sixes: body.sixes,
        sixesSimulated: false,
        method: body.method ?? null,
        cricsheetId: null,
        completedAt: now,
      })
      await refreshRoundStatuses(trx, [match.round_id])
      await rescoreAfterResult(
        trx,
        match.competition_id,
        match.round_id,
        {
          id: matchId,
          complete: match.status === 'complete',
          winnerSquadId: match.winner_squad_id,
        },
        this.scoringHelpers,
      )
      await q.audit(trx, {
        actorUserId,
        action: match.status === 'complete' ? 'result.correct' : 'result.set',
        entity: 'match',
        entityId: String(matchId),
        data: body,
        at: now,
      })
      // Last in the transaction: every open page hears of it at commit (decision 015).
      await publishEvent(
        trx,
        { type: 'result', matchId, change: match.status === 'complete' ? 'corrected' : 'set' },
        now,
      )
    })
    await this.publisher.publishAll()
  }
}
