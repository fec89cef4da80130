import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import type { PredictionsResponse } from '@tipping/contract/predictions'
import { api } from './api.ts'
import { lazySchema } from './lazy-schema.ts'
import { roundKey } from './round-key.ts'

// A round as the signed-in tipper has it (its matches, their results so far, the tipper's picks):
// the tipping page's main read, and what a live projection (live-projection.ts) works from on any
// page, the league ladder's too. Here, below the features, so both share one cache entry; the
// tipping feature adds its editing state's hook to it (tipping-api.ts, enhanceEndpoints).

export interface RoundArg {
  sport: Sport
  round: RoundNumber
}

export const roundApi = api.injectEndpoints({
  endpoints: (build) => ({
    round: build.query<PredictionsResponse, RoundArg>({
      query: ({ sport, round }) => ({ path: `${sport}/predictions/${round}` }),
      // Lazily, as every read on the tipping page's first load (decision 035).
      responseSchema: lazySchema(
        async () => (await import('@tipping/contract/predictions')).predictionsResponseSchema,
      ),
      providesTags: (_r, _e, { sport, round }) => [{ type: 'Round', id: roundKey(sport, round) }],
    }),
  }),
})

export const { useRoundQuery } = roundApi
