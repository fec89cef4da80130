import {
  adminAuditResponseSchema,
  adminEmailResponseSchema,
  adminEmailsResponseSchema,
  adminHealthResponseSchema,
  adminLeaguesResponseSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  competitionListResponseSchema,
  competitionResponseSchema,
  competitionRoundsResponseSchema,
  cricsheetImportResponseSchema,
  importFixtureResponseSchema,
  matchResponseSchema,
  publishResponseSchema,
  rescoreResponseSchema,
  type CompetitionSettingsBody,
  type CreateCompetitionBody,
  type EmailStatus,
  type UpdateMatchBody,
  type UpdateRolesBody,
} from '@tipping/contract/admin'
import { okResponseSchema } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import {
  contentResponseSchema,
  type ContentKey,
  type ContentSettings,
} from '@tipping/contract/content'
import {
  liveMatchSchema,
  liveRoundResponseSchema,
  type LiveScoreBody,
} from '@tipping/contract/live'
import type { MatchResultBody } from '@tipping/contract/results'
import { api } from '../../lib/api.ts'

// The admin console's calls (contract: packages/contract/src/admin.ts, content.ts, results.ts,
// live.ts).
// Each list is cached under an `Admin` tag of its own; every change names the lists that show it,
// and the audit log, which records every change the console makes.

type AdminList =
  | 'competitions'
  | 'rounds'
  | 'live'
  | 'users'
  | 'leagues'
  | 'emails'
  | 'audit'
  | 'health'
  | 'content'

const list = (id: AdminList) => ({ type: 'Admin' as const, id })
const changed = (...ids: AdminList[]) => [...ids, 'audit' as const].map(list)

/** What a result or a re-score changes for the players: rounds, scores, ladders, rankings. */
const SCORES = ['Round', 'Snapshot', 'MateTips', 'Ladder', 'Rankings', 'League', 'Leagues'] as const

const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v))
  const s = q.toString()
  return s ? `?${s}` : ''
}

