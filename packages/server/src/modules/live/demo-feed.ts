import fs from 'node:fs/promises'
import path from 'node:path'
import { SPORTS, type Sport } from '@tipping/contract/constants'
import { asMatchId } from '@tipping/contract/ids'
import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import type { Logger } from '../../logger.ts'
import { REAL_MS_PER_BALL, abortableSleep, replayCricsheet } from './feed.ts'
import type { LiveService } from './service.ts'
import * as q from './queries.ts'

/**
 * The demo's live match moves: `npm start` runs on PGlite in one process, where `npm run
 * feed:replay` cannot run beside the server, so the server itself plays a Cricsheet match of
 * data/source/cricsheet ball by ball as the live feed of each sport's match in progress, through
 * the same replayCricsheet and LiveService as the command. Only for the seeded demo, never in
 * production, and off with DEMO_LIVE_FEED=false.
 */
export const demoFeedEnabled = (
  config: Pick<Config, 'SEED' | 'DEPLOY_ENV' | 'DEMO_LIVE_FEED'>,
): boolean => config.SEED === 'demo' && config.DEPLOY_ENV !== 'production' && config.DEMO_LIVE_FEED

interface FeedFile {
  file: string
  /** The two team names, lower case. */
  teams: string[]
}

export interface DemoFeedOptions {
  db: Database
  live: LiveService
  clock: Clock
  /** The repository's data folder (DATA_DIR): Cricsheet files are under source/cricsheet. */
  dataDir: string
  /** Between balls (DEMO_LIVE_FEED_BALL_MS). */
  ballMs: number
  /** The final score stays up this long before the match is played again. */
  restMs?: number
  /** With no match to play (none in progress yet), looked for again this long after. */
  retryMs?: number
  log: Pick<Logger, 'info' | 'error'>
}

/**
 * One loop per sport: find the match in progress (the latest started, so the one the demo's week
 * shows live), play a Cricsheet match between the same two squads against it, rest at the final
 * score, then play the next such file (or the same one again) from the first ball.
 *
 * The result is never entered. Setting it would complete the match (it then takes no live score),
 * re-score the round and publish new standings: a change to the demo's data that persists in the
 * PGlite folder across restarts and that nothing could undo short of seeding again. Left live, the
 * demo keeps the week it was seeded with, and its live card keeps moving on every start.
 */
export class DemoFeed {
  private readonly abort = new AbortController()
  private loops: Promise<void>[] = []
  private files: Map<Sport, Promise<FeedFile[]>> = new Map()
  private plays = 0

  constructor(private readonly opts: DemoFeedOptions) {}

  start(): void {
    this.loops = SPORTS.map((sport) => this.run(sport))
  }

  /** Stops between balls; resolves once no write is in flight (the database may then close). */
  async stop(): Promise<void> {
    this.abort.abort(new Error('The demo feed stopped'))
    await Promise.all(this.loops)
  }

  private get retryMs(): number {
    return this.opts.retryMs ?? 5 * this.opts.ballMs
  }

  private get signal(): AbortSignal {
    return this.abort.signal
  }

  private async run(sport: Sport): Promise<void> {
    const { db, live, log } = this.opts
    while (!this.signal.aborted) {
      try {
        const next = await this.nextPlay(sport)
        if (!next) {
          await abortableSleep(this.retryMs, this.signal)
          continue
        }
        log.info({ sport, matchId: next.matchId, file: next.file }, 'demo live feed: playing')
        const raw: unknown = JSON.parse(await fs.readFile(next.file, 'utf8'))
        await replayCricsheet(db, live, {
          sport,
          matchId: asMatchId(next.matchId),
          file: raw,
          speed: REAL_MS_PER_BALL / this.opts.ballMs,
          signal: this.signal,
        })
        await abortableSleep(this.opts.restMs ?? 30 * this.opts.ballMs, this.signal)
      } catch (err) {
        if (this.signal.aborted) return
        // An admin completing the match mid-replay (409) or a file that does not parse: the next
        // turn finds another match or file.
        log.error({ err, sport }, 'demo live feed: replay stopped')
        await abortableSleep(this.retryMs, this.signal).catch(() => {})
      }
    }
  }

  /**
   * The match to play and a file for it: the latest started match in progress that a Cricsheet
   * file of the sport has the two squads of. With none in progress and none about to be locked,
   * the next scheduled match with a file is started now (the demo's clock can leave none live:
   * a fixed CLOCK_NOW before the season, or every result entered); the scheduler's next lockout
   * makes it active, with its auto-tips, and the following turn plays it.
   */
  private async nextPlay(sport: Sport): Promise<{ matchId: number; file: string } | null> {
    const files = await this.filesOf(sport)
    const filesFor = (m: { home_name: string; away_name: string }) => {
      const teams = [m.home_name.toLowerCase(), m.away_name.toLowerCase()]
      return files.filter((f) => teams.every((t) => f.teams.includes(t)))
    }
    const now = this.opts.clock.now()
    const open = await q.openMatchesWithSquads(this.opts.db, sport)
    const started = open.filter((m) => m.status === 'active').reverse()
    for (const m of started) {
      const found = filesFor(m)
      // Each turn the next file between the two squads, so the loop does not replay one match.
      if (found.length > 0) return { matchId: m.id, file: found[this.plays++ % found.length]!.file }
    }
    const dueSoon = open.some((m) => m.status === 'scheduled' && m.starts_at <= now)
    if (started.length > 0 || dueSoon) return null
    const next = open.find((m) => m.status === 'scheduled' && filesFor(m).length > 0)
    if (next) {
      await q.startScheduledMatchAt(this.opts.db, next.id, now)
      this.opts.log.info({ sport, matchId: next.id }, 'demo live feed: started the next match')
    }
    return null
  }

  /** The sport's Cricsheet files with their teams, read once (source/cricsheet/{sport}-*). */
  private filesOf(sport: Sport): Promise<FeedFile[]> {
    let found = this.files.get(sport)
    if (!found) this.files.set(sport, (found = this.readFiles(sport)))
    return found
  }

  private async readFiles(sport: Sport): Promise<FeedFile[]> {
    const root = path.join(this.opts.dataDir, 'source', 'cricsheet')
    const dirs = (await fs.readdir(root).catch(() => [])).filter((d) => d.startsWith(`${sport}-`))
    const out: FeedFile[] = []
    for (const dir of dirs.sort()) {
      for (const name of (await fs.readdir(path.join(root, dir))).sort()) {
        if (!name.endsWith('.json')) continue
        const file = path.join(root, dir, name)
        try {
          const raw = JSON.parse(await fs.readFile(file, 'utf8')) as { info?: { teams?: unknown } }
          const teams = raw.info?.teams
          if (Array.isArray(teams) && teams.length === 2)
            out.push({ file, teams: teams.map((t) => String(t).toLowerCase()) })
        } catch {
          // Not a match file: left out.
        }
      }
    }
    return out
  }
}
