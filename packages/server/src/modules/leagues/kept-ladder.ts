import { initialOf, type RankingRow } from '@tipping/contract/scores'
import type { RankedTipper } from '../scores/ranking-row.ts'

/** Numbers kept per row: rank, user id, points, margin, total points, total margin, has a team. */
const FIELDS = 7
/** Between a row's team name, first name and last-name initial: PostgreSQL text never holds NUL. */
const SEP = '\u0000'

/**
 * A league's whole ladder as a process keeps it between reads (reads.ts): every page and each
 * member's own row are answered from it. Kept as what the answer shows (toRankingRow: a last name's
 * initial, not the name) in columns: one Int32Array of the numbers and one string per row for the
 * names, with the rows' indexes sorted by user id for a member's own row. Row objects and a Map by
 * user took 29 MB per 100,000 members, so a few week views of a big public league filled the
 * process's heap (decision 038); this takes about a third of that.
 */
export class KeptLadder {
  readonly size: number
  private readonly numbers: Int32Array
  private readonly names: string[]
  /** Row indexes in user id order, for a binary search by user. */
  private readonly byUser: Int32Array

  /** `rows` in ladder order (ladderPage's ORDER BY), built at `scoresVersion`. */
  constructor(
    rows: readonly RankedTipper[],
    readonly scoresVersion: number,
  ) {
    this.size = rows.length
    this.numbers = new Int32Array(rows.length * FIELDS)
    this.names = new Array<string>(rows.length)
    rows.forEach((r, i) => {
      const at = i * FIELDS
      this.numbers[at] = r.rank ?? 0
      this.numbers[at + 1] = r.user_id
      this.numbers[at + 2] = r.points
      this.numbers[at + 3] = r.margin
      this.numbers[at + 4] = r.total_points
      this.numbers[at + 5] = r.total_margin
      this.numbers[at + 6] = r.team_name === null ? 0 : 1
      this.names[i] = `${r.team_name ?? ''}${SEP}${r.first_name}${SEP}${initialOf(r.last_name)}`
    })
    this.byUser = Int32Array.from(rows.keys()).sort(
      (a, b) => this.numbers[a * FIELDS + 1]! - this.numbers[b * FIELDS + 1]!,
    )
  }

  /** The rows from `offset` (0-based), at most `count` of them. */
  rows(offset: number, count: number): RankingRow[] {
    const out: RankingRow[] = []
    for (let i = Math.max(0, offset); i < Math.min(this.size, offset + count); i++)
      out.push(this.row(i))
    return out
  }

  /** The user's row, if they are on the ladder. */
  of(userId: number): RankingRow | undefined {
    let low = 0
    let high = this.size - 1
    while (low <= high) {
      const mid = (low + high) >>> 1
      const index = this.byUser[mid]!
      const id = this.numbers[index * FIELDS + 1]!
      if (id === userId) return this.row(index)
      if (id < userId) low = mid + 1
      else high = mid - 1
    }
    return undefined
  }

  private row(i: number): RankingRow {
    const at = i * FIELDS
    const [teamName, firstName, lastNameInitial] = this.names[i]!.split(SEP) as [
      string,
      string,
      string,
    ]
    return {
      rank: this.numbers[at]!,
      userId: this.numbers[at + 1]!,
      teamName: this.numbers[at + 6] ? teamName : null,
      firstName,
      lastNameInitial,
      points: this.numbers[at + 2]!,
      totalPoints: this.numbers[at + 4]!,
      margin: this.numbers[at + 3]!,
      totalMargin: this.numbers[at + 5]!,
    }
  }
}
