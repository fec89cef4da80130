import type {
  LoginBody,
  PasswordChangeBody,
  PasswordResetBody,
  RegisterBody,
  UserResponse,
  UserUpdateInput,
} from '@tipping/contract/auth'
import { SPORTS, type Sport } from '@tipping/contract/constants'
import { api as callApi, ApiCallError } from '../../lib/api-client.ts'
import { api, USER_TAGS, type ApiRequest } from '../../lib/api.ts'
import { lazySchema } from '../../lib/lazy-schema.ts'

// The account's calls (contract: packages/contract/src/auth.ts). The session check runs on every
// page, the landing page's included, so the schemas load only when an answer is checked
// (lib/lazy-schema.ts): production never loads them, and zod stays out of the first download.

const auth = () => import('@tipping/contract/auth')
const userResponse = lazySchema(async () => (await auth()).userResponseSchema)
const okResponse = lazySchema(async () => (await auth()).okResponseSchema)
const squadsFile = lazySchema(
  async () => (await import('@tipping/contract/static-files')).squadsFileSchema,
)

const otherSport = (sport: Sport): Sport => SPORTS.find((s) => s !== sport)!

/** A sport's user; a 401 here means "signed out", not an expired session. */
const userRequest = (sport: Sport): ApiRequest => ({
  path: `${sport}/user`,
  skipUnauthorized: true,
})

/**
 * The session check before the store exists (app/boot-reads.ts starts it with the main script):
 * the same request and the same 513 rule as the `sessionUser` endpoint.
 */
export const fetchSessionUser = async (sport: Sport): Promise<UserResponse> => {
  const { path, ...options } = userRequest(sport)
  try {
    return await callApi<UserResponse>(path, options)
  } catch (err) {
    if (!(err instanceof ApiCallError) || err.status !== 513) throw err
    const other = userRequest(otherSport(sport))
    return callApi<UserResponse>(other.path, { skipUnauthorized: true })
  }
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The session check. A user not registered for the remembered sport's game gets 513 there
     * (spec 8); the other sport then says who is signed in, so they are not taken for a visitor.
     */
    sessionUser: build.query<UserResponse, Sport>({
      queryFn: async (sport, _api, _extra, baseQuery) => {
        const first = await baseQuery(userRequest(sport))
        const answer =
          first.error?.status === 513 ? await baseQuery(userRequest(otherSport(sport))) : first
        if (answer.error) return { error: answer.error }
        // The endpoint's responseSchema checks this answer outside production.
        return { data: answer.data as UserResponse }
      },
      responseSchema: userResponse,
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
