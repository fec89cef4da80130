import type { Lifecycle } from '../predictions.ts'

/**
 * GAME_RULES.md: a match locks at its start time. The stored status may lag the clock until the
 * lifecycle job runs, so reads and writes both judge by the clock too.
 */
export function effectiveStatus(status: Lifecycle, startsAt: Date, now: Date): Lifecycle {
  if (status === 'scheduled' && startsAt.getTime() <= now.getTime()) return 'active'
  return status
}

/** GAME_RULES.md: scheduled until the first match starts, complete when all are complete. */
export function roundStatus(statuses: readonly Lifecycle[]): Lifecycle {
  if (statuses.length > 0 && statuses.every((s) => s === 'complete')) return 'complete'
  if (statuses.every((s) => s === 'scheduled')) return 'scheduled'
  return 'active'
}
