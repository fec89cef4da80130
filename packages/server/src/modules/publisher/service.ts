import fs from 'node:fs/promises'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import path from 'node:path'
import { ladderOrder } from '@tipping/contract/rules/ladder'
import { pickSplit } from '@tipping/contract/rules/picks'
import type {
  AppConfigFile,
  FormGuideFile,
  LadderFile,
  RoundsFile,
  RoundStatsFile,
  SquadsFile,
  StatesFile,
  VenuesFile,
} from '@tipping/contract/static-files'
import { AUSTRALIAN_STATES } from '@tipping/contract/site'
import { DEFAULT_SITE_APP_CONFIG, type SiteAppConfig } from '@tipping/contract/site-rules'
import { appConfigContent, contentFiles } from '@tipping/contract/content'
import type { Sport } from '@tipping/contract/constants'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { loadContent } from '../content/service.ts'
import { currentCompetitionsIn } from '../competitions/service.ts'
import { effectiveStatus, roundStatus } from '@tipping/contract/rules/status'
import * as q from './queries.ts'
import { StaticStore } from './static-store.ts'
import { inTransaction } from '../../db/transaction.ts'

const CHECKSUMS_FILE = 'checksums.json'

export interface PublisherOptions {
  staticDir: string
  /** Folder of project-made logos, `{CODE}.webp`. */
  logosDir: string
  matchCentreUrl?: string | undefined
  /** Brand, store links and optional hooks for app-config.json (modules/site: siteAppConfig). */
  siteConfig?: SiteAppConfig
  /**
   * The database engine. On PGlite one process is all there is, and its one connection serves
   * every request: publishes take turns in memory and read outside a transaction, so the
   * connection is never held while files are written (ARCHITECTURE: PGlite is one connection).
   * Absent or 'postgres': the lock across processes.
   */
  engine?: 'pglite' | 'postgres' | undefined
}

/** In-process turns of the publishes into each static folder (PGlite: one process). */
const turns = new Map<string, Promise<unknown>>()

/**
 * Writes the static JSON root (ARCHITECTURE.md): per sport rounds.json, squads.json, venues.json,
 * the squad logos, and checksums.json last, so a client that sees a new checksum finds the file.
 *
 * Several processes publish into one folder (the API, `npm run worker`, the commands): each
 * publish reads the database and writes its files under one lock (queries.ts lockPublishing), and
 * checksums.json lists the folder's files as they are on disk then, whoever wrote them.
 */
