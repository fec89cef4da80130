import fs from 'node:fs/promises'
import { asMatchId, asRoundNumber, type MatchId, type RoundNumber } from '@tipping/contract/ids'
import type { Sport } from '@tipping/contract/constants'
import type { CricsheetSummary } from '@tipping/contract/cricsheet'
import type { MatchOutcome } from '@tipping/contract/predictions'
import type { MatchResultBody } from '@tipping/contract/results'
import { ballsFromOvers, oversFromBalls } from '@tipping/contract/rules/cricket'
import { resultsFileSchema, type ResultsFile } from '@tipping/contract/season-file'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import { recordAudit } from '../audit/service.ts'
import { refreshRoundStatuses } from '../lifecycle/service.ts'
import { publishEvent } from '../live/service.ts'
import { holdScoringFirst, rescoreAfterResult, rescoreInTransaction } from '../scoring/service.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

// Applying a result is one use case with three doors: the admin console's result form
// (ResultsService.setResult), a results file (applyResultsFile: `npm run import`, the demo seed)
// and Cricsheet match files (importCricsheetResults: the console's upload, `npm run
// import:cricsheet`). Each door turns its input into ResultEntry values; applyResults does the rest
// (decision 013).

/** One side's innings as stored: balls, not overs. */
export interface InningsResult {
  runs: number | null
  wickets: number | null
  balls: number | null
  /** A rain-reduced innings' allotted balls; null: the full 20 overs. */
  ballsAllotted: number | null
  /** Net run rate credits (rain-revised chases); null: the innings as played. */
  nrr: { runs: number; balls: number } | null
}

/** One match's result, whichever door it came through. */
export interface ResultEntry {
  matchId: number
  outcome: MatchOutcome
  winnerSquadId: number | null
  home: InningsResult | null
  away: InningsResult | null
  sixes: number | null
  /** Sixes made up (the demo), labelled so in the database. */
  sixesSimulated: boolean
  method: string | null
  cricsheetId: string | null
  completedAt: Date
}

/** Which door a result came through, recorded in its audit row. */
export type ResultSource = 'console' | 'results file' | 'cricsheet'

export interface ApplyResultsInput {
  /** The matches must be of this competition (files) or sport (the console's URL): else 404. */
  scope: { competitionId: number } | { sport: Sport }
  results: readonly ResultEntry[]
  actorUserId: number | null
  source: ResultSource
  /** The audit rows' time by the app's clock; absent, the database's. */
  now?: Date | undefined
}

export interface AppliedResult {
  matchId: number
  number: number
  competitionId: number
  sport: Sport
  roundId: number
  /** The round's number. */
  round: number
  /** The match had a result before (a correction). */
  corrected: boolean
}

/** Republishes the public files of some sports (the Publisher). */
export interface ResultsPublisher {
  publishSports(sports: readonly Sport[]): Promise<unknown>
}

export interface ResultsDeps {
  db: Database
  /** Absent: the caller publishes (the demo seed, before anything is served; tests). */
  publisher?: ResultsPublisher | undefined
  /** On PostgreSQL the pool again, for scoring's helper connections (decision 009). */
  scoringHelpers?: Database | undefined
}

/**
 * Applies results: checks each against the game's rules, writes it, refreshes its round's status,
 * re-scores what it touches and writes one audit row per match, all in one transaction (a crash
 * leaves the old numbers, never half of the new); then republishes the sports it changed.
 * `within` runs last in the same transaction (a door's own audit row).
 */
export async function applyResults(
  deps: ResultsDeps,
  input: ApplyResultsInput,
  within?: (trx: Database, applied: AppliedResult[]) => Promise<void>,
): Promise<AppliedResult[]> {
  const applied = await inTransaction(deps.db, async (trx) => {
    const applied = await applyInTransaction(trx, input, deps.scoringHelpers)
    await within?.(trx, applied)
    return applied
  })
  if (applied.length > 0 && deps.publisher)
    await deps.publisher.publishSports([...new Set(applied.map((a) => a.sport))])
  return applied
}

