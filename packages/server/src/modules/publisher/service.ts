import fs from 'node:fs/promises'
import path from 'node:path'
import type { RoundsFile, SquadsFile, VenuesFile } from '@tipping/contract/static-files'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { effectiveStatus, roundStatus } from '../predictions/service.ts'
import * as q from './queries.ts'
import { StaticStore } from './static-store.ts'

export interface PublisherOptions {
  staticDir: string
  /** Folder of project-made logos, `{CODE}.webp`. */
  logosDir: string
}

/**
 * Writes the static JSON root (ARCHITECTURE.md): per sport rounds.json, squads.json, venues.json,
 * the squad logos, and checksums.json last, so a client that sees a new checksum finds the file.
 */
export class Publisher {
  private readonly store: StaticStore
  private readonly checksums = new Map<string, string>()

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly opts: PublisherOptions,
  ) {
    this.store = new StaticStore(opts.staticDir)
  }

  async publishAll(): Promise<Record<string, string>> {
    const now = this.clock.now()
    for (const c of await q.currentCompetitions(this.db)) {
      const [rounds, fixture, squads, venues] = await Promise.all([
        q.competitionRounds(this.db, c.id),
        q.competitionFixture(this.db, c.id),
        q.sportSquads(this.db, c.sport),
        q.competitionVenues(this.db, c.id),
      ])
      const roundsFile: RoundsFile = {
        competition: {
          identifier: c.identifier,
          name: c.name,
          season: c.season,
          year: c.year,
          goldenWeekRound: c.golden_week_round,
        },
        rounds: rounds.map((r) => {
          const matches = fixture
            .filter((m) => m.round_id === r.id)
            .map((m) => ({
              id: m.id,
              number: m.number,
              status: effectiveStatus(m.status, m.starts_at, now),
              date: m.starts_at.toISOString(),
              homeSquadId: m.home_squad_id,
              awaySquadId: m.away_squad_id,
              venueId: m.venue_id,
              isMarginGame: m.is_margin_game,
              class: m.match_class,
              winnerSquadId: m.winner_squad_id,
              outcome: m.outcome,
            }))
          return {
            id: r.id,
            number: r.number,
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
          id: s.id,
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
      for (const s of squads) {
        const logo = await fs
          .readFile(path.join(this.opts.logosDir, `${s.code}.webp`))
          .catch(() => null)
        if (logo)
          this.checksums.set(`logo/${s.id}.webp`, await this.store.write(`logo/${s.id}.webp`, logo))
      }
    }
    const files = Object.fromEntries([...this.checksums].sort(([a], [b]) => a.localeCompare(b)))
    await this.store.writeJson('checksums.json', { files })
    return files
  }

  private async put(relative: string, value: unknown): Promise<void> {
    this.checksums.set(relative, await this.store.writeJson(relative, value))
  }
}
