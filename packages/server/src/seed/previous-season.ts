import type { ResultsFile, SeasonFile } from '@tipping/contract/season-file'

const DAY_MS = 86_400_000
/** 52 weeks: every match keeps its weekday and local time, a year earlier. */
const YEAR_BEFORE_MS = -364 * DAY_MS

/** "2025-26" -> "2024-25"; "2026" -> "2025". */
export const previousYear = (year: string): string => {
  const m = /^(\d{4})(?:-(\d{2}))?$/.exec(year)
  if (!m) throw new Error(`Not a season year: ${year}`)
  const from = Number(m[1]) - 1
  return m[2] === undefined ? String(from) : `${from}-${String((from + 1) % 100).padStart(2, '0')}`
}

/**
 * A sport's season before the given one, built from the given season's real fixture and results
 * (issue 31: a second season, to browse the archive and renew leagues, in tests and the demo).
 * The same squads, venues and matches 52 weeks earlier, as season - 1; the same results. It is
 * imported as any fixture is (importSeason, applyResultsFile), so nothing about it is stored by hand.
 */
export function previousSeasonOf(
  season: SeasonFile,
  results: ResultsFile,
): { season: SeasonFile; results: ResultsFile } {
  return {
    season: {
      ...season,
      season: season.season - 1,
      year: previousYear(season.year),
      rounds: season.rounds.map((r) => ({
        ...r,
        matches: r.matches.map((m) => ({
          ...m,
          startsAt: new Date(Date.parse(m.startsAt) + YEAR_BEFORE_MS).toISOString(),
        })),
      })),
    },
    results: { ...results, season: season.season - 1 },
  }
}