async function applyInTransaction(
  trx: Database,
  input: ApplyResultsInput,
  scoringHelpers: Database | undefined,
): Promise<AppliedResult[]> {
  if (input.results.length === 0) return []
  // Before the matches' rows are locked: the order every scorer keeps (scoring/service.ts).
  await holdScoringFirst(trx)
  const matches = new Map(
    (await q.matchesForResult(trx, [...new Set(input.results.map((r) => r.matchId))])).map((m) => [
      m.id,
      m,
    ]),
  )
  const inScope = (m: q.MatchForResult) =>
    'sport' in input.scope
      ? m.sport === input.scope.sport
      : m.competition_id === input.scope.competitionId
  /** Each match as it was before this call, for the re-score from one match's tips. */
  const before = new Map<number, { complete: boolean; winnerSquadId: number | null }>()
  const applied: AppliedResult[] = []
  for (const r of input.results) {
    const m = matches.get(r.matchId)
    if (!m || !inScope(m)) throw notFound('Match', 'id')
    if (m.starts_at.getTime() > r.completedAt.getTime())
      throw new AppError('CONFLICT', 'This match has not started yet', 'id')
    if (r.winnerSquadId !== null && ![m.home_squad_id, m.away_squad_id].includes(r.winnerSquadId))
      throw new AppError(
        'INVALID_SQUAD',
        'The winner must be one of the two squads',
        'winnerSquadId',
      )
    if (!before.has(m.id))
      before.set(m.id, { complete: m.status === 'complete', winnerSquadId: m.winner_squad_id })
    const corrected = m.status === 'complete' || applied.some((a) => a.matchId === m.id)
    await q.writeResult(trx, {
      matchId: m.id,
      outcome: r.outcome,
      winnerSquadId: r.winnerSquadId,
      homeRuns: r.home?.runs ?? null,
      homeWickets: r.home?.wickets ?? null,
      homeBalls: r.home?.balls ?? null,
      homeBallsAllotted: r.home?.ballsAllotted ?? null,
      homeNrr: r.home?.nrr ?? null,
      awayRuns: r.away?.runs ?? null,
      awayWickets: r.away?.wickets ?? null,
      awayBalls: r.away?.balls ?? null,
      awayBallsAllotted: r.away?.ballsAllotted ?? null,
      awayNrr: r.away?.nrr ?? null,
      sixes: r.sixes,
      sixesSimulated: r.sixesSimulated,
      method: r.method,
      cricsheetId: r.cricsheetId,
      completedAt: r.completedAt,
    })
    await recordAudit(trx, {
      actorUserId: input.actorUserId,
      action: corrected ? 'result.correct' : 'result.set',
      entity: 'match',
      entityId: m.id,
      data: auditData(r, m.number, input.source),
      ...(input.now ? { at: input.now } : {}),
    })
    applied.push({
      matchId: m.id,
      number: m.number,
      competitionId: m.competition_id,
      sport: m.sport as Sport,
      roundId: m.round_id,
      round: m.round_number,
      corrected,
    })
  }
  await refreshRoundStatuses(trx, [...new Set(applied.map((a) => a.roundId))])
  // Every result change re-scores what it touches: one match from its own tips, more from all.
  for (const competitionId of [...new Set(applied.map((a) => a.competitionId))].sort(
    (a, b) => a - b,
  )) {
    const mine = applied.filter((a) => a.competitionId === competitionId)
    const only = mine.length === 1 ? mine[0]! : null
    if (only)
      await rescoreAfterResult(
        trx,
        competitionId,
        only.roundId,
        { id: only.matchId, ...before.get(only.matchId)! },
        scoringHelpers,
      )
    else await rescoreInTransaction(trx, competitionId, [...new Set(mine.map((a) => a.roundId))])
  }
  // Last in the transaction, once per match, whichever door the result came through: every open
  // page hears of it at commit, with the new scores version (decision 015).
  const at = input.now ?? new Date()
  for (const [matchId, was] of before)
    await publishEvent(
      trx,
      { type: 'result', matchId, change: was.complete ? 'corrected' : 'set' },
      at,
    )
  return applied
}

