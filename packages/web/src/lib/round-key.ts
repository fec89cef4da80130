/**
 * The key of a round in the picks slice and the cache's tags. On its own, without the round read
 * (round-api.ts): the store imports the picks slice at start-up, and the read's response schema
 * would bring the contract's zod schemas (about 26 KB gzipped) into every page's first download.
 */
export const roundKey = (sport: string, round: number) => `${sport}/${round}`