export class Publisher {
  private readonly store: StaticStore
  /**
   * Pick counts of matches that had locked when counted, by match id. They never change: no tip
   * is saved or cleared once a match has started, and users who register later get no auto-tip.
   * Counting is the costly part of a publish (a million tippers per match), so each locked match
   * is counted once per process; only open matches are counted on every publish.
   */
  private readonly lockedPicks = new Map<number, { home: number; away: number }>()

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly opts: PublisherOptions,
  ) {
    this.store = new StaticStore(opts.staticDir)
  }

  /**
   * Runs one publish holding the publishing lock; everything it reads goes through the lock's
   * transaction (on PGlite: after the publish before it), so what it writes is at least as new as
   * any publish before it.
   */
  private exclusively<T>(work: (db: Database) => Promise<T>): Promise<T> {
    if (this.opts.engine === 'pglite') {
      const folder = path.resolve(this.opts.staticDir)
      const run = (turns.get(folder) ?? Promise.resolve()).then(() => work(this.db))
      turns.set(
        folder,
        run.catch(() => undefined),
      )
      return run
    }
    return inTransaction(this.db, async (trx) => {
      await q.lockPublishing(trx)
      return work(trx)
    })
  }

  /** Every file; returns checksums.json's list. */
  publishAll(): Promise<Record<string, string>> {
    return this.exclusively(async (db) => {
      await this.publishCompetitions(db)
      return this.writeContent(db)
    })
  }

  /**
   * The files of these sports' current competitions, then checksums.json: after a change that
   * touches nothing else (a result). The content files stay as they are.
   */
  publishSports(sports: readonly Sport[]): Promise<Record<string, string>> {
    return this.exclusively(async (db) => {
      await this.publishCompetitions(db, sports)
      return this.writeChecksums()
    })
  }

  /**
   * The content files (notification_bar.json, per sport mrecs.json, faqs.json, help_pages.json),
   * states.json and app-config.json, then checksums.json: after an admin edits content. The
   * content is read under the lock, so a slower process never writes an older edit over a newer.
   */
  publishContent(): Promise<Record<string, string>> {
    return this.exclusively((db) => this.writeContent(db))
  }

  private async publishCompetitions(db: Database, sports?: readonly Sport[]): Promise<void> {
    const now = this.clock.now()
    for (const c of await currentCompetitionsIn(db, sports)) {
      const [rounds, fixture, squads, venues] = await Promise.all([
        q.competitionRounds(db, c.id),
        q.competitionFixture(db, c.id),
        q.sportSquads(db, c.sport),
        q.competitionVenues(db, c.id),
      ])
      const roundsFile: RoundsFile = {
        competition: {
          identifier: c.identifier,
          name: c.name,
          season: c.season,
          year: c.year,
          goldenWeekRound: c.golden_week_round === null ? null : asRoundNumber(c.golden_week_round),
        },
        rounds: rounds.map((r) => {
          const matches = fixture
            .filter((m) => m.round_id === r.id)
            .map((m) => ({
              id: asMatchId(m.id),
              number: m.number,
              status: effectiveStatus(m.status, m.starts_at, now),
              date: m.starts_at.toISOString(),
              homeSquadId: asSquadId(m.home_squad_id),
              awaySquadId: asSquadId(m.away_squad_id),
              venueId: m.venue_id,
              isMarginGame: m.is_margin_game,
              class: m.match_class,
              winnerSquadId: m.winner_squad_id === null ? null : asSquadId(m.winner_squad_id),
              outcome: m.outcome,
            }))
          return {
            id: asRoundId(r.id),
            number: asRoundNumber(r.number),
            label: r.label,
            status: roundStatus(matches.map((m) => m.status)),
            startDate: matches[0]?.date ?? '',
            endDate: matches.at(-1)?.date ?? '',
            isGoldenWeek: c.golden_week_round === r.number,
            matches,
          }
        }),
      }
      const squadsFile: SquadsFile = {
        squads: squads.map((s) => ({
          id: asSquadId(s.id),
          code: s.code,
          name: s.name,
          nickname: s.nickname,
          shortName: s.short_name,
          colour: s.colour,
          secondColour: s.second_colour,
          logo: `logo/${s.id}.webp`,
        })),
      }
      const venuesFile: VenuesFile = { venues }
      await this.put(`${c.sport}/rounds.json`, roundsFile)
      await this.put(`${c.sport}/squads.json`, squadsFile)
      await this.put(`${c.sport}/venues.json`, venuesFile)
      await this.publishLadder(db, c.id, c.sport)
      await this.publishFormGuide(c.sport, roundsFile)
      await this.publishRoundStats(db, c.sport, roundsFile, fixture)
      for (const s of squads) {
        const logo = await fs
          .readFile(path.join(this.opts.logosDir, `${s.code}.webp`))
          .catch(() => null)
        if (logo) await this.store.write(`logo/${s.id}.webp`, logo)
      }
    }
  }

  /** The content files, states.json, app-config.json, then checksums.json of the whole folder. */
  private async writeContent(db: Database): Promise<Record<string, string>> {
    const content = await loadContent(db)
    for (const [file, value] of Object.entries(contentFiles(content))) await this.put(file, value)
    // Fixed data, written here so that every checksums.json lists it (spec 7 static GET calls).
    await this.put('states.json', {
      country: 'AU',
      states: [...AUSTRALIAN_STATES],
    } satisfies StatesFile)
    await this.put('app-config.json', {
      matchCentreUrl: this.opts.matchCentreUrl ?? null,
      ...(this.opts.siteConfig ?? DEFAULT_SITE_APP_CONFIG),
      ...appConfigContent(content),
    } satisfies AppConfigFile)
    return this.writeChecksums()
  }

  /**
   * checksums.json, last. From the disk, not from what this process wrote: another process's
   * files are listed at their true checksums, and one this process wrote earlier not at an old one.
   */
  private async writeChecksums(): Promise<Record<string, string>> {
    const files = await this.store.checksums(CHECKSUMS_FILE)
    await this.store.writeJson(CHECKSUMS_FILE, { files })
    return files
  }

  private async publishLadder(db: Database, competitionId: number, sport: string): Promise<void> {
    await this.put(`${sport}/ladder.json`, await teamLadderOf(db, competitionId, sport))
  }

  /** Each squad's completed matches, most recent first (spec 3: form entry). */
  private async publishFormGuide(sport: string, rounds: RoundsFile): Promise<void> {
    const squads: FormGuideFile['squads'] = {}
    const played = rounds.rounds
      .flatMap((r) => r.matches.map((m) => ({ ...m, round: r.number })))
      .filter((m) => m.status === 'complete')
      .sort((a, b) => b.date.localeCompare(a.date))
    for (const m of played) {
      for (const [self, opponent] of [
        [m.homeSquadId, m.awaySquadId],
        [m.awaySquadId, m.homeSquadId],
      ] as const) {
        const result = m.winnerSquadId === null ? 'draw' : m.winnerSquadId === self ? 'win' : 'loss'
        ;(squads[String(self)] ??= []).push({ opponent, result, round: m.round, match: m.id })
      }
    }
    await this.put(`${sport}/formguide.json`, { squads } satisfies FormGuideFile)
  }

  /**
   * Pick split, result and sixes per match, for rounds under way or over. Exact pick counts only
   * once a match is complete, when its tips are no longer private: this file is republished at
   * every lockout, and counts diffed between two publishes would narrow down the pick of a tipper
   * known to have tipped in between. Until then, the whole percentages the API shows to everyone.
   */
  private async publishRoundStats(
    db: Database,
    sport: string,
    rounds: RoundsFile,
    fixture: Awaited<ReturnType<typeof q.competitionFixture>>,
  ): Promise<void> {
    const live = rounds.rounds.filter((r) => r.status !== 'scheduled')
    const stored = new Map(fixture.map((m) => [m.id, m]))
    const uncounted = live
      .flatMap((r) => r.matches.map((m) => m.id))
      .filter((id) => !this.lockedPicks.has(id))
    const counts = await q.matchPickCounts(db, uncounted)
    const picksOf = (id: number): { home: number; away: number } => {
      const cached = this.lockedPicks.get(id)
      if (cached) return cached
      const m = stored.get(id)!
      const of = (squad: number) =>
        counts.find((c) => c.match_id === id && c.squad_id === squad)?.picks ?? 0
      const picks = { home: of(m.home_squad_id), away: of(m.away_squad_id) }
      if (m.status !== 'scheduled') this.lockedPicks.set(id, picks)
      return picks
    }
    for (const r of live) {
      const matches: RoundStatsFile['matches'] = {}
      for (const m of r.matches) {
        const { home, away } = picksOf(m.id)
        const complete = m.status === 'complete'
        matches[String(m.id)] = {
          homePicks: complete ? home : null,
          awayPicks: complete ? away : null,
          ...pickSplit(home, away),
          winnerSquadId: m.winnerSquadId,
          outcome: m.outcome,
          sixes: stored.get(m.id)?.sixes ?? null,
        }
      }
      await this.put(`${sport}/roundstats/${r.number}.json`, {
        round: r.number,
        matches,
      } satisfies RoundStatsFile)
    }
  }

  private async put(relative: string, value: unknown): Promise<void> {
    await this.store.writeJson(relative, value)
  }
}

/**
 * A competition's team ladder as ladder.json holds it: the current one when published, a past
 * one for the season archive (issue 31), read from its completed matches.
 */
export async function teamLadderOf(
  db: Database,
  competitionId: number,
  sport: string,
): Promise<LadderFile> {
  const [tallies, points] = await Promise.all([
    q.ladderTallies(db, competitionId, sport),
    q.competitionLadderPoints(db, competitionId),
  ])
  const ordered = ladderOrder(
    tallies.map((t) => ({
      squadId: t.squad_id,
      name: t.name,
      played: t.played,
      won: t.won,
      lost: t.lost,
      tied: t.tied,
      noResult: t.no_result,
      runsFor: t.runs_for,
      ballsFaced: t.balls_faced,
      runsAgainst: t.runs_against,
      ballsBowled: t.balls_bowled,
    })),
    points,
  )
  return {
    ladder: ordered.map((r) => ({
      position: r.position,
      squadId: asSquadId(r.squadId),
      // Neither Big Bash competition has conferences or divisions (spec 3: null where none).
      conference: null,
      division: null,
      played: r.played,
      won: r.won,
      lost: r.lost,
      tied: r.tied,
      noResult: r.noResult,
      points: r.points,
      percentage: r.percentage,
    })),
  }
}
