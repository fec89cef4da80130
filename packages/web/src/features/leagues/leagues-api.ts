import type { RoundNumber } from '@tipping/contract/ids'
import { okResponseSchema } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import {
  bulkMembersResponseSchema,
  inviteResponseSchema,
  joinedUsersResponseSchema,
  leagueListResponseSchema,
  leagueResponseSchema,
  sendEmailsResponseSchema,
  type BulkMembersResponse,
  type CreateLeagueBody,
  type HandOverBody,
  type JoinedUsersResponse,
  type League,
  type LeagueListResponse,
  type UpdateLeagueBody,
} from '@tipping/contract/leagues'
import {
  leagueLadderResponseSchema,
  rankingsResponseSchema,
  userTipsResponseSchema,
  type LeagueLadderResponse,
  type RankingsResponse,
  type UserTipsResponse,
} from '@tipping/contract/scores'
import { api } from '../../lib/api.ts'

// The leagues' reads and writes (spec 2 "Leagues screens", spec 7). Lists that page ("Load more")
// are infinite queries: each page is cached under one entry, refetched together when invalidated.
// What a write changes, it invalidates (docs/decisions/014-rtk-query-data-layer.md):
//   - joining, creating, leaving or removing a league: the list of the user's leagues;
//   - a league's edit or hand-over: the league itself takes the answer; lists show it again;
//   - a member joining, leaving or removed: that league, its members and its ladder.

type LeagueArg = { sport: Sport; id: number }

const leagueTag = (id: number) => ({ type: 'League' as const, id })
const membersTag = (id: number) => ({ type: 'League' as const, id: `${id}/members` })
const ladderTag = (id: number) => ({ type: 'Ladder' as const, id })

/** The page after the last, when the server says there is one. */
const next = (page: number | null) => page ?? undefined

const ladderQuery = (page: number, round: RoundNumber | null, search?: string) => {
  const params = new URLSearchParams({ page: String(page) })
  if (round !== null) params.set('round', String(round))
  if (search) params.set('search', search)
  return params.toString()
}

