import { initialOf, type RankingRow } from '@tipping/contract/scores'
import type { MemberScores } from './queries.ts'

/** One view of a league's ladder as a process keeps it: every page and each member's own row. */
export interface LadderView {
  readonly size: number
  /** The scores version it was built at (the response says it). */
  readonly scoresVersion: number
  /** The rows from `offset` (0-based), at most `count` of them. */
  rows(offset: number, count: number): RankingRow[]
  /** The user's row, if they are on the ladder. */
  of(userId: number): RankingRow | undefined
}

/** Between a member's team name, first name and last-name initial (PostgreSQL text has no NUL). */
const SEP = '\u0000'

/**
 * One group of a league's chart (My season, issue 31), as season/history.ts groupsOf reads them:
 * 'h', the members whose cumulative points and margin from the start round through `round` are
 * these; 'p', the members who scored `points` in `round` (margin 0).
 */
export interface ChartGroupRow {
  kind: 'h' | 'p'
  round: number
  points: number
  margin: number
  n: number
}

/** KeptLeague's view keys besides a week's number. */
const OVERALL = 0
const NO_SCORES = -1

const namesOf = (r: { team_name: string | null; first_name: string; last_name: string }) =>
  `${r.team_name ?? ''}${SEP}${r.first_name}${SEP}${initialOf(r.last_name)}`

function rowOf(
  names: string,
  hasTeam: boolean,
  numbers: Omit<RankingRow, 'teamName' | 'firstName' | 'lastNameInitial'>,
): RankingRow {
  const [teamName, firstName, lastNameInitial] = names.split(SEP) as [string, string, string]
  return { ...numbers, teamName: hasTeam ? teamName : null, firstName, lastNameInitial }
}

/**
 * A league as a process keeps it for every view of its ladder (decision 038): each member's
 * points and margin in every round, from one statement (queries.ts leagueScores). The overall
 * view (from the league's start round) and each week view are ranked from it in the process the
 * first time they are read: a sort of the members, about 20 ms at 100,000, where each view of a
 * big league was a statement of seconds of its own. Ranked as ladderPage ranks past seasons'
 * ladders (GAME_RULES "Ranking"): points descending, then margin ascending, ties sharing a rank
 * as RANK() does, listed by user id.
 *
 * Kept in columns, as what the answer shows (toRankingRow: a last name's initial, not the name):
 * row objects and a Map by user took 29 MB per 100,000-member view, so a few week views of a big
 * public league filled the process's heap. A page builds its rows when it is asked for.
 */
export class KeptLeague {
  readonly size: number
  /** Members in user id order: a member's index is where their numbers are. */
  private readonly userIds: Int32Array
  /**
   * Every member's names (namesOf) end to end in one string, member i's from nameEnds[i - 1] (0
   * for the first) to nameEnds[i]. A string per member, built by concatenation, was a tree of
   * string objects over the parts the driver made: 16.1 MB of heap per 100,000 members, against
   * 1.8 MB so (measured with Node 22 on the bench's names; bench/README.md, 2026-11-27 17:40).
   */
  private readonly names: string
  private readonly nameEnds: Int32Array
  private readonly hasTeam: Uint8Array
  /** The highest round number with scores: the width of a member's row in `scores`. */
  private readonly width: number
  /** (member * width + round - 1) * 2: points; + 1: margin. */
  private readonly scores: Int32Array
  /** member * width + round - 1: 1 where the member has a row of that round's scores. */
  private readonly scored: Uint8Array
  /** member * 2: points from the start round; + 1: margin. */
  private readonly totals: Int32Array
  private readonly views = new Map<number, LadderView>()

  /** `members` in user id order (leagueScores). */
  constructor(
    members: readonly MemberScores[],
    startRound: number,
    readonly scoresVersion: number,
  ) {
    const n = members.length
    this.size = n
    this.userIds = new Int32Array(n)
    const names = new Array<string>(n)
    this.nameEnds = new Int32Array(n)
    let end = 0
    this.hasTeam = new Uint8Array(n)
    const parsed = members.map((m) => (m.scores ? m.scores.split(' ').map(Number) : []))
    let width = 0
    for (const list of parsed)
      for (let k = 0; k < list.length; k += 3) width = Math.max(width, list[k]!)
    this.width = width
    this.scores = new Int32Array(n * width * 2)
    this.scored = new Uint8Array(n * width)
    this.totals = new Int32Array(n * 2)
    members.forEach((m, i) => {
      this.userIds[i] = m.user_id
      names[i] = namesOf(m)
      end += names[i].length
      this.nameEnds[i] = end
      this.hasTeam[i] = m.team_name === null ? 0 : 1
      const list = parsed[i]!
      for (let k = 0; k < list.length; k += 3) {
        const round = list[k]!
        const at = (i * width + round - 1) * 2
        this.scores[at] = list[k + 1]!
        this.scores[at + 1] = list[k + 2]!
        this.scored[i * width + round - 1] = 1
        if (round >= startRound) {
          this.totals[i * 2] = this.totals[i * 2]! + list[k + 1]!
          this.totals[i * 2 + 1] = this.totals[i * 2 + 1]! + list[k + 2]!
        }
      }
    })
    // join makes one flat string, whatever the parts were
    this.names = names.join('')
  }

