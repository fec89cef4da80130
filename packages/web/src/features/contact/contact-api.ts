import { contactResponseSchema, type ContactBody } from '@tipping/contract/site'
import { api } from '../../lib/api.ts'

// The contact form's call (contract: packages/contract/src/site.ts).

export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContact: build.mutation({
      query: (body: ContactBody) => ({ path: 'contact', method: 'POST', body }),
      responseSchema: contactResponseSchema,
    }),
  }),
})

export const { useSendContactMutation } = contactApi
