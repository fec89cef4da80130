import type {
  LoginBody,
  PasswordChangeBody,
  PasswordResetBody,
  RegisterBody,
  SessionResponse,
  UserUpdateInput,
} from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import { api as callApi } from '../../lib/api-client.ts'
import { api, USER_TAGS } from '../../lib/api.ts'
import { lazySchema } from '../../lib/lazy-schema.ts'

// The account's calls (contract: packages/contract/src/auth.ts). The session check runs on every
// page, the landing page's included, so the schemas load only when an answer is checked
// (lib/lazy-schema.ts): production never loads them, and zod stays out of the first download.

const auth = () => import('@tipping/contract/auth')
const userResponse = lazySchema(async () => (await auth()).userResponseSchema)
const sessionResponse = lazySchema(async () => (await auth()).sessionResponseSchema)
const okResponse = lazySchema(async () => (await auth()).okResponseSchema)
const squadsFile = lazySchema(
  async () => (await import('@tipping/contract/static-files')).squadsFileSchema,
)

/**
 * The session check before the store exists (app/boot-reads.ts starts it with the main script):
 * the same request as the `sessionUser` endpoint. A visitor is a 200 with `user: null`.
 */
export const fetchSessionUser = (): Promise<SessionResponse> =>
  callApi<SessionResponse>('session', { skipUnauthorized: true })

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The session check: who is signed in, whatever sport they play (decision 019). */
    sessionUser: build.query<SessionResponse, void>({
      query: () => ({ path: 'session', skipUnauthorized: true }),
      responseSchema: sessionResponse,
      providesTags: ['Session'],
    }),
    login: build.mutation({
      query: (body: LoginBody) => ({
        path: 'auth/login',
        method: 'POST',
        body,
        skipUnauthorized: true,
      }),
      responseSchema: userResponse,
      invalidatesTags: (answer) => (answer ? USER_TAGS : []),
    }),
    register: build.mutation({
      query: (body: RegisterBody) => ({ path: 'auth/register', method: 'POST', body }),
      responseSchema: userResponse,
      invalidatesTags: (answer) => (answer ? USER_TAGS : []),
    }),
    /** Spec 7: `POST {sport}/auth/logout`. The caller resets the cache (see useSignOut). */
    logout: build.mutation({
      query: (sport: Sport) => ({ path: `${sport}/auth/logout`, method: 'POST', body: {} }),
      responseSchema: okResponse,
    }),
    requestPasswordReset: build.mutation({
      query: (email: string) => ({
        path: 'auth/password_reset/request',
        method: 'POST',
        body: { email },
      }),
      responseSchema: lazySchema(async () => (await auth()).passwordResetRequestedSchema),
    }),
    resetPassword: build.mutation({
      query: (body: PasswordResetBody) => ({ path: 'auth/password_reset', method: 'POST', body }),
      responseSchema: okResponse,
    }),
    /** Spec 7: `POST {sport}/auth/register_for_game`, the answer to a 513; new roles, new data. */
    registerForGame: build.mutation({
      query: (sport: Sport) => ({
        path: `${sport}/auth/register_for_game`,
        method: 'POST',
        body: {},
      }),
      responseSchema: userResponse,
      invalidatesTags: (answer) => (answer ? USER_TAGS : []),
    }),
    /** Spec 7: `POST {sport}/{sport}/user/recover`. */
    recoverAccount: build.mutation({
      query: (sport: Sport) => ({
        path: `${sport}/${sport}/user/recover`,
        method: 'POST',
        body: {},
      }),
      responseSchema: userResponse,
      invalidatesTags: (answer) => (answer ? USER_TAGS : []),
    }),
    updateUser: build.mutation({
      query: ({ sport, body }: { sport: Sport; body: UserUpdateInput }) => ({
        path: `${sport}/user`,
        method: 'POST',
        body,
      }),
      responseSchema: lazySchema(async () => (await auth()).userUpdateResponseSchema),
      // The team name and supported team show in ladders and rankings.
      invalidatesTags: (answer) => (answer ? ['Ladder', 'Rankings', 'League'] : []),
    }),
    changePassword: build.mutation({
      query: (body: PasswordChangeBody) => ({ path: 'user/password', method: 'POST', body }),
      responseSchema: okResponse,
    }),
    deactivateAccount: build.mutation({
      query: (_none: void) => ({ path: 'user/deactivate', method: 'POST', body: {} }),
      responseSchema: okResponse,
    }),
    squads: build.query({
      query: (sport: Sport) => ({ static: `${sport}/squads.json` }),
      responseSchema: squadsFile,
      providesTags: ['Static'],
    }),
  }),
})

export const {
  useLazySessionUserQuery,
  useLoginMutation,
  useRegisterMutation,
  useLogoutMutation,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
  useRegisterForGameMutation,
  useRecoverAccountMutation,
  useUpdateUserMutation,
  useChangePasswordMutation,
  useDeactivateAccountMutation,
  useSquadsQuery,
} = authApi
