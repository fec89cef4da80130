import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import {
  roundExplanationSchema,
  seasonSchema,
  type RoundExplanation,
  type Season,
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
  }),
})

export const { useSeasonQuery, useSeasonRoundQuery } = seasonApi
