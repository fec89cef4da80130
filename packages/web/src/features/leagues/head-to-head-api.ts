import type { Sport } from '@tipping/contract/constants'
import { headToHeadResponseSchema, type HeadToHeadResponse } from '@tipping/contract/head-to-head'
import type { RoundNumber } from '@tipping/contract/ids'
import { api } from '../../lib/api.ts'

// The league head-to-head read (issue 31). It changes when a result is scored (tagged
// 'Rankings', which the push channel and the admin console invalidate) and when the league's
// ladder does (a member leaving).

export interface HeadToHeadArg {
  sport: Sport
  id: number
  a: number
  b: number
  round: RoundNumber | null
}

export const headToHeadApi = api.injectEndpoints({
  endpoints: (build) => ({
    headToHead: build.query<HeadToHeadResponse, HeadToHeadArg>({
      query: ({ sport, id, a, b, round }) => {
        const params = new URLSearchParams({ a: String(a), b: String(b) })
        if (round !== null) params.set('round', String(round))
        return { path: `${sport}/league/${id}/head-to-head?${params.toString()}` }
      },
      responseSchema: headToHeadResponseSchema,
      providesTags: (_r, _e, { id }) => ['Rankings', { type: 'Ladder' as const, id }],
    }),
  }),
})

export const { useHeadToHeadQuery } = headToHeadApi
