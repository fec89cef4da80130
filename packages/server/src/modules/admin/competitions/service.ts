import {
  type AdminCompetition,
  type CompetitionSettingsBody,
  type CreateCompetitionBody,
  type CricsheetImportResponse,
  type ImportFixtureResponse,
  createCompetitionBodySchema,
} from '@tipping/contract/admin'
import { asRoundNumber } from '@tipping/contract/ids'
import type { Sport } from '@tipping/contract/constants'
import { summariseCricsheet, type CricsheetMatch } from '@tipping/contract/cricsheet'
import type { SeasonFile } from '@tipping/contract/season-file'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { AppError, notFound } from '../../../errors.ts'
import { recordAudit } from '../../audit/service.ts'
import type { Publisher } from '../../publisher/service.ts'
import { importCricsheetResults } from '../../results/service.ts'
import { holdScoringFirst, rescoreInTransaction } from '../../scoring/service.ts'
import {
  competitionIdentifier,
  importSeasonInTransaction,
  makeCompetitionCurrent,
} from '../../seasons/service.ts'
import { roundHasStarted, rounds } from '../matches/queries.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../../db/transaction.ts'

const toCompetition = (c: q.CompetitionRow): AdminCompetition => ({
  id: c.id,
  sport: c.sport as Sport,
  identifier: c.identifier,
  season: c.season,
  name: c.name,
  year: c.year,
  isCurrent: c.is_current,
  goldenWeekRound: c.golden_week_round === null ? null : asRoundNumber(c.golden_week_round),
  ladderPoints: c.ladder_points,
  rounds: c.rounds,
  matches: c.matches,
  completedMatches: c.completed_matches,
})

/**
 * The console's seasons: creating one, importing its fixture and Cricsheet files, its settings,
 * re-scoring and re-publishing. Every change and its audit row commit in one transaction; what
 * the public site shows is republished after it.
 */
export class CompetitionsAdmin {
  constructor(
    private readonly db: Database,
    private readonly opts: {
      clock: Clock
      publisher: Publisher
      sponsorPrefix: string
      /** Called after a competition's settings (which one is current, Golden Week) change. */
      onCompetitionChanged: () => void
    },
  ) {}

  private async publish(): Promise<void> {
    await this.opts.publisher.publishAll()
  }

  async competitions(): Promise<AdminCompetition[]> {
    return (await q.competitions(this.db)).map(toCompetition)
  }

  async competition(id: number, db: Database = this.db): Promise<AdminCompetition> {
    const [row] = await q.competitions(db, id)
    if (!row) throw notFound('Competition', 'id')
    return toCompetition(row)
  }

