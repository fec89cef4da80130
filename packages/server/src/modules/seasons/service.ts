import fs from 'node:fs/promises'
import {
  resultsFileSchema,
  seasonFileSchema,
  type ResultsFile,
  type SeasonFile,
} from '@tipping/contract/season-file'
import { ballsFromOvers } from '@tipping/contract/rules/cricket'
import { marginGameOf, tooManyMarginGamesMessage } from '@tipping/contract/rules/margin-game'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import type { CricsheetSummary } from '@tipping/contract/cricsheet'
import { refreshRoundStatuses } from '../lifecycle/service.ts'
import { rescoreInTransaction } from '../scoring/service.ts'
import * as q from './queries.ts'

export type { ResultWrite } from './queries.ts'
/** Writes a completed match's result (status, score, winner); scoring is the caller's next step. */
export const writeResult = (db: Database, r: q.ResultWrite) => q.writeResult(db, r)

/** GAME_RULES.md: `{sponsorPrefix}-{sport}-{season}`. */
export const competitionIdentifier = (prefix: string, sport: string, season: number) =>
  `${prefix}-${sport}-${season}`

export async function readSeasonFile(file: string): Promise<SeasonFile> {
  return seasonFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')))
}

export async function readResultsFile(file: string): Promise<ResultsFile> {
  return resultsFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')))
}

export interface ImportOptions {
  sponsorPrefix: string
  /** Moves every start time by this much (the demo shifts the season around today). */
  shiftMs?: number
  /**
   * When given, a round started by then keeps its margin game: an import that would move it is
   * refused (the admin console passes its clock).
   */
  now?: Date
}

/**
 * Loads a season fixture (competition, squads, venues, rounds, matches) in one transaction.
 * Idempotent: importing the same file again updates in place and keeps ids (and so tips).
 */
export async function importSeason(
  db: Database,
  file: SeasonFile,
  opts: ImportOptions,
): Promise<number> {
  return db.transaction().execute((trx) => importSeasonInTransaction(trx, file, opts))
}

/** The same, inside a transaction the caller holds (the admin console audits in it). */
export async function importSeasonInTransaction(
  trx: Database,
  file: SeasonFile,
  opts: ImportOptions,
): Promise<number> {
  const shift = opts.shiftMs ?? 0
  const venueKeys = new Set(file.venues.map((v) => v.key))
  const squadCodes = new Set(file.squads.map((s) => s.code))
  file.rounds.forEach((round, i) => {
    // The season file schema refuses this too; a file built in code reaches here unparsed.
    const choice = marginGameOf(
      round.matches.map((m, j) => ({
        id: j,
        number: m.number,
        startsAt: m.startsAt,
        flagged: m.marginGame,
      })),
    )
    if (!choice.ok)
      throw new AppError(
        'VALIDATION',
        tooManyMarginGamesMessage(round.number, choice.flagged.length),
        `rounds.${i}.matches.${choice.flagged[1]}.marginGame`,
      )
  })
  for (const round of file.rounds) {
    for (const m of round.matches) {
      if (!venueKeys.has(m.venue))
        throw new AppError('VALIDATION', `Unknown venue ${m.venue}`, `match ${m.number}`)
      if (!squadCodes.has(m.home) || !squadCodes.has(m.away) || m.home === m.away) {
        throw new AppError('VALIDATION', `Bad squads ${m.home} v ${m.away}`, `match ${m.number}`)
      }
    }
  }
  {
    const identifier = competitionIdentifier(opts.sponsorPrefix, file.sport, file.season)
    const competitionId = await q.upsertCompetition(trx, { identifier, file })
    const squads = new Map(
      (await q.upsertSquads(trx, file.sport, file.squads)).map((s) => [s.code, s.id]),
    )
    const venues = new Map((await q.upsertVenues(trx, file.venues)).map((v) => [v.key, v.id]))
    const marginGamesBefore = storedMarginGames(await q.marginGameCandidates(trx, competitionId))
    const writes: q.MatchWrite[] = []
    for (const round of file.rounds) {
      const roundId = await q.upsertRound(trx, competitionId, round.number, round.label)
      for (const m of round.matches) {
        writes.push({
          competitionId,
          roundId,
          number: m.number,
          startsAt: new Date(Date.parse(m.startsAt) + shift),
          venueId: venues.get(m.venue)!,
          homeSquadId: squads.get(m.home)!,
          awaySquadId: squads.get(m.away)!,
          stage: m.stage,
          marginGameFlagged: m.marginGame,
          assumed: m.assumed,
        })
      }
    }
    await q.upsertMatches(trx, writes)
    await settleMarginGames(trx, competitionId, {
      before: marginGamesBefore,
      ...(opts.now ? { now: opts.now } : {}),
      refuse: (c) => {
        const i = file.rounds.findIndex((r) => r.number === c.round)
        const j = i < 0 ? -1 : file.rounds[i]!.matches.findIndex((m) => m.number === c.toNumber)
        return new AppError(
          'CONFLICT',
          startedRoundMessage(c),
          i < 0 ? 'rounds' : j < 0 ? `rounds.${i}` : `rounds.${i}.matches.${j}.marginGame`,
        )
      },
    })
    await q.makeCurrent(trx, file.sport, competitionId)
    return competitionId
  }
}

