import type { Sport } from '@tipping/contract/constants'
import {
  archivedLadderResponseSchema,
  archiveRankingsResponseSchema,
  archiveTeamLadderSchema,
  pastSeasonsResponseSchema,
  renewedLeagueResponseSchema,
  seasonArchiveSchema,
  type ArchivedLadderResponse,
  type ArchiveRankingsResponse,
  type ArchiveTeamLadder,
  type PastSeasonsResponse,
  type SeasonArchive,
} from '@tipping/contract/archive'
import type { League } from '@tipping/contract/leagues'
import { api } from '../../lib/api.ts'

// The season archive's reads (issue 31) and the commissioner's renewal. A past season changes
// only when an admin re-scores it, which invalidates 'Rankings'; a renewal adds a league to the
// user's current leagues ('Leagues') and marks the archived one renewed.

type YearArg = { sport: Sport; year: string }

export const archiveApi = api.injectEndpoints({
  endpoints: (build) => ({
    pastSeasons: build.query<PastSeasonsResponse, Sport>({
      query: (sport) => ({ path: `${sport}/seasons` }),
      responseSchema: pastSeasonsResponseSchema,
      providesTags: ['Rankings'],
    }),
    seasonArchive: build.query<SeasonArchive, YearArg>({
      query: ({ sport, year }) => ({ path: `${sport}/seasons/${year}` }),
      responseSchema: seasonArchiveSchema,
      providesTags: ['Rankings', 'Leagues'],
    }),
    archiveRankings: build.query<ArchiveRankingsResponse, YearArg & { page: number }>({
      query: ({ sport, year, page }) => ({
        path: `${sport}/seasons/${year}/rankings?page=${page}`,
      }),
      responseSchema: archiveRankingsResponseSchema,
      providesTags: ['Rankings'],
    }),
    archiveTeamLadder: build.query<ArchiveTeamLadder, YearArg>({
      query: ({ sport, year }) => ({ path: `${sport}/seasons/${year}/ladder` }),
      responseSchema: archiveTeamLadderSchema,
      providesTags: ['Rankings'],
    }),
    archiveLeagueLadder: build.query<
      ArchivedLadderResponse,
      YearArg & { id: number; page: number }
    >({
      query: ({ sport, year, id, page }) => ({
        path: `${sport}/seasons/${year}/leagues/${id}/ladder?page=${page}`,
      }),
      responseSchema: archivedLadderResponseSchema,
      providesTags: ['Rankings'],
    }),
    renewLeague: build.mutation<{ league: League }, { sport: Sport; id: number }>({
      query: ({ sport, id }) => ({ path: `${sport}/league/${id}/renew`, method: 'POST', body: {} }),
      responseSchema: renewedLeagueResponseSchema,
      invalidatesTags: ['Leagues'],
    }),
  }),
})

export const {
  usePastSeasonsQuery,
  useSeasonArchiveQuery,
  useArchiveRankingsQuery,
  useArchiveTeamLadderQuery,
  useArchiveLeagueLadderQuery,
  useRenewLeagueMutation,
} = archiveApi