/** The audit row's data: the same fields from every door, innings in overs as the console shows. */
function auditData(r: ResultEntry, number: number, source: ResultSource) {
  const innings = (i: InningsResult | null) =>
    i === null
      ? null
      : {
          runs: i.runs,
          wickets: i.wickets,
          overs: i.balls === null ? null : oversFromBalls(i.balls),
          oversAllotted: i.ballsAllotted === null ? null : oversFromBalls(i.ballsAllotted),
        }
  return {
    source,
    match: number,
    outcome: r.outcome,
    winnerSquadId: r.winnerSquadId,
    home: innings(r.home),
    away: innings(r.away),
    sixes: r.sixes,
    sixesSimulated: r.sixesSimulated,
    method: r.method,
  }
}

const playedInnings = (
  i: { runs: number; wickets: number; overs: string; oversAllotted?: string | undefined } | null,
): InningsResult | null =>
  i === null
    ? null
    : {
        runs: i.runs,
        wickets: i.wickets,
        balls: ballsFromOvers(i.overs),
        ballsAllotted: i.oversAllotted === undefined ? null : ballsFromOvers(i.oversAllotted),
        nrr: null,
      }

// The console's door --------------------------------------------------------------------------

/** The admin console's result form: sets or corrects one match's result. */
export class ResultsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publisher: ResultsPublisher,
    /** On PostgreSQL the pool again, for scoring's helper connections; absent on PGlite. */
    private readonly scoringHelpers?: Database,
  ) {}

  async setResult(
    sport: Sport,
    matchId: MatchId,
    body: MatchResultBody,
    actorUserId: number | null,
  ): Promise<void> {
    const now = this.clock.now()
    await applyResults(
      { db: this.db, publisher: this.publisher, scoringHelpers: this.scoringHelpers },
      {
        scope: { sport },
        results: [
          {
            matchId,
            outcome: body.outcome,
            winnerSquadId: body.winnerSquadId,
            home: playedInnings(body.home),
            away: playedInnings(body.away),
            sixes: body.sixes,
            sixesSimulated: false,
            method: body.method ?? null,
            cricsheetId: null,
            completedAt: now,
          },
        ],
        actorUserId,
        source: 'console',
        now,
      },
    )
  }
}

// The results file's door ---------------------------------------------------------------------

export async function readResultsFile(file: string): Promise<ResultsFile> {
  return resultsFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')))
}

export interface ApplyResultsFileOptions {
  /** Only matches that started at least `minAgeMs` before `now` are completed. */
  now?: Date
  minAgeMs?: number
  /** Fills unknown sixes on margin games with this generator (labelled simulated). */
  simulateSixes?: (matchNumber: number) => number
}

/** Writes the real results of a results file onto the fixture; returns the matches completed. */
export async function applyResultsFile(
  deps: ResultsDeps,
  file: ResultsFile,
  opts: ApplyResultsFileOptions = {},
): Promise<number> {
  const { db } = deps
  const competition = await q.competitionBySportSeason(db, file.sport, file.season)
  if (!competition)
    throw new AppError('NOT_FOUND', `Import the ${file.sport} season ${file.season} fixture first`)
  const matches = new Map(
    (await q.competitionMatchNumbers(db, competition.id)).map((m) => [m.number, m]),
  )
  const squads = new Map((await q.squadIdsBySport(db, file.sport)).map((s) => [s.code, s.id]))
  const marginGames = new Set(await q.marginGameNumbers(db, competition.id))
  const results: ResultEntry[] = []
  for (const r of file.results) {
    const match = matches.get(r.match)
    if (!match) throw new AppError('VALIDATION', `Result for unknown match ${r.match}`, 'match')
    if (opts.now && match.starts_at.getTime() + (opts.minAgeMs ?? 0) > opts.now.getTime()) continue
    const winner = r.winner === null ? null : (squads.get(r.winner) ?? null)
    if (r.winner !== null && winner !== match.home_squad_id && winner !== match.away_squad_id)
      throw new AppError('VALIDATION', `Winner ${r.winner} did not play match ${r.match}`, 'winner')
    const simulated =
      r.sixes === null && marginGames.has(r.match) && opts.simulateSixes !== undefined
    results.push({
      matchId: match.id,
      outcome: r.outcome,
      winnerSquadId: winner,
      home: playedInnings(r.home),
      away: playedInnings(r.away),
      sixes: simulated ? opts.simulateSixes!(r.match) : r.sixes,
      sixesSimulated: simulated,
      method: r.method,
      cricsheetId: r.cricsheetId,
      completedAt: opts.now ?? new Date(match.starts_at.getTime() + 4 * 3_600_000),
    })
  }
  const applied = await applyResults(deps, {
    scope: { competitionId: competition.id },
    results,
    actorUserId: null,
    source: 'results file',
    now: opts.now,
  })
  return applied.length
}