/** A round whose margin game moved (or is about to). */
export interface MarginGameChange {
  roundId: number
  /** The round's number. */
  round: number
  /** Match ids, and their numbers (null: the round had, or has, none). */
  from: number | null
  to: number | null
  fromNumber: number | null
  toNumber: number | null
  /** The round had started by the `now` given (a match not scheduled, or its start passed). */
  started: boolean
}

export const startedRoundMessage = (c: MarginGameChange) =>
  `Round ${c.round} has started: its margin game cannot move from match ${c.fromNumber}` +
  (c.toNumber === null ? ' out of the round' : ` to match ${c.toNumber}`)

const storedMarginGames = (rows: readonly q.MarginGameCandidateRow[]) =>
  new Map(rows.filter((m) => m.is_margin_game).map((m) => [m.round_id, m.id]))

/**
 * GAME_RULES.md: exactly one match per round is the margin game. Gives every round of the
 * competition the one marginGameOf (contract rules/margin-game.ts) names: its marked match, else
 * its last by start time. Runs after anything that adds, moves, re-times or marks matches.
 *
 * `before` is each round's margin game before the caller's writes (default: as stored now). With
 * `now`, a started round whose margin game would move is refused with `refuse`'s error: tips on it
 * are locked. A round gaining a margin game it never had is not refused. The margins tipped on a
 * match that stops being the margin game no longer count.
 */
export async function settleMarginGames(
  trx: Database,
  competitionId: number,
  opts: {
    before?: ReadonlyMap<number, number>
    now?: Date
    refuse?: (change: MarginGameChange) => AppError
  } = {},
): Promise<MarginGameChange[]> {
  const rows = await q.marginGameCandidates(trx, competitionId)
  const before = opts.before ?? storedMarginGames(rows)
  const byRound = new Map<number, q.MarginGameCandidateRow[]>()
  for (const m of rows) byRound.set(m.round_id, [...(byRound.get(m.round_id) ?? []), m])
  const numbers = new Map(rows.map((m) => [m.id, m.number]))
  const targets = new Set<number>()
  const changes: MarginGameChange[] = []
  for (const [roundId, matches] of byRound) {
    const choice = marginGameOf(
      matches.map((m) => ({
        id: m.id,
        number: m.number,
        startsAt: m.starts_at,
        flagged: m.margin_game_flagged,
      })),
    )
    // The one-mark-per-round index keeps a second mark out of the database.
    if (!choice.ok) throw new Error(`Round ${matches[0]!.round_number} has two margin game marks`)
    if (choice.id !== null) targets.add(choice.id)
    const from = before.get(roundId) ?? null
    if (from === choice.id) continue
    changes.push({
      roundId,
      round: matches[0]!.round_number,
      from,
      to: choice.id,
      fromNumber: from === null ? null : (numbers.get(from) ?? null),
      toNumber: choice.id === null ? null : (numbers.get(choice.id) ?? null),
      started:
        opts.now !== undefined &&
        matches.some((m) => m.status !== 'scheduled' || m.starts_at <= opts.now!),
    })
  }
  const refused = changes.find((c) => c.started && c.from !== null)
  if (refused)
    throw opts.refuse?.(refused) ?? new AppError('CONFLICT', startedRoundMessage(refused))
  const stored = rows.filter((m) => m.is_margin_game).map((m) => m.id)
  await q.writeMarginGames(trx, {
    unset: stored.filter((id) => !targets.has(id)),
    set: [...targets].filter((id) => !stored.includes(id)),
    // Every margin game before that is none now, also one moved out to a round left empty.
    voided: [...before.values()].filter((id) => !targets.has(id)),
  })
  return changes
}

export interface ApplyResultsOptions {
  /** Only matches that started at least this long before `now` are completed. */
  now?: Date
  minAgeMs?: number
  /** Fills unknown sixes on margin games with this generator (labelled simulated). */
  simulateSixes?: (matchNumber: number) => number
}