  /** Member i's names, as namesOf wrote them. */
  private namesAt(i: number): string {
    return this.names.slice(i === 0 ? 0 : this.nameEnds[i - 1], this.nameEnds[i])
  }

  /** The overall view (round null) or one week's, ranked the first time it is asked for. */
  view(round: number | null): LadderView {
    // Every week nobody has scores in ranks alike (all level): one view for them all, so that
    // asking for weeks 1 to 1,000 (what the route accepts) keeps one view, not a thousand.
    const key = round === null ? OVERALL : round >= 1 && round <= this.width ? round : NO_SCORES
    let view = this.views.get(key)
    if (!view) {
      view = this.rank(key)
      this.views.set(key, view)
    }
    return view
  }

  /**
   * The league's chart groups over `played` (its rounds from the start round with a completed
   * match, ascending), ordered by kind, round, points descending, margin ascending: for each
   * round, the members with a row of its scores, grouped by their points and margin summed over
   * the played rounds so far (only those they have rows of), and by the round's own points.
   * What My season's league chart is drawn from (season/league.ts), so the chart and the ladder
   * come from one read of the league: a member's rank in it is where the ladder puts them.
   */
  chartGroups(played: readonly number[]): ChartGroupRow[] {
    const n = this.size
    const cumPoints = new Int32Array(n)
    const cumMargin = new Int32Array(n)
    // groupsOf reads every 'h' row before the 'p' rows
    const cumulativeRows: ChartGroupRow[] = []
    const ownRows: ChartGroupRow[] = []
    for (const round of played) {
      if (round < 1 || round > this.width) continue
      // points -> margin -> members, and points -> members
      const cumulative = new Map<number, Map<number, number>>()
      const own = new Map<number, number>()
      for (let i = 0; i < n; i++) {
        if (this.scored[i * this.width + round - 1] !== 1) continue
        const at = (i * this.width + round - 1) * 2
        const points = this.scores[at]!
        cumPoints[i] = cumPoints[i]! + points
        cumMargin[i] = cumMargin[i]! + this.scores[at + 1]!
        let margins = cumulative.get(cumPoints[i]!)
        if (!margins) cumulative.set(cumPoints[i]!, (margins = new Map<number, number>()))
        margins.set(cumMargin[i]!, (margins.get(cumMargin[i]!) ?? 0) + 1)
        own.set(points, (own.get(points) ?? 0) + 1)
      }
      for (const points of [...cumulative.keys()].sort((a, b) => b - a)) {
        const margins = cumulative.get(points)!
        for (const margin of [...margins.keys()].sort((a, b) => a - b))
          cumulativeRows.push({ kind: 'h', round, points, margin, n: margins.get(margin)! })
      }
      for (const points of [...own.keys()].sort((a, b) => b - a))
        ownRows.push({ kind: 'p', round, points, margin: 0, n: own.get(points)! })
    }
    return [...cumulativeRows, ...ownRows]
  }

  /** Ranks the overall view, a week with scores, or the view of the weeks without (all 0). */
  private rank(key: number): LadderView {
    const n = this.size
    const points = new Int32Array(n)
    const margins = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      if (key === OVERALL) {
        points[i] = this.totals[i * 2]!
        margins[i] = this.totals[i * 2 + 1]!
      } else if (key !== NO_SCORES) {
        const at = (i * this.width + key - 1) * 2
        points[i] = this.scores[at]!
        margins[i] = this.scores[at + 1]!
      }
    }
    // Members are in user id order, so the index breaks ties as the user id does.
    const order = new Int32Array(n)
    for (let i = 0; i < n; i++) order[i] = i
    order.sort((a, b) => points[b]! - points[a]! || margins[a]! - margins[b]! || a - b)
    const rankOf = new Int32Array(n)
    order.forEach((member, position) => {
      const before = position > 0 ? order[position - 1]! : -1
      rankOf[member] =
        before >= 0 && points[before] === points[member] && margins[before] === margins[member]
          ? rankOf[before]!
          : position + 1
    })
    const row = (i: number): RankingRow =>
      rowOf(this.namesAt(i), this.hasTeam[i] === 1, {
        rank: rankOf[i]!,
        userId: this.userIds[i]!,
        points: points[i]!,
        totalPoints: this.totals[i * 2]!,
        margin: margins[i]!,
        totalMargin: this.totals[i * 2 + 1]!,
      })
    return {
      size: n,
      scoresVersion: this.scoresVersion,
      rows: (offset, count) => {
        const out: RankingRow[] = []
        for (let p = Math.max(0, offset); p < Math.min(n, offset + count); p++)
          out.push(row(order[p]!))
        return out
      },
      of: (userId) => {
        const i = this.indexOf(userId)
        return i === undefined ? undefined : row(i)
      },
    }
  }

  private indexOf(userId: number): number | undefined {
    let low = 0
    let high = this.size - 1
    while (low <= high) {
      const mid = (low + high) >>> 1
      const id = this.userIds[mid]!
      if (id === userId) return mid
      if (id < userId) low = mid + 1
      else high = mid - 1
    }
    return undefined
  }
}