export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    competitions: build.query({
      query: (_none: void) => ({ path: 'admin/competitions' }),
      responseSchema: competitionListResponseSchema,
      providesTags: [list('competitions')],
    }),
    createCompetition: build.mutation({
      query: (body: CreateCompetitionBody) => ({
        path: 'admin/competitions',
        method: 'POST',
        body,
      }),
      responseSchema: competitionResponseSchema,
      invalidatesTags: changed('competitions'),
    }),
    importFixture: build.mutation({
      query: (file: unknown) => ({
        path: 'admin/competitions/import',
        method: 'POST',
        body: file,
        timeoutMs: 120_000,
      }),
      responseSchema: importFixtureResponseSchema,
      invalidatesTags: [...changed('competitions', 'rounds'), ...SCORES],
    }),
    updateCompetition: build.mutation({
      query: ({ id, body }: { id: number; body: CompetitionSettingsBody }) => ({
        path: `admin/competitions/${id}`,
        method: 'PATCH',
        body,
      }),
      responseSchema: competitionResponseSchema,
      invalidatesTags: [...changed('competitions', 'rounds'), ...SCORES],
    }),
    rounds: build.query({
      query: (competitionId: number) => ({ path: `admin/competitions/${competitionId}/rounds` }),
      responseSchema: competitionRoundsResponseSchema,
      providesTags: [list('rounds')],
    }),
    rescore: build.mutation({
      query: (competitionId: number) => ({
        path: `admin/competitions/${competitionId}/rescore`,
        method: 'POST',
        timeoutMs: 120_000,
      }),
      responseSchema: rescoreResponseSchema,
      invalidatesTags: [...changed('health'), ...SCORES],
    }),
    importCricsheet: build.mutation({
      query: ({ id, files }: { id: number; files: unknown[] }) => ({
        path: `admin/competitions/${id}/cricsheet`,
        method: 'POST',
        body: { files },
        timeoutMs: 120_000,
      }),
      responseSchema: cricsheetImportResponseSchema,
      invalidatesTags: [...changed('competitions', 'rounds', 'health'), ...SCORES],
    }),
    republish: build.mutation({
      query: (_none: void) => ({ path: 'admin/publish', method: 'POST', timeoutMs: 60_000 }),
      responseSchema: publishResponseSchema,
      invalidatesTags: [...changed('health'), 'Static'],
    }),
    updateMatch: build.mutation({
      query: ({ id, body }: { id: number; body: UpdateMatchBody }) => ({
        path: `admin/matches/${id}`,
        method: 'PATCH',
        body,
      }),
      responseSchema: matchResponseSchema,
      invalidatesTags: [...changed('rounds'), 'Round'],
    }),
    setResult: build.mutation({
      query: ({
        sport,
        matchId,
        body,
      }: {
        sport: Sport
        matchId: number
        body: MatchResultBody
      }) => ({
        path: `admin/${sport}/matches/${matchId}/result`,
        method: 'POST',
        body,
        timeoutMs: 60_000,
      }),
      responseSchema: okResponseSchema,
      invalidatesTags: [...changed('rounds', 'competitions'), ...SCORES],
    }),
    /**
     * A round's live scores, to open the live-score form on the score as it stands. Named apart
     * from the game's own live reads: this copy is the console's, refetched after each entry.
     */
    adminLiveRound: build.query({
      query: ({ sport, round }: { sport: Sport; round: number }) => ({
        path: `${sport}/live/${round}`,
      }),
      responseSchema: liveRoundResponseSchema,
      providesTags: [list('live')],
    }),
    setLiveScore: build.mutation({
      query: ({
        sport,
        matchId,
        body,
      }: {
        sport: Sport
        matchId: number
        body: LiveScoreBody
      }) => ({
        path: `admin/${sport}/matches/${matchId}/live`,
        method: 'PUT',
        body,
      }),
      responseSchema: liveMatchSchema,
      // A live score scores nothing (decision 015): only the console's live reads and the audit
      // log show it here (a refused entry changed nothing); the players' pages hear of it on the
      // push channel.
      invalidatesTags: (saved) => (saved ? changed('live') : []),
    }),

    users: build.query({
      query: ({ search, page }: { search: string; page: number }) => ({
        path: `admin/users${query({ search, page })}`,
      }),
      responseSchema: adminUsersResponseSchema,
      providesTags: [list('users')],
    }),
    setRoles: build.mutation({
      query: ({ id, body }: { id: number; body: UpdateRolesBody }) => ({
        path: `admin/users/${id}/roles`,
        method: 'PUT',
        body,
      }),
      responseSchema: adminUserResponseSchema,
      invalidatesTags: changed('users'),
    }),
    setActive: build.mutation({
      query: ({ id, active }: { id: number; active: boolean }) => ({
        path: `admin/users/${id}/${active ? 'reactivate' : 'deactivate'}`,
        method: 'POST',
      }),
      responseSchema: adminUserResponseSchema,
      // A deactivated user leaves their leagues' member lists.
      invalidatesTags: [...changed('users', 'leagues'), 'League', 'Leagues'],
    }),

    leagues: build.query({
      query: ({ search, sport, page }: { search: string; sport: Sport | ''; page: number }) => ({
        path: `admin/leagues${query({ search, sport, page })}`,
      }),
      responseSchema: adminLeaguesResponseSchema,
      providesTags: [list('leagues')],
    }),
    removeLeague: build.mutation({
      query: (id: number) => ({ path: `admin/leagues/${id}`, method: 'DELETE' }),
      responseSchema: okResponseSchema,
      invalidatesTags: [...changed('leagues'), 'League', 'Leagues', 'Ladder'],
    }),

    emails: build.query({
      query: ({ status, page }: { status: EmailStatus | 'all'; page: number }) => ({
        path: `admin/emails${query({ status, page })}`,
      }),
      responseSchema: adminEmailsResponseSchema,
      providesTags: [list('emails')],
    }),
    retryEmail: build.mutation({
      query: (id: string) => ({ path: `admin/emails/${id}/retry`, method: 'POST' }),
      responseSchema: adminEmailResponseSchema,
      invalidatesTags: changed('emails', 'health'),
    }),

    health: build.query({
      query: (_none: void) => ({ path: 'admin/health' }),
      responseSchema: adminHealthResponseSchema,
      providesTags: [list('health')],
    }),

    audit: build.query({
      query: ({ actor, kind, page }: { actor: string; kind: string; page: number }) => ({
        path: `admin/audit${query({ actor, kind, page })}`,
      }),
      responseSchema: adminAuditResponseSchema,
      providesTags: [list('audit')],
    }),

    content: build.query({
      query: (_none: void) => ({ path: 'admin/content' }),
      responseSchema: contentResponseSchema,
      providesTags: [list('content')],
    }),
    saveContent: build.mutation({
      query: ({ key, value }: { key: ContentKey; value: ContentSettings[ContentKey] }) => ({
        path: `admin/content/${key}`,
        method: 'PUT',
        body: value,
      }),
      responseSchema: contentResponseSchema,
      // The answer is every setting as saved: it becomes the cached content without a refetch;
      // the published files (banners, adverts, FAQs, switches) are read again.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }))
        if (data) void dispatch(adminApi.util.upsertQueryData('content', undefined, data))
      },
      invalidatesTags: [list('audit'), 'Static'],
    }),
  }),
})

export const {
  useCompetitionsQuery,
  useCreateCompetitionMutation,
  useImportFixtureMutation,
  useUpdateCompetitionMutation,
  useRoundsQuery,
  useRescoreMutation,
  useImportCricsheetMutation,
  useRepublishMutation,
  useUpdateMatchMutation,
  useSetResultMutation,
  useAdminLiveRoundQuery,
  useSetLiveScoreMutation,
  useUsersQuery,
  useSetRolesMutation,
  useSetActiveMutation,
  useLeaguesQuery,
  useRemoveLeagueMutation,
  useEmailsQuery,
  useRetryEmailMutation,
  useHealthQuery,
  useAuditQuery,
  useContentQuery,
  useSaveContentMutation,
} = adminApi
