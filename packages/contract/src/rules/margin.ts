import { MARGIN_MAX, MARGIN_MIN } from '../constants.ts'

/** Specification 5: margin is an integer 0-100, clamped at both bounds. */
export function clampMargin(value: number): number {
  if (!Number.isFinite(value)) return MARGIN_MIN
  return Math.min(MARGIN_MAX, Math.max(MARGIN_MIN, Math.trunc(value)))
}
