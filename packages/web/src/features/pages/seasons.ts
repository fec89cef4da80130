import { SEASON_PROMOTION } from '@tipping/contract/constants'

/**
 * The season after a season label: '2025-26' -> '2026-27' (a season spans the turn of a year, and
 * the spec writes it as the first year and the second year's last two digits).
 */
export function nextSeasonLabel(label: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(label)
  if (!match) throw new Error(`Not a season label: ${label}`)
  const first = Number(match[1]) + 1
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`
}

/** Offseason mode comes after the promoted season: that one has finished, the next is ahead. */
export const FINISHED_SEASON = SEASON_PROMOTION
export const NEXT_SEASON = nextSeasonLabel(SEASON_PROMOTION)
