import type { Sport } from '@tipping/contract/constants'
import { leagueHonoursResponseSchema, type LeagueHonoursResponse } from '@tipping/contract/leagues'
import { api } from '../../lib/api.ts'

// Issue 31: a league's round honours and the points still to play for. Tagged as the league's
// ladder, so whatever refreshes the ladder (a member joining, leaving or removed) refreshes them.
export const honoursApi = api.injectEndpoints({
  endpoints: (build) => ({
    leagueHonours: build.query<LeagueHonoursResponse, { sport: Sport; id: number }>({
      query: ({ sport, id }) => ({ path: `${sport}/league/${id}/honours` }),
      responseSchema: leagueHonoursResponseSchema,
      providesTags: (_r, _e, { id }) => [{ type: 'Ladder' as const, id }],
    }),
  }),
})

export const { useLeagueHonoursQuery } = honoursApi
