// Branded ids: a round number is not a round id, a squad id is not a match id (STYLE.md).
declare const brand: unique symbol
type Brand<T, B extends string> = T & { readonly [brand]: B }

export type UserId = Brand<number, 'UserId'>
export type MatchId = Brand<number, 'MatchId'>
export type SquadId = Brand<number, 'SquadId'>
export type RoundId = Brand<number, 'RoundId'>
export type RoundNumber = Brand<number, 'RoundNumber'>
export type VenueId = Brand<number, 'VenueId'>
export type LeagueId = Brand<number, 'LeagueId'>
export type CompetitionId = Brand<number, 'CompetitionId'>
