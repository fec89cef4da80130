import {
  autopilotResponseSchema,
  type AutopilotResponse,
  type AutopilotSetting,
} from '@tipping/contract/autopilot'
import type { Sport } from '@tipping/contract/constants'
import { api } from '../../lib/api.ts'

// The account's autopilot setting (issue 32, decision 026): GET/PUT /api/{sport}/autopilot.
// Tagged 'Session': it is the signed-in user's, read again when someone else signs in.

export const autopilotApi = api.injectEndpoints({
  endpoints: (build) => ({
    autopilot: build.query<AutopilotResponse, Sport>({
      query: (sport) => ({ path: `${sport}/autopilot` }),
      responseSchema: autopilotResponseSchema,
      providesTags: ['Session'],
    }),
    saveAutopilot: build.mutation<AutopilotResponse, { sport: Sport; body: AutopilotSetting }>({
      query: ({ sport, body }) => ({ path: `${sport}/autopilot`, method: 'PUT', body }),
      responseSchema: autopilotResponseSchema,
      async onQueryStarted({ sport }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }))
        if (data) void dispatch(autopilotApi.util.upsertQueryData('autopilot', sport, data))
      },
    }),
  }),
})

export const { useAutopilotQuery, useSaveAutopilotMutation } = autopilotApi
