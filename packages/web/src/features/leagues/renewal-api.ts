import { okResponseSchema } from '@tipping/contract/auth'
import {
  leagueHistoryResponseSchema,
  renewalOffersResponseSchema,
  renewedLeagueResponseSchema,
  type LeagueHistoryResponse,
  type RenewalOffersResponse,
} from '@tipping/contract/archive'
import type { Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { api } from '../../lib/api.ts'

// League history across seasons (issue 31): a league's past seasons, and the renewed leagues the
// user is asked to join. Answering an offer changes the user's leagues ('Leagues').

type OfferArg = { sport: Sport; id: number }

export const renewalApi = api.injectEndpoints({
  endpoints: (build) => ({
    leagueHistory: build.query<LeagueHistoryResponse, OfferArg>({
      query: ({ sport, id }) => ({ path: `${sport}/league/${id}/history` }),
      responseSchema: leagueHistoryResponseSchema,
      providesTags: ['Rankings'],
    }),
    renewalOffers: build.query<RenewalOffersResponse, Sport>({
      query: (sport) => ({ path: `${sport}/league-renewals` }),
      responseSchema: renewalOffersResponseSchema,
      providesTags: ['Leagues'],
    }),
    acceptRenewal: build.mutation<{ league: League }, OfferArg>({
      query: ({ sport, id }) => ({
        path: `${sport}/league-renewals/${id}/accept`,
        method: 'POST',
        body: {},
      }),
      responseSchema: renewedLeagueResponseSchema,
      invalidatesTags: ['Leagues'],
    }),
    declineRenewal: build.mutation<{ ok: true }, OfferArg>({
      query: ({ sport, id }) => ({
        path: `${sport}/league-renewals/${id}/decline`,
        method: 'POST',
        body: {},
      }),
      responseSchema: okResponseSchema,
      invalidatesTags: ['Leagues'],
    }),
  }),
})

export const {
  useLeagueHistoryQuery,
  useRenewalOffersQuery,
  useAcceptRenewalMutation,
  useDeclineRenewalMutation,
} = renewalApi
