import type { Sport } from '@tipping/contract/constants'
import { leagueListResponseSchema, type LeagueListResponse } from '@tipping/contract/leagues'
import type { RoundNumber } from '@tipping/contract/ids'
import {
  roundExplanationSchema,
  seasonLeagueSchema,
  seasonSchema,
  type RoundExplanation,
  type Season,
  type SeasonLeague,
} from '@tipping/contract/season'
import { api } from '../../lib/api.ts'

// The My season page's reads (issue 31). Both change only when a result is scored, which
// invalidates 'Rankings' (the push channel and the admin console do), so they are tagged with it.

export const seasonApi = api.injectEndpoints({
  endpoints: (build) => ({
    season: build.query<Season, Sport>({
      query: (sport) => ({ path: `${sport}/season` }),
      responseSchema: seasonSchema,
      providesTags: ['Rankings'],
    }),
    seasonRound: build.query<RoundExplanation, { sport: Sport; round: RoundNumber }>({
      query: ({ sport, round }) => ({ path: `${sport}/season/rounds/${round}` }),
      responseSchema: roundExplanationSchema,
      providesTags: ['Rankings'],
    }),
    // The league picker's list: the caller's leagues, as the leagues page reads them (a feature
    // does not import another's endpoints); tagged alike, so a join or leave refreshes it.
    seasonOwnLeagues: build.infiniteQuery<LeagueListResponse, Sport, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => last.next ?? undefined,
      },
      query: ({ queryArg: sport, pageParam }) => ({ path: `${sport}/leagues?page=${pageParam}` }),
      responseSchema: leagueListResponseSchema,
      providesTags: ['Leagues'],
    }),
    // A member joining or leaving moves the league's numbers too: its ladder's tag.
    seasonLeague: build.query<SeasonLeague, { sport: Sport; id: number }>({
      query: ({ sport, id }) => ({ path: `${sport}/season/leagues/${id}` }),
      responseSchema: seasonLeagueSchema,
      providesTags: (_r, _e, { id }) => ['Rankings', { type: 'Ladder' as const, id }],
    }),
  }),
})

export const {
  useSeasonQuery,
  useSeasonRoundQuery,
  useSeasonLeagueQuery,
  useSeasonOwnLeaguesInfiniteQuery,
} = seasonApi
