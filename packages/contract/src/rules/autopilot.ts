// The reference for what autopilot tips (issue 32, decision 026; GAME_RULES: autopilot). The
// scheduler's SQL (server modules/autopilot/queries.ts) must place exactly this; the autopilot
// property test holds it to that on generated matches, on both engines.

export type AutopilotPickStrategy = 'favourite' | 'home' | 'team'

export interface AutopilotMatch {
  homeSquadId: number
  awaySquadId: number
  isMarginGame: boolean
}

/** The players' own tips on the match so far (autopilot's tips are not counted). */
export interface AutopilotCrowd {
  squadIds: readonly number[]
  /** The Super Sixes margins the players predicted (nulls left out). */
  margins: readonly number[]
}

/**
 * The tippers' favourite: the side more players picked; a tie (no tips included) goes to the home
 * side, as autopick does.
 */
export function favourite(match: AutopilotMatch, crowd: AutopilotCrowd): number {
  let home = 0
  let away = 0
  for (const s of crowd.squadIds) {
    if (s === match.homeSquadId) home++
    else if (s === match.awaySquadId) away++
  }
  return away > home ? match.awaySquadId : match.homeSquadId
}

/**
 * The margin autopilot predicts on a Super Sixes match: the tippers' median guess (the lower
 * middle value of an even count, as SQL's percentile_disc(0.5)); 0 when nobody has guessed, as a
 * tip without a margin counts. Null on other matches.
 */
export function autopilotMargin(match: AutopilotMatch, crowd: AutopilotCrowd): number | null {
  if (!match.isMarginGame) return null
  if (crowd.margins.length === 0) return 0
  const sorted = [...crowd.margins].sort((a, b) => a - b)
  return sorted[Math.ceil(sorted.length / 2) - 1]!
}

/** The squad autopilot tips for a player with this strategy and supported team (0: none). */
export function autopilotSquad(
  strategy: AutopilotPickStrategy,
  teamSupported: number,
  match: AutopilotMatch,
  crowd: AutopilotCrowd,
): number {
  if (strategy === 'home') return match.homeSquadId
  if (
    strategy === 'team' &&
    (teamSupported === match.homeSquadId || teamSupported === match.awaySquadId)
  )
    return teamSupported
  return favourite(match, crowd)
}
