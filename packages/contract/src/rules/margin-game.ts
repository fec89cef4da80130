// GAME_RULES.md: exactly one match per round is the margin game (Super Sixes). The fixture data
// marks it; if a round marks none, the round's last match by start time is the margin game (ties:
// the higher match number); a fixture that marks two in one round is refused.
//
// This is the one statement of that rule. The season file schema, the importer and the admin
// console call it; the migration that gave older rounds their margin game
// (2026-11-25T0200-margin-game-default) says the same in SQL.

/** A match of one round, as the margin game rule sees it. */
export interface MarginGameCandidate {
  /** What the answer names: the match's id, or its number where it has no id yet. */
  id: number
  /** The match's number in its season: the higher one is the later of two equal start times. */
  number: number
  startsAt: Date | string
  /** The fixture (or an admin) marks this match as its round's margin game. */
  flagged: boolean
}

export type MarginGameChoice =
  /** `id` is null only for a round with no matches; `flagged` says whether a mark chose it. */
  | { ok: true; id: number | null; flagged: boolean }
  /** More than one match is marked: the ids of the marked matches, in the order given. */
  | { ok: false; flagged: number[] }

const time = (t: Date | string) => (typeof t === 'string' ? Date.parse(t) : t.getTime())

/** The round's margin game: the marked match, else the last by start time (then by number). */
export function marginGameOf(matches: readonly MarginGameCandidate[]): MarginGameChoice {
  const flagged = matches.filter((m) => m.flagged)
  if (flagged.length > 1) return { ok: false, flagged: flagged.map((m) => m.id) }
  if (flagged.length === 1) return { ok: true, id: flagged[0]!.id, flagged: true }
  let last: MarginGameCandidate | null = null
  for (const m of matches) {
    if (
      last === null ||
      time(m.startsAt) > time(last.startsAt) ||
      (time(m.startsAt) === time(last.startsAt) && m.number > last.number)
    )
      last = m
  }
  return { ok: true, id: last?.id ?? null, flagged: false }
}

/** The refusal of a fixture that marks more than one margin game in a round. */
export const tooManyMarginGamesMessage = (round: number, marked: number) =>
  `Round ${round} marks ${marked === 2 ? 'two' : marked} margin games`