  async createCompetition(actor: number, input: CreateCompetitionBody): Promise<AdminCompetition> {
    const body = createCompetitionBodySchema.parse(input)
    const id = await inTransaction(this.db, async (trx) => {
      const identifier = competitionIdentifier(this.opts.sponsorPrefix, body.sport, body.season)
      if (await q.competitionIdBySportSeason(trx, body.sport, body.season))
        throw new AppError(
          'CONFLICT',
          `${body.sport.toUpperCase()} season ${body.season} already exists`,
          'season',
        )
      const row = await q.insertCompetition(trx, { ...body, identifier })
      if (!row) throw new AppError('CONFLICT', `${identifier} already exists`, 'season')
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.create',
        entity: 'competition',
        entityId: row.id,
        data: { ...body, identifier },
      })
      return row.id
    })
    return this.competition(id)
  }

  /** Loads or updates a fixture (season file); the imported season becomes its sport's current. */
  async importFixture(actor: number, file: SeasonFile): Promise<ImportFixtureResponse> {
    const result = await inTransaction(this.db, async (trx) => {
      // It re-scores: the scoring lock before any row (scoring/service.ts holdScoringFirst).
      await holdScoringFirst(trx)
      const existing = await q.competitionIdBySportSeason(trx, file.sport, file.season)
      const before = new Map(
        existing ? (await q.fixtureSnapshot(trx, existing.id)).map((m) => [m.number, m]) : [],
      )
      for (const round of file.rounds)
        for (const m of round.matches) {
          const old = before.get(m.number)
          if (old && old.status !== 'scheduled' && Date.parse(m.startsAt) !== +old.starts_at)
            throw new AppError(
              'CONFLICT',
              `Match ${m.number} has started: its start time cannot change`,
              `rounds.${file.rounds.indexOf(round)}.matches.${round.matches.indexOf(m)}.startsAt`,
            )
        }
      // A started round keeps its margin game (the clock, as for the matches' start times).
      const id = await importSeasonInTransaction(trx, file, {
        sponsorPrefix: this.opts.sponsorPrefix,
        now: this.opts.clock.now(),
      })
      let added = 0
      let changed = 0
      for (const m of await q.fixtureSnapshot(trx, id)) {
        const old = before.get(m.number)
        if (!old) added++
        else if (
          +old.starts_at !== +m.starts_at ||
          old.venue_id !== m.venue_id ||
          old.home_squad_id !== m.home_squad_id ||
          old.away_squad_id !== m.away_squad_id ||
          old.is_margin_game !== m.is_margin_game
        )
          changed++
      }
      // A new Golden Week or new margin games change what earlier tips scored.
      await rescoreInTransaction(trx, id)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.import',
        entity: 'competition',
        entityId: id,
        data: {
          sport: file.sport,
          season: file.season,
          name: file.name,
          rounds: file.rounds.length,
          added,
          changed,
        },
      })
      return { id, added, changed }
    })
    await this.publish()
    return {
      competition: await this.competition(result.id),
      added: result.added,
      changed: result.changed,
    }
  }

  async updateCompetition(
    actor: number,
    id: number,
    body: CompetitionSettingsBody,
  ): Promise<AdminCompetition> {
    await inTransaction(this.db, async (trx) => {
      // It may re-score: the scoring lock before the competition's row (holdScoringFirst).
      await holdScoringFirst(trx)
      const c = await q.lockCompetition(trx, id)
      if (!c) throw notFound('Competition', 'id')
      const set: { golden_week_round?: number | null; ladder_points?: string } = {}
      let rescore = false
      if (body.goldenWeekRound !== undefined && body.goldenWeekRound !== c.golden_week_round) {
        const now = this.opts.clock.now()
        for (const number of [c.golden_week_round, body.goldenWeekRound]) {
          if (number === null) continue
          const round = await q.roundByNumber(trx, id, number)
          if (!round && number === body.goldenWeekRound)
            throw new AppError('VALIDATION', `There is no round ${number}`, 'goldenWeekRound')
          if (round && (await roundHasStarted(trx, round.id, now)))
            throw new AppError(
              'CONFLICT',
              `Round ${number} has started: Golden Week can only move between rounds not yet played`,
              'goldenWeekRound',
            )
        }
        set.golden_week_round = body.goldenWeekRound
        rescore = true
      }
      if (body.ladderPoints) set.ladder_points = JSON.stringify(body.ladderPoints)
      if (Object.keys(set).length > 0) await q.updateCompetition(trx, id, set)
      if (body.isCurrent) await makeCompetitionCurrent(trx, c.sport, id)
      if (rescore) await rescoreInTransaction(trx, id)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.settings',
        entity: 'competition',
        entityId: id,
        data: {
          before: {
            goldenWeekRound:
              c.golden_week_round === null ? null : asRoundNumber(c.golden_week_round),
            ladderPoints: c.ladder_points,
            isCurrent: c.is_current,
          },
          after: body,
        },
      })
    })
    this.opts.onCompetitionChanged()
    await this.publish()
    return this.competition(id)
  }

  async rescore(actor: number, id: number): Promise<{ rounds: number; tippers: number }> {
    const result = await inTransaction(this.db, async (trx) => {
      await holdScoringFirst(trx)
      const c = await q.lockCompetition(trx, id)
      if (!c) throw notFound('Competition', 'id')
      await rescoreInTransaction(trx, id)
      const result = {
        rounds: (await rounds(trx, id)).length,
        tippers: await q.tipperCount(trx, id),
      }
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.rescore',
        entity: 'competition',
        entityId: id,
        data: result,
      })
      return result
    })
    await this.publish()
    return result
  }

  async republish(actor: number): Promise<{ files: number }> {
    const files = Object.keys(await this.opts.publisher.publishAll()).length
    await inTransaction(this.db, (trx) =>
      recordAudit(trx, {
        actorUserId: actor,
        action: 'static.publish',
        entity: 'static',
        entityId: null,
        data: { files },
      }),
    )
    return { files }
  }

  async importCricsheet(
    actor: number,
    id: number,
    files: CricsheetMatch[],
  ): Promise<CricsheetImportResponse> {
    const summaries = files.map((f, i) => {
      try {
        return summariseCricsheet(f)
      } catch (err) {
        throw new AppError(
          'VALIDATION',
          `File ${i + 1}: ${err instanceof Error ? err.message : 'not a Cricsheet match'}`,
          `files.${i}`,
        )
      }
    })
    return importCricsheetResults({ db: this.db, publisher: this.opts.publisher }, id, summaries, {
      now: this.opts.clock.now(),
      actorUserId: actor,
    })
  }
}
