import type {
  AdminMatch,
  AdminRound,
  CompetitionRoundsResponse,
  UpdateMatchBody,
} from '@tipping/contract/admin'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { Lifecycle } from '@tipping/contract/predictions'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { AppError, notFound } from '../../../errors.ts'
import { recordAudit } from '../../audit/service.ts'
import { effectiveStatus } from '@tipping/contract/rules/status'
import type { Publisher } from '../../publisher/service.ts'
import { settleMarginGames, startedRoundMessage } from '../../seasons/service.ts'
import type { CompetitionsAdmin } from '../competitions/service.ts'
import { iso } from '../paging.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../../db/transaction.ts'

/** A scheduled match whose start has passed is active, whether or not the scheduler has run. */
const matchStatus = (m: { status: Lifecycle; starts_at: Date }, now: Date): Lifecycle =>
  effectiveStatus(m.status, m.starts_at, now)

function toMatch(m: q.AdminMatchRow, now: Date, roundStarted: boolean): AdminMatch {
  const status = matchStatus(m, now)
  const innings = (runs: number | null, wickets: number | null, balls: number | null) =>
    runs === null && wickets === null && balls === null
      ? null
      : { runs, wickets, overs: balls === null ? null : oversFromBalls(balls) }
  return {
    id: asMatchId(m.id),
    number: m.number,
    roundId: asRoundId(m.round_id),
    startsAt: iso(m.starts_at),
    status,
    venueId: m.venue_id,
    homeSquadId: asSquadId(m.home_squad_id),
    awaySquadId: asSquadId(m.away_squad_id),
    isMarginGame: m.is_margin_game,
    stage: m.stage,
    result:
      m.outcome === null
        ? null
        : {
            outcome: m.outcome,
            winnerSquadId: m.winner_squad_id === null ? null : asSquadId(m.winner_squad_id),
            home: innings(m.home_runs, m.home_wickets, m.home_balls),
            away: innings(m.away_runs, m.away_wickets, m.away_balls),
            sixes: m.sixes,
            method: m.method,
          },
    editable: {
      startsAt: status === 'scheduled',
      venue: status !== 'complete',
      marginGame: !roundStarted && !m.is_margin_game,
    },
  }
}

/** The console's rounds and matches: the fixture by round, labels, start times, venues, margin games. */
export class MatchesAdmin {
  constructor(
    private readonly db: Database,
    private readonly opts: { clock: Clock; publisher: Publisher; competitions: CompetitionsAdmin },
  ) {}

  private async publish(): Promise<void> {
    await this.opts.publisher.publishAll()
  }

  async rounds(id: number): Promise<CompetitionRoundsResponse> {
    const competition = await this.opts.competitions.competition(id)
    const now = this.opts.clock.now()
    const [rounds, matches, squads, venues] = await Promise.all([
      q.rounds(this.db, id),
      q.matches(this.db, id),
      q.competitionSquads(this.db, competition.sport),
      q.allVenues(this.db),
    ])
    const byRound = new Map<number, q.AdminMatchRow[]>()
    for (const m of matches) byRound.set(m.round_id, [...(byRound.get(m.round_id) ?? []), m])
    const out: AdminRound[] = rounds.map((r) => {
      const list = byRound.get(r.id) ?? []
      const started = list.some((m) => matchStatus(m, now) !== 'scheduled')
      return {
        id: asRoundId(r.id),
        number: asRoundNumber(r.number),
        label: r.label,
        status: r.status === 'scheduled' && started ? 'active' : r.status,
        isGoldenWeek: competition.goldenWeekRound === r.number,
        matches: list.map((m) => toMatch(m, now, started)),
      }
    })
    return {
      competition,
      rounds: out,
      squads: squads.map((s) => ({ id: asSquadId(s.id), name: s.name, shortName: s.short_name })),
      venues,
    }
  }

  async updateRound(actor: number, id: number, label: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const round = await q.lockRound(trx, id)
      if (!round) throw notFound('Round', 'id')
      await q.updateRoundLabel(trx, id, label)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'round.update',
        entity: 'round',
        entityId: id,
        data: { before: { label: round.label }, after: { label } },
      })
    })
    await this.publish()
  }

  async roundOf(id: number): Promise<AdminRound> {
    const round = await q.lockRound(this.db, id)
    if (!round) throw notFound('Round', 'id')
    const all = await this.rounds(round.competition_id)
    return all.rounds.find((r) => r.id === id)!
  }

  async updateMatch(actor: number, id: number, body: UpdateMatchBody): Promise<AdminMatch> {
    const now = this.opts.clock.now()
    await inTransaction(this.db, async (trx) => {
      const m = await q.lockMatch(trx, id)
      if (!m) throw notFound('Match', 'id')
      const status = matchStatus(m, now)
      const set: { starts_at?: Date; venue_id?: number } = {}
      const before: Record<string, unknown> = {}
      if (body.startsAt !== undefined) {
        if (status !== 'scheduled')
          throw new AppError(
            'CONFLICT',
            status === 'complete'
              ? 'This match is complete: its start time cannot change'
              : 'This match has started: its start time cannot change',
            'startsAt',
          )
        const startsAt = new Date(body.startsAt)
        if (startsAt.getTime() <= now.getTime())
          throw new AppError('VALIDATION', 'The new start must be in the future', 'startsAt')
        set.starts_at = startsAt
        before.startsAt = iso(m.starts_at)
      }
      if (body.venueId !== undefined) {
        if (status === 'complete')
          throw new AppError('CONFLICT', 'This match is complete: its venue is history', 'venueId')
        if (!(await q.venueExists(trx, body.venueId)))
          throw new AppError('VALIDATION', 'No such venue', 'venueId')
        set.venue_id = body.venueId
        before.venueId = m.venue_id
      }
      if (Object.keys(set).length > 0) await q.updateMatch(trx, id, set)
      // GAME_RULES.md: one margin game per round, the marked match, else the round's last.
      if (body.isMarginGame === false && !m.margin_game_flagged)
        throw new AppError(
          'VALIDATION',
          m.is_margin_game
            ? `Match ${m.number} is the margin game as its round's last match: mark another match to take it over`
            : `Match ${m.number} is not the margin game`,
          'isMarginGame',
        )
      if (body.isMarginGame !== undefined && body.isMarginGame !== m.margin_game_flagged) {
        // Marking the margin game already in effect moves nothing: it only stays put from now on.
        const moves = !body.isMarginGame || !m.is_margin_game
        if (moves && (await q.roundHasStarted(trx, m.round_id, now)))
          throw new AppError(
            'CONFLICT',
            body.isMarginGame
              ? 'The round has started: its margin game cannot move'
              : 'The round has started: its margin game cannot lose its mark',
            'isMarginGame',
          )
        before.marginGameMarked = m.margin_game_flagged
        await q.markMarginGame(trx, m.round_id, id, body.isMarginGame)
      }
      // A new start time can make another match the round's last, so its margin game.
      const moved = await settleMarginGames(trx, m.competition_id, {
        now,
        refuse: (c) =>
          new AppError(
            'CONFLICT',
            startedRoundMessage(c),
            body.isMarginGame !== undefined ? 'isMarginGame' : 'startsAt',
          ),
      })
      if (moved.length > 0)
        before.marginGame = moved.flatMap((c) => (c.from === null ? [] : [c.from]))
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'match.update',
        entity: 'match',
        entityId: id,
        data: { number: m.number, before, after: body },
      })
    })
    await this.publish()
    const m = await q.matchById(this.db, id)
    return toMatch(m!, now, await q.roundHasStarted(this.db, m!.round_id, now))
  }
}
