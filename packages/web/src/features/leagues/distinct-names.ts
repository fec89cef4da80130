import { ordinal } from '../../lib/live-projection.ts'

/** A member as the head-to-head's pickers offer them: their name, and their ladder position. */
export interface Member {
  userId: number
  name: string
  /** Their position on the ladder; null or 0 when it is not known (not loaded, or not ranked). */
  rank: number | null
}

/**
 * Labels a reader can tell apart. Two members can share a name (no team name, and the same first
 * name and initial): a picker offering "Sam W." twice cannot say which is which. A shared name
 * gets its holder's ladder position ("Sam W. (3rd)"); where that still leaves two the same (a tie,
 * or no position known), they are numbered in the order given ("Sam W. (3rd) #2").
 */
export function distinctNames(members: readonly Member[]): Map<number, string> {
  const tally = <T>(values: readonly T[]) => {
    const counts = new Map<T, number>()
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
    return counts
  }
  const names = tally(members.map((m) => m.name))
  const placed = members.map((m) =>
    (names.get(m.name) ?? 0) > 1 && m.rank ? `${m.name} (${ordinal(m.rank)})` : m.name,
  )
  const clashes = tally(placed)
  const numbered = new Map<string, number>()
  const labels = new Map<number, string>()
  members.forEach((m, i) => {
    const label = placed[i]!
    if ((clashes.get(label) ?? 0) < 2) return labels.set(m.userId, label)
    const k = (numbered.get(label) ?? 0) + 1
    numbered.set(label, k)
    labels.set(m.userId, `${label} #${k}`)
  })
  return labels
}
