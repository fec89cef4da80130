import type { MatchId, RoundId, RoundNumber, SquadId } from './ids.ts'

// The brand constructors: the ONE place a plain number becomes an id, by a cast. They are for the
// places where a number legitimately is one: a database row as the server's queries read it, and a
// test's fixture. Everywhere else an id arrives branded, from a parsed body or response.
// Without zod, so a page can cast ids without building the contract's schemas (decision 035);
// `ids.ts` re-exports them.
export const asMatchId = (n: number): MatchId => n as MatchId
export const asSquadId = (n: number): SquadId => n as SquadId
export const asRoundId = (n: number): RoundId => n as RoundId
export const asRoundNumber = (n: number): RoundNumber => n as RoundNumber
