import fs from 'node:fs/promises'
import { seasonFileSchema, type SeasonFile } from '@tipping/contract/season-file'
import { marginGameOf, tooManyMarginGamesMessage } from '@tipping/contract/rules/margin-game'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

/** GAME_RULES.md: `{sponsorPrefix}-{sport}-{season}`. */
export const competitionIdentifier = (prefix: string, sport: string, season: number) =>
  `${prefix}-${sport}-${season}`

export async function readSeasonFile(file: string): Promise<SeasonFile> {
  return seasonFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')))
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
  return inTransaction(db, (trx) => importSeasonInTransaction(trx, file, opts))
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
    await makeCompetitionCurrent(trx, file.sport, competitionId)
    return competitionId
  }
}

/**
 * Makes a competition its sport's current one (the console's switch, a fixture import): the
 * others of the sport first, since the one-current index is checked row by row.
 */
export const makeCompetitionCurrent = (db: Database, sport: string, competitionId: number) =>
  q.makeCurrent(db, sport, competitionId)

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
