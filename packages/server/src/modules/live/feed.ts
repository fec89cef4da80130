import type { Sport } from '@tipping/contract/constants'
import type { MatchId, SquadId } from '@tipping/contract/ids'
import { cricsheetMatchSchema, summariseCricsheet } from '@tipping/contract/cricsheet'
import type { LiveInnings, LiveScoreBody } from '@tipping/contract/live'
import type { MatchResultBody } from '@tipping/contract/results'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import type { LiveService } from './service.ts'
import * as q from './queries.ts'

/** At speed 1, one delivery every this long: a T20 match's 250-odd balls in about three hours. */
export const REAL_MS_PER_BALL = 40_000

// Retirements are not dismissals (as cricsheet.ts counts them).
const NOT_OUT = new Set(['retired hurt', 'retired not out'])

/**
 * The live score after every delivery of a Cricsheet match, ball by ball (super overs left out:
 * decision 015), with each side's squad found by its name.
 */
export function* cricsheetLiveScores(
  raw: unknown,
  squadOf: (team: string) => SquadId,
): Generator<LiveScoreBody> {
  const m = cricsheetMatchSchema.parse(raw)
  const done: LiveInnings[] = []
  for (const inn of m.innings.filter((i) => !i.super_over).slice(0, 2)) {
    const now: LiveInnings = {
      battingSquadId: squadOf(inn.team),
      runs: 0,
      wickets: 0,
      overs: '0',
      sixes: 0,
    }
    let balls = 0
    for (const over of inn.overs) {
      for (const d of over.deliveries) {
        now.runs += d.runs.total
        if (!d.extras?.wides && !d.extras?.noballs) balls++
        if (d.runs.batter === 6 && !d.runs.non_boundary) now.sixes++
        now.wickets += (d.wickets ?? []).filter((w) => !NOT_OUT.has(w.kind)).length
        now.overs = oversFromBalls(balls)
        yield { innings: [...done, { ...now }] }
      }
    }
    done.push({ ...now })
  }
}

/** The match's result from the Cricsheet file, for the result use case. */
export function cricsheetResult(
  raw: unknown,
  squadOf: (team: string) => SquadId,
  home: SquadId,
): MatchResultBody {
  const s = summariseCricsheet(raw)
  const innings = (squad: SquadId) => {
    const i = s.innings.find((x) => squadOf(x.team) === squad)
    if (!i) return null
    return {
      runs: i.runs,
      wickets: i.wickets,
      overs: oversFromBalls(i.balls),
      ...(i.ballsAllotted === null ? {} : { oversAllotted: oversFromBalls(i.ballsAllotted) }),
    }
  }
  const away = s.innings.map((i) => squadOf(i.team)).find((id) => id !== home)
  return {
    outcome: s.outcome,
    winnerSquadId: s.winner === null ? null : squadOf(s.winner),
    home: innings(home),
    away: away === undefined ? null : innings(away),
    sixes: s.sixes,
    method: s.method,
  }
}

export interface ReplayOptions {
  sport: Sport
  matchId: MatchId
  /** A parsed Cricsheet match file. */
  file: unknown
  /** Times real time: 60 plays a match in about three minutes. */
  speed: number
  /** Sets the result at the end (absent: the replay leaves the match live). */
  setResult?: (sport: Sport, matchId: MatchId, body: MatchResultBody) => Promise<void>
  /** Told of each delivery's live score. */
  onBall?: (body: LiveScoreBody) => void
  sleep?: (ms: number) => Promise<void>
  /** Stops the replay between balls (the app closing): it then rejects with the signal's reason. */
  signal?: AbortSignal
}

/** A pause that ends early, rejecting, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason as Error)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Plays a Cricsheet match as a live feed against a fixture match: each delivery becomes a live
 * score through the same service an admin's entry goes through, then the result (when asked).
 * Squads are matched by name (case aside) to the fixture match's two.
 */
export async function replayCricsheet(
  db: Database,
  live: LiveService,
  opts: ReplayOptions,
): Promise<{ balls: number; result: MatchResultBody | null }> {
  const sides = await q.squadsOfMatch(db, opts.matchId)
  if (!sides || sides.sport !== opts.sport) throw notFound('Match', 'match')
  const file = cricsheetMatchSchema.parse(opts.file)
  const byName = new Map(sides.squads.map((s) => [s.name.toLowerCase(), s.id]))
  const squadOf = (team: string) => {
    const id = byName.get(team.toLowerCase())
    if (id === undefined)
      throw new AppError(
        'INVALID_SQUAD',
        `"${team}" is neither side of match ${opts.matchId} (${sides.squads.map((s) => s.name).join(' v ')})`,
        'file',
      )
    return id
  }
  file.info.teams.forEach(squadOf)
  const sleep = opts.sleep ?? ((ms: number) => abortableSleep(ms, opts.signal))
  const pause = REAL_MS_PER_BALL / opts.speed
  let balls = 0
  for (const body of cricsheetLiveScores(file, squadOf)) {
    opts.signal?.throwIfAborted()
    await live.setLive(opts.sport, opts.matchId, body, null)
    opts.onBall?.(body)
    balls++
    await sleep(pause)
  }
  opts.signal?.throwIfAborted()
  if (!opts.setResult) return { balls, result: null }
  const result = cricsheetResult(file, squadOf, sides.homeSquadId)
  await opts.setResult(opts.sport, opts.matchId, result)
  return { balls, result }
}
