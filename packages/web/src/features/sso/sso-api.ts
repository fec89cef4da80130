import type { SsoLoginBody } from '@tipping/contract/sso'
import type { Sport } from '@tipping/contract/constants'
import { api, USER_TAGS } from '../../lib/api.ts'
import { lazySchema } from '../../lib/lazy-schema.ts'

// Single sign-on's calls (contract: packages/contract/src/sso.ts). The sign-in button is on the
// landing page, so the schemas load only when an answer is checked (lib/lazy-schema.ts).

export const ssoApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The public single sign-on settings: read once and kept while the page is open. */
    ssoConfig: build.query({
      query: (_none: void) => ({ path: 'auth/sso-config' }),
      responseSchema: lazySchema(
        async () => (await import('@tipping/contract/sso')).ssoConfigSchema,
      ),
      keepUnusedDataFor: Infinity,
    }),
    /** Spec 7: `POST {sport}/auth/login` with code, verifier, nonce, mobile_app and big_bash_app. */
    ssoLogin: build.mutation({
      query: ({ sport, body }: { sport: Sport; body: SsoLoginBody }) => ({
        path: `${sport}/auth/login`,
        method: 'POST',
        body,
        skipUnauthorized: true,
      }),
      responseSchema: lazySchema(
        async () => (await import('@tipping/contract/auth')).userResponseSchema,
      ),
      // What a visitor had cached is read again as the user (as after the login form).
      invalidatesTags: (answer) => (answer ? USER_TAGS : []),
    }),
  }),
})

export const { useSsoConfigQuery, useSsoLoginMutation, useLazySsoConfigQuery } = ssoApi
