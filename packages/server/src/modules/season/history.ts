import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

// My season's rank history (issue 31; docs/decisions/021-season-rank-history.md): per round, the
// ranked tippers (registered and active) at each cumulative (points, margin) through the round,
// and at each number of points in the round (migration 2026-11-27T0200). Scoring appends the
// first round it re-scored to season_history_stale in its own transaction; the scheduler's
// season_history job rebuilds the history from there, set-based (queries.ts rebuildHistoryOf),
// off the result's path. Registrations and (re)activations change it themselves through
// season_history_delta().

/**
 * Rebuilds the stale part of every competition's history (a competition never built: all of it),
 * each in its own transaction. Safe with several processes: a competition's state row is taken
 * FOR UPDATE SKIP LOCKED, so one process builds it while the others pass it by. Returns how many
 * competitions it rebuilt.
 */
export async function rebuildSeasonHistories(db: Database): Promise<number> {
  let rebuilt = 0
  for (const id of await q.historyDue(db))
    if (await inTransaction(db, (trx) => q.rebuildHistoryOf(trx, id))) rebuilt++
  return rebuilt
}

/** One round's groups, best first, each with the tippers in the groups before it. */
export interface RoundGroups {
  points: number[]
  margin: number[]
  before: number[]
  /** Ranked tippers in the cumulative groups (the rank history's). */
  ranked: number
  /** Ranked tippers in the round's points (equal to ranked once both are built). */
  tippers: number
  /** The round's own points: tippers together and the most any scored. */
  total: number
  best: number
}

/**
 * Every covered round's groups, from the two small tables in one statement (so one snapshot).
 * The caller keeps them per competition and version.
 */
export async function historyGroups(
  db: Database,
  competitionId: number,
): Promise<Map<number, RoundGroups>> {
  return groupsOf(await q.historyGroupRows(db, competitionId))
}

/**
 * Groups from rows ordered by kind, round, points descending, margin ascending: 'h' rows are
 * cumulative (points, margin) groups, any other kind a round's points (also the league charts').
 */
export function groupsOf(
  rows: readonly { kind: string; round: number; points: number; margin: number; n: number }[],
): Map<number, RoundGroups> {
  const rounds = new Map<number, RoundGroups>()
  const of = (round: number) => {
    let g = rounds.get(round)
    if (!g) {
      g = { points: [], margin: [], before: [], ranked: 0, tippers: 0, total: 0, best: 0 }
      rounds.set(round, g)
    }
    return g
  }
  for (const r of rows) {
    const g = of(r.round)
    if (r.kind === 'h') {
      g.before.push(g.ranked)
      g.points.push(r.points)
      g.margin.push(r.margin)
      g.ranked += r.n
    } else {
      g.tippers += r.n
      g.total += r.points * r.n
      if (r.n > 0) g.best = Math.max(g.best, r.points)
    }
  }
  return rounds
}

/**
 * GAME_RULES "Ranking" from a round's groups: 1 + the ranked tippers strictly ahead of (points,
 * margin), more points or as many with a smaller margin (RANK()). A binary search over the groups,
 * which are in that order.
 */
export function rankIn(g: RoundGroups, points: number, margin: number): number {
  let lo = 0
  let hi = g.points.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const ahead = g.points[mid]! > points || (g.points[mid] === points && g.margin[mid]! < margin)
    if (ahead) lo = mid + 1
    else hi = mid
  }
  return 1 + (lo < g.points.length ? g.before[lo]! : g.ranked)
}