export const leaguesApi = api.injectEndpoints({
  endpoints: (build) => ({
    ownLeagues: build.infiniteQuery<LeagueListResponse, Sport, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => next(last.next) },
      query: ({ queryArg: sport, pageParam }) => ({ path: `${sport}/leagues?page=${pageParam}` }),
      responseSchema: leagueListResponseSchema,
      providesTags: ['Leagues'],
    }),
    league: build.query<{ league: League }, LeagueArg>({
      query: ({ sport, id }) => ({ path: `${sport}/league/${id}` }),
      responseSchema: leagueResponseSchema,
      providesTags: (_r, _e, { id }) => [leagueTag(id)],
    }),
    /** Public leagues by name, or the league of an invite's code (spec 4 "Join invite"). */
    findLeagues: build.infiniteQuery<
      LeagueListResponse,
      { sport: Sport; code?: string; search?: string },
      number
    >({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (last) => next(last.next) },
      query: ({ queryArg: { sport, code, search }, pageParam }) => {
        const params = new URLSearchParams({ page: String(pageParam) })
        if (code) params.set('code', code)
        if (search) params.set('search', search)
        return { path: `${sport}/league/show-for-join?${params.toString()}` }
      },
      responseSchema: leagueListResponseSchema,
      providesTags: ['Leagues'],
    }),
    joinedUsers: build.infiniteQuery<JoinedUsersResponse, LeagueArg, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => next(last.nextPage),
      },
      query: ({ queryArg: { sport, id }, pageParam }) => ({
        path: `${sport}/league/${id}/user/show-joined?page=${pageParam}`,
      }),
      responseSchema: joinedUsersResponseSchema,
      providesTags: (_r, _e, { id }) => [membersTag(id)],
    }),
    leagueLadder: build.infiniteQuery<
      LeagueLadderResponse,
      LeagueArg & { round: RoundNumber | null },
      number
    >({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => next(last.nextPage),
      },
      query: ({ queryArg: { sport, id, round }, pageParam }) => ({
        path: `${sport}/rankings/${id}/rankings?${ladderQuery(pageParam, round)}`,
      }),
      responseSchema: leagueLadderResponseSchema,
      providesTags: (_r, _e, { id }) => [ladderTag(id)],
    }),
    rankings: build.infiniteQuery<
      RankingsResponse,
      { sport: Sport; round: RoundNumber | null; search: string },
      number
    >({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => next(last.nextPage),
      },
      query: ({ queryArg: { sport, round, search }, pageParam }) => ({
        path: `${sport}/rankings/overall/rankings?${ladderQuery(pageParam, round, search)}`,
      }),
      responseSchema: rankingsResponseSchema,
      providesTags: ['Rankings'],
    }),
    tipsOfUser: build.query<UserTipsResponse, { sport: Sport; round: RoundNumber; userId: number }>(
      {
        query: ({ sport, round, userId }) => ({
          path: `${sport}/predictions/${round}/user/${userId}`,
        }),
        responseSchema: userTipsResponseSchema,
      },
    ),

    createLeague: build.mutation<{ league: League }, { sport: Sport; body: CreateLeagueBody }>({
      query: ({ sport, body }) => ({ path: `${sport}/league`, method: 'POST', body }),
      responseSchema: leagueResponseSchema,
      invalidatesTags: ['Leagues'],
    }),
    updateLeague: build.mutation<{ league: League }, LeagueArg & { body: UpdateLeagueBody }>({
      query: ({ sport, id, body }) => ({ path: `${sport}/league/${id}`, method: 'POST', body }),
      responseSchema: leagueResponseSchema,
      invalidatesTags: ['Leagues'],
      // The answer is the league as it now is: the cache takes it as it stands.
      async onQueryStarted({ sport, id }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => null)
        if (answer)
          void dispatch(leaguesApi.util.upsertQueryData('league', { sport, id }, answer.data))
      },
    }),
    removeLeague: build.mutation<{ ok: true }, LeagueArg>({
      query: ({ sport, id }) => ({
        path: `${sport}/league/${id}/delete`,
        method: 'POST',
        body: {},
      }),
      responseSchema: okResponseSchema,
      invalidatesTags: (_r, _e, { id }) => ['Leagues', leagueTag(id), membersTag(id)],
    }),
    leaveLeague: build.mutation<{ ok: true }, LeagueArg>({
      query: ({ sport, id }) => ({ path: `${sport}/league/${id}/leave`, method: 'POST', body: {} }),
      responseSchema: okResponseSchema,
      invalidatesTags: (_r, _e, { id }) => [
        'Leagues',
        leagueTag(id),
        membersTag(id),
        ladderTag(id),
      ],
    }),
    joinLeague: build.mutation<{ league: League }, { sport: Sport; code: string }>({
      query: ({ sport, code }) => ({
        path: `${sport}/league/${encodeURIComponent(code)}/join`,
        method: 'POST',
        body: {},
      }),
      responseSchema: leagueResponseSchema,
      invalidatesTags: (r) =>
        r
          ? ['Leagues', leagueTag(r.league.id), membersTag(r.league.id), ladderTag(r.league.id)]
          : ['Leagues'],
    }),
    /** The commissioner hands the league to another member (who becomes its commissioner). */
    handOverLeague: build.mutation<{ league: League }, LeagueArg & { userId: number }>({
      query: ({ sport, id, userId }) => ({
        path: `${sport}/league/${id}/commissioner`,
        method: 'POST',
        body: { userId } satisfies HandOverBody,
      }),
      responseSchema: leagueResponseSchema,
      invalidatesTags: (_r, _e, { id }) => ['Leagues', membersTag(id), ladderTag(id)],
      // The answer is the league as it now is: the cache takes it as it stands.
      async onQueryStarted({ sport, id }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => null)
        if (answer)
          void dispatch(leaguesApi.util.upsertQueryData('league', { sport, id }, answer.data))
      },
    }),
    removeMember: build.mutation<{ ok: true }, LeagueArg & { userId: number }>({
      query: ({ sport, id, userId }) => ({
        path: `${sport}/league/${id}/user/${userId}`,
        method: 'POST',
        body: {},
      }),
      responseSchema: okResponseSchema,
      invalidatesTags: (_r, _e, { id }) => [leagueTag(id), membersTag(id), ladderTag(id)],
    }),
    removeMembers: build.mutation<BulkMembersResponse, { id: number; userIds: number[] }>({
      query: ({ id, userIds }) => ({
        path: 'tipping_join/delete_multi',
        method: 'POST',
        body: { leagueId: id, userIds },
      }),
      responseSchema: bulkMembersResponseSchema,
      invalidatesTags: (_r, _e, { id }) => [leagueTag(id), membersTag(id), ladderTag(id)],
    }),
    inviteByEmail: build.mutation<
      { invited: number },
      LeagueArg & { emails: string[]; requestId?: string }
    >({
      query: ({ sport, id, emails, requestId }) => ({
        path: `${sport}/league/${id}/invite`,
        method: 'POST',
        body: { emails, requestId },
      }),
      responseSchema: inviteResponseSchema,
    }),
    messageMembers: build.mutation<
      { recipients: number },
      LeagueArg & { subject: string; message: string; requestId?: string }
    >({
      query: ({ sport, id, subject, message, requestId }) => ({
        path: `${sport}/league/send_emails`,
        method: 'POST',
        body: { leagueId: id, subject, message, requestId },
      }),
      responseSchema: sendEmailsResponseSchema,
    }),
  }),
})

/** League screens are read afresh each time they open (another member may have changed them),
 * showing what the cache has meanwhile. */
export const FRESH = { refetchOnMountOrArgChange: true } as const

export const {
  useOwnLeaguesInfiniteQuery,
  useLeagueQuery,
  useFindLeaguesInfiniteQuery,
  useJoinedUsersInfiniteQuery,
  useLeagueLadderInfiniteQuery,
  useRankingsInfiniteQuery,
  useTipsOfUserQuery,
  useCreateLeagueMutation,
  useUpdateLeagueMutation,
  useRemoveLeagueMutation,
  useLeaveLeagueMutation,
  useJoinLeagueMutation,
  useHandOverLeagueMutation,
  useRemoveMemberMutation,
  useRemoveMembersMutation,
  useInviteByEmailMutation,
  useMessageMembersMutation,
} = leaguesApi
