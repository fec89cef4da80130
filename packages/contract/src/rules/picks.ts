import type { SquadId } from '../ids.ts'
import type { Lifecycle } from '../predictions.ts'

export interface PickState {
  match: number
  squad: number
  margin: number | null
  status: Lifecycle
}

/**
 * Specification 5: only scheduled picks with a team chosen are saved. A chosen squad is a squad id
 * (0, no pick, is the only other value), which the type says for the save that follows.
 */
export function picksToSave<T extends PickState>(picks: readonly T[]): (T & { squad: SquadId })[] {
  return picks.filter((p): p is T & { squad: SquadId } => p.status === 'scheduled' && p.squad > 0)
}

/** Specification 4: save needs saving allowed, a round that is not complete, and one pick. */
export function canSave(opts: {
  canSave: boolean
  roundStatus: Lifecycle
  picks: readonly PickState[]
}): boolean {
  return opts.canSave && opts.roundStatus !== 'complete' && picksToSave(opts.picks).length > 0
}

/** Specification 5: a picks value that is not a list is refused with this message. */
export const INVALID_PICKS_MESSAGE = 'Invalid picks data: expected array'

export function assertPicksArray(value: unknown): asserts value is unknown[] {
  if (!Array.isArray(value)) throw new TypeError(INVALID_PICKS_MESSAGE)
}

/** Every match still open has a pick (a started match can no longer be picked, so it does not count). */
export const allOpenPicked = (picks: readonly PickState[]): boolean =>
  picks.filter((p) => p.status === 'scheduled').every((p) => p.squad > 0)

/** The live pick split (home_percent, away_percent): whole percentages summing to 100, or 0 and 0. */
export function pickSplit(
  home: number,
  away: number,
): { home_percent: number; away_percent: number } {
  const total = home + away
  if (total === 0) return { home_percent: 0, away_percent: 0 }
  const homePercent = Math.round((home * 100) / total)
  return { home_percent: homePercent, away_percent: 100 - homePercent }
}