// The Cricsheet door --------------------------------------------------------------------------

export interface CricsheetImport {
  applied: { matchId: MatchId; number: number; round: RoundNumber }[]
  unmatched: { date: string; teams: string[] }[]
}

const DAY_MS = 86_400_000

const byNumber = (applied: readonly AppliedResult[]) =>
  [...applied].sort((a, b) => a.number - b.number)

/**
 * Completes fixture matches from Cricsheet summaries: a file pairs with the fixture match of the
 * same two squads starting within a day of its date (local dates differ from UTC ones). Audited
 * per match and once for the upload (what was applied, what matched nothing).
 */
export async function importCricsheetResults(
  deps: ResultsDeps,
  competitionId: number,
  summaries: readonly CricsheetSummary[],
  opts: { now: Date; actorUserId: number | null },
): Promise<CricsheetImport> {
  const { db } = deps
  if (!(await q.competitionById(db, competitionId))) throw notFound('Competition', 'id')
  const fixture = await q.fixtureForPairing(db, competitionId)
  const results: ResultEntry[] = []
  const unmatched: CricsheetImport['unmatched'] = []
  for (const s of summaries) {
    const day = Date.parse(`${s.date}T12:00:00Z`)
    const match = fixture.find(
      (f) =>
        Math.abs(f.starts_at.getTime() - day) <= DAY_MS &&
        new Set([f.home_name, f.away_name]).size === 2 &&
        s.teams.includes(f.home_name) &&
        s.teams.includes(f.away_name) &&
        !results.some((r) => r.matchId === f.id),
    )
    if (!match) {
      unmatched.push({ date: s.date, teams: [...s.teams] })
      continue
    }
    const side = (name: string): InningsResult | null => {
      const i = s.innings.find((i) => i.team === name)
      return i
        ? {
            runs: i.runs,
            wickets: i.wickets,
            balls: i.balls,
            ballsAllotted: i.ballsAllotted,
            nrr: i.nrrCredit,
          }
        : null
    }
    results.push({
      matchId: match.id,
      outcome: s.outcome,
      winnerSquadId:
        s.winner === null
          ? null
          : s.winner === match.home_name
            ? match.home_squad_id
            : match.away_squad_id,
      home: side(match.home_name),
      away: side(match.away_name),
      sixes: s.sixes,
      sixesSimulated: false,
      method: s.method,
      cricsheetId: null,
      completedAt: opts.now,
    })
  }
  const applied = await applyResults(
    deps,
    {
      scope: { competitionId },
      results,
      actorUserId: opts.actorUserId,
      source: 'cricsheet',
      now: opts.now,
    },
    (trx, applied) =>
      recordAudit(trx, {
        actorUserId: opts.actorUserId,
        action: 'results.cricsheet',
        entity: 'competition',
        entityId: competitionId,
        data: { applied: byNumber(applied).map((a) => a.number), unmatched },
        at: opts.now,
      }),
  )
  return {
    applied: byNumber(applied).map((a) => ({
      matchId: asMatchId(a.matchId),
      number: a.number,
      round: asRoundNumber(a.round),
    })),
    unmatched,
  }
}
