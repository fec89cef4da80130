import type { PreregistrationBody, PreregistrationResponse } from '@tipping/contract/site'
import { api } from '../../lib/api.ts'
import { lazySchema } from '../../lib/lazy-schema.ts'

// The landing page's one call. Its schema is loaded lazily: this file is on the landing page's
// first download, which zod must stay out of (lib/lazy-schema.ts).
export const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    preregister: build.mutation<PreregistrationResponse, PreregistrationBody>({
      query: (body) => ({ path: 'preregistration', method: 'POST', body }),
      responseSchema: lazySchema(() =>
        import('@tipping/contract/site').then((m) => m.preregistrationResponseSchema),
      ),
    }),
  }),
})

/** Pre-registers a visitor; resolves to the answer, or rejects with the API's failure. */
export function usePreregister(): (body: PreregistrationBody) => Promise<PreregistrationResponse> {
  const [preregister] = siteApi.usePreregisterMutation()
  return (body) => preregister(body).unwrap()
}
