import type { Lifecycle } from '../predictions.ts'

interface RoundLike {
  id: number
  status: Lifecycle
}

/**
 * Specification 4: the default selected round is the first active or scheduled round,
 * otherwise the last round; with no rounds at all the fallback id is 1.
 */
export function defaultRoundId(rounds: readonly RoundLike[]): number {
  const open = rounds.find((r) => r.status === 'active' || r.status === 'scheduled')
  return open?.id ?? rounds.at(-1)?.id ?? 1
}

/**
 * The same round by its number: the week the tipping page shows first. The server names it too,
 * to preload that week's read with the page (decision 048), so both must agree: one rule.
 */
export function defaultRoundNumber(rounds: readonly (RoundLike & { number: number })[]): number {
  const id = defaultRoundId(rounds)
  return rounds.find((r) => r.id === id)?.number ?? 1
}

interface MatchLike {
  status: Lifecycle
  date: string
}

/** Specification 4: a round counts as live if a match is active, or scheduled but already started. */
export function isRoundLive(matches: readonly MatchLike[], now: Date): boolean {
  return matches.some(
    (m) =>
      m.status === 'active' || (m.status === 'scheduled' && Date.parse(m.date) <= now.getTime()),
  )
}

/** GAME_RULES.md: only a scheduled match whose start is still in the future can be tipped. */
export function isTippable(match: MatchLike, now: Date): boolean {
  return match.status === 'scheduled' && Date.parse(match.date) > now.getTime()
}