/** Writes the real results of a results file onto the fixture; returns the matches completed. */
export async function applyResults(
  db: Database,
  file: ResultsFile,
  opts: ApplyResultsOptions = {},
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const competition = await q.competitionBySportSeason(trx, file.sport, file.season)
    if (!competition)
      throw new AppError(
        'NOT_FOUND',
        `Import the ${file.sport} season ${file.season} fixture first`,
      )
    const matches = new Map(
      (await q.competitionMatchNumbers(trx, competition.id)).map((m) => [m.number, m]),
    )
    const squads = new Map((await q.squadIdsBySport(trx, file.sport)).map((s) => [s.code, s.id]))
    const marginGames = new Set(await q.marginGameNumbers(trx, competition.id))
    const touchedRounds = new Set<number>()
    let completed = 0
    for (const r of file.results) {
      const match = matches.get(r.match)
      if (!match) throw new AppError('VALIDATION', `Result for unknown match ${r.match}`, 'match')
      if (opts.now && match.starts_at.getTime() + (opts.minAgeMs ?? 0) > opts.now.getTime())
        continue
      const winner = r.winner === null ? null : (squads.get(r.winner) ?? null)
      if (r.winner !== null && winner !== match.home_squad_id && winner !== match.away_squad_id) {
        throw new AppError(
          'VALIDATION',
          `Winner ${r.winner} did not play match ${r.match}`,
          'winner',
        )
      }
      const simulated =
        r.sixes === null && marginGames.has(r.match) && opts.simulateSixes !== undefined
      await q.writeResult(trx, {
        matchId: match.id,
        outcome: r.outcome,
        winnerSquadId: winner,
        homeRuns: r.home?.runs ?? null,
        homeWickets: r.home?.wickets ?? null,
        homeBalls: r.home ? ballsFromOvers(r.home.overs) : null,
        awayRuns: r.away?.runs ?? null,
        awayWickets: r.away?.wickets ?? null,
        awayBalls: r.away ? ballsFromOvers(r.away.overs) : null,
        sixes: simulated ? opts.simulateSixes!(r.match) : r.sixes,
        sixesSimulated: simulated,
        method: r.method,
        cricsheetId: r.cricsheetId,
        completedAt: opts.now ?? new Date(match.starts_at.getTime() + 4 * 3_600_000),
      })
      touchedRounds.add(match.round_id)
      completed++
    }
    await refreshRoundStatuses(trx, [...touchedRounds])
    // Every result change re-scores what it touches.
    await rescoreInTransaction(trx, competition.id, [...touchedRounds])
    return completed
  })
}

export interface CricsheetImport {
  applied: number[]
  unmatched: { date: string; teams: string[] }[]
}

const DAY_MS = 86_400_000

/**
 * Completes fixture matches from Cricsheet summaries: a file pairs with the fixture match of the
 * same two squads starting within a day of its date (local dates differ from UTC ones). Results,
 * round statuses and scores change in one transaction.
 */
export async function importCricsheetResults(
  db: Database,
  competitionId: number,
  summaries: readonly CricsheetSummary[],
  now: Date,
): Promise<CricsheetImport> {
  return db
    .transaction()
    .execute((trx) => importCricsheetInTransaction(trx, competitionId, summaries, now))
}

/** The same, inside a transaction the caller holds. */
export async function importCricsheetInTransaction(
  trx: Database,
  competitionId: number,
  summaries: readonly CricsheetSummary[],
  now: Date,
): Promise<CricsheetImport> {
  {
    const fixture = await q.fixtureForPairing(trx, competitionId)
    const applied: number[] = []
    const unmatched: CricsheetImport['unmatched'] = []
    const rounds = new Set<number>()
    for (const s of summaries) {
      const day = Date.parse(`${s.date}T12:00:00Z`)
      const match = fixture.find(
        (f) =>
          Math.abs(f.starts_at.getTime() - day) <= DAY_MS &&
          new Set([f.home_name, f.away_name]).size === 2 &&
          s.teams.includes(f.home_name) &&
          s.teams.includes(f.away_name) &&
          !applied.includes(f.id),
      )
      if (!match) {
        unmatched.push({ date: s.date, teams: [...s.teams] })
        continue
      }
      const side = (name: string) => s.innings.find((i) => i.team === name) ?? null
      const home = side(match.home_name)
      const away = side(match.away_name)
      const winnerId =
        s.winner === null
          ? null
          : s.winner === match.home_name
            ? match.home_squad_id
            : match.away_squad_id
      await q.writeResult(trx, {
        matchId: match.id,
        outcome: s.outcome,
        winnerSquadId: winnerId,
        homeRuns: home?.runs ?? null,
        homeWickets: home?.wickets ?? null,
        homeBalls: home?.balls ?? null,
        homeBallsAllotted: home?.ballsAllotted ?? null,
        homeNrr: home?.nrrCredit ?? null,
        awayRuns: away?.runs ?? null,
        awayWickets: away?.wickets ?? null,
        awayBalls: away?.balls ?? null,
        awayBallsAllotted: away?.ballsAllotted ?? null,
        awayNrr: away?.nrrCredit ?? null,
        sixes: s.sixes,
        sixesSimulated: false,
        method: s.method,
        cricsheetId: null,
        completedAt: now,
      })
      applied.push(match.id)
      rounds.add(match.round_id)
    }
    await refreshRoundStatuses(trx, [...rounds])
    await rescoreInTransaction(trx, competitionId, [...rounds])
    return { applied, unmatched }
  }
}
