import { z } from 'zod'
import { roundNumberSchema, reportedRoundNumberSchema, rowIdParamSchema } from './ids.ts'
import { leagueSchema, pageQuerySchema, privacySchema, roundHonourSchema } from './leagues.ts'
export const renewedLeagueResponseSchema = z.object({ league: leagueSchema })
import { rankingRowSchema } from './scores.ts'
import { seasonSchema } from './season.ts'
import { ladderRowSchema } from './static-files.ts'

// The season archive and league history across seasons (issue 31, decision 024):
// GET /api/{sport}/seasons, /api/{sport}/seasons/{year}[/rankings|/ladder|/leagues/{id}/ladder],
// GET /api/{sport}/league/{id}/history, POST /api/{sport}/league/{id}/renew and the renewal offers.
// Everything here reads a past competition as scoring left it; nothing of it can be written.

/** A season as its competition names it: "2024-25", or "2026" (what the console accepts). */
export const seasonYearSchema = z
  .string()
  .regex(/^\d{4}(-\d{2})?$/, 'A season is written like 2024-25 or 2026')
export const seasonYearParamsSchema = z.object({ year: seasonYearSchema })
export const archivedLeagueParamsSchema = seasonYearParamsSchema.extend({ id: rowIdParamSchema })

export const pastSeasonSchema = z.object({
  year: z.string(),
  season: z.number().int(),
  name: z.string(),
  /** Tippers registered for it. */
  tippers: z.number().int().min(0),
})
export type PastSeason = z.infer<typeof pastSeasonSchema>

export const pastSeasonsResponseSchema = z.object({ seasons: z.array(pastSeasonSchema) })
export type PastSeasonsResponse = z.infer<typeof pastSeasonsResponseSchema>

/** One of the caller's leagues in a past season, with their final place on its ladder. */
export const archivedLeagueSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  privacy: privacySchema,
  numUser: z.number().int(),
  /** The caller's final rank on its ladder (0: not ranked, e.g. deactivated). */
  rank: z.number().int(),
  /** The league that renewed it in a later season, if any. */
  renewedBy: z.number().int().nullable(),
  /** The caller ran it (and so may renew it). */
  isCommissioner: z.boolean(),
})
export type ArchivedLeague = z.infer<typeof archivedLeagueSchema>

export const seasonArchiveSchema = z.object({
  season: pastSeasonSchema,
  /** The caller's final overall row; null when they did not play that season. */
  user: rankingRowSchema.nullable(),
  /** The caller's My season numbers for that season; null when they did not play it. */
  mySeason: seasonSchema.nullable(),
  leagues: z.array(archivedLeagueSchema),
})
export type SeasonArchive = z.infer<typeof seasonArchiveSchema>

export const archiveRankingsResponseSchema = z.object({
  rankings: z.array(rankingRowSchema),
  nextPage: z.number().int().nullable(),
  user: rankingRowSchema.nullable(),
})
export type ArchiveRankingsResponse = z.infer<typeof archiveRankingsResponseSchema>
export const archivePageQuerySchema = pageQuerySchema

export const archiveTeamLadderSchema = z.object({ ladder: z.array(ladderRowSchema) })
export type ArchiveTeamLadder = z.infer<typeof archiveTeamLadderSchema>

export const archivedLadderResponseSchema = archiveRankingsResponseSchema.extend({
  league: archivedLeagueSchema.omit({ rank: true }),
})
export type ArchivedLadderResponse = z.infer<typeof archivedLadderResponseSchema>

/** One past season of a league: its name then, its champions and the caller's final row. */
export const leagueSeasonSchema = z.object({
  leagueId: z.number().int(),
  year: z.string(),
  name: z.string(),
  numUser: z.number().int(),
  /** Rank 1 on the final ladder (more than one when tied on points and margin). */
  champions: z.array(rankingRowSchema),
  user: rankingRowSchema.nullable(),
  /**
   * That season's round honours: each completed round from the league's start round with its
   * winners (rank 1 on the week's ladder), as the league's honours answered while it was current.
   */
  rounds: z.array(roundHonourSchema),
})
export type LeagueSeason = z.infer<typeof leagueSeasonSchema>
export const leagueHistoryResponseSchema = z.object({ seasons: z.array(leagueSeasonSchema) })
export type LeagueHistoryResponse = z.infer<typeof leagueHistoryResponseSchema>

/** Renew a past league into the sport's current season; the start week defaults to the first open one. */
export const renewLeagueBodySchema = z.object({ startRound: roundNumberSchema.optional() }).strict()
export type RenewLeagueBody = z.infer<typeof renewLeagueBodySchema>

/** A renewed league the caller was a member of last time and has neither joined nor declined. */
export const renewalOfferSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  privacy: privacySchema,
  startRound: reportedRoundNumberSchema,
  numUser: z.number().int(),
  /** The commissioner's name as ladders show it. */
  commissioner: z.string(),
  /** Last season's league it renews. */
  from: z.object({ id: z.number().int(), year: z.string() }),
})
export type RenewalOffer = z.infer<typeof renewalOfferSchema>
export const renewalOffersResponseSchema = z.object({ offers: z.array(renewalOfferSchema) })
export type RenewalOffersResponse = z.infer<typeof renewalOffersResponseSchema>
