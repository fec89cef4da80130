import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit'
import { useDispatch } from 'react-redux'
import type { Sport } from '@tipping/contract/constants'
import type { MatchId, RoundNumber } from '@tipping/contract/ids'
import type { LeagueListResponse } from '@tipping/contract/leagues'
import type {
  Prediction,
  PredictionsResponse,
  SavePredictionsResponse,
  TipInput,
} from '@tipping/contract/predictions'
import type { LeagueMatesTipsResponse, Snapshot } from '@tipping/contract/scores'
import type { api, ApiFailure } from '../../lib/api.ts'
import { asFailure } from '../../lib/api-failure.ts'
import { lazySchema } from '../../lib/lazy-schema.ts'
import { globalErrorActions, type GlobalErrorState } from '../../lib/global-error-slice.ts'
import type { WithSession } from '../../lib/use-current-user.ts'
import { deviceTipQueue, keepForLater } from '../../lib/offline-queue.ts'
import { roundApi, type RoundArg } from '../../lib/round-api.ts'
import { forgetTips } from '../../lib/offline-status.ts'
import { picksActions, roundKey } from './picks-slice.ts'
import { receiptReceived } from './receipts-api.ts'

// The tipping screen's reads and writes (spec 4). What a write changes, it invalidates: a save,
// an autopick or a clear changes the user's score summary and the ladders they appear on.

const PICKS_CHANGED = ['Snapshot', 'Ladder'] as const

// The answers' schemas load the first time one is checked (outside production only: lib/api.ts),
// so the tipping page's first load builds none of the contract's zod schemas (decision 035).
const predictions = () => import('@tipping/contract/predictions')
const scores = () => import('@tipping/contract/scores')
const savePredictionsResponseSchema = lazySchema(
  async () => (await predictions()).savePredictionsResponseSchema,
)

/** Server-confirmed picks written into a round's cached answer. */
const mergeInto = (draft: PredictionsResponse, confirmed: readonly Prediction[]) => {
  const byMatch = new Map(confirmed.map((p) => [p.match, p]))
  draft.predictions = draft.predictions.map((p) => byMatch.get(p.match) ?? p)
}

export const tippingApi = roundApi
  .enhanceEndpoints({
    endpoints: {
      // The round read lives in lib (the league ladder's live projection reads it too); every
      // answer (the first and each refresh) reaches the user's editing state, which decides what
      // of it to take (picks-slice.ts `received`).
      round: {
        async onQueryStarted({ sport, round }, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }))
          if (data)
            dispatch(
              picksActions.received({ key: roundKey(sport, round), predictions: data.predictions }),
            )
        },
      },
    },
  })
  .injectEndpoints({
    endpoints: (build) => ({
      snapshot: build.query<Snapshot, RoundArg>({
        query: ({ sport, round }) => ({
          path: `${sport}/predictions/snapshot`,
          method: 'POST',
          body: { round },
        }),
        responseSchema: lazySchema(async () => (await scores()).snapshotSchema),
        providesTags: ['Snapshot'],
      }),
      mateTips: build.query<LeagueMatesTipsResponse, RoundArg>({
        query: ({ sport, round }) => ({ path: `${sport}/predictions/${round}/leagues` }),
        responseSchema: lazySchema(async () => (await scores()).leagueMatesTipsResponseSchema),
        providesTags: ['MateTips'],
      }),
      /** The user's leagues, for the join prompt's count (spec 4 "Join prompt"). */
      tipperLeagues: build.query<LeagueListResponse, Sport>({
        query: (sport) => ({ path: `${sport}/leagues` }),
        responseSchema: lazySchema(
          async () => (await import('@tipping/contract/leagues')).leagueListResponseSchema,
        ),
        providesTags: ['Leagues'],
      }),
      /** Optimistic: the cached round shows the picks at once, and gets them back on a failure. */
      savePicks: build.mutation<SavePredictionsResponse, RoundArg & { predictions: TipInput[] }>({
        query: ({ sport, predictions }) => ({
          path: `${sport}/predictions_list`,
          method: 'POST',
          body: { predictions },
        }),
        responseSchema: savePredictionsResponseSchema,
        invalidatesTags: [...PICKS_CHANGED],
        async onQueryStarted({ sport, round, predictions }, lifecycle) {
          const { dispatch, queryFulfilled } = lifecycle
          const sent = new Map(predictions.map((p) => [p.match, p]))
          const patch = dispatch(
            tippingApi.util.updateQueryData('round', { sport, round }, (draft) => {
              for (const p of draft.predictions) {
                const tip = sent.get(p.match)
                if (tip) Object.assign(p, { squad: tip.squad, margin: tip.margin ?? null })
              }
            }),
          )
          try {
            const { data } = await queryFulfilled
            dispatch(
              tippingApi.util.updateQueryData('round', { sport, round }, (draft) =>
                mergeInto(draft, data.predictions),
              ),
            )
            const userId = (lifecycle.getState() as Partial<WithSession>).session?.user.id ?? 0
            void dispatch(receiptReceived({ sport, userId }, data.receipt))
          } catch {
            patch.undo()
          }
        },
      }),
      autopick: build.mutation<SavePredictionsResponse, RoundArg & { matches: MatchId[] }>({
        query: ({ sport, matches }) => ({
          path: `${sport}/predictions_list/autopick`,
          method: 'POST',
          body: { predictions: matches.map((match) => ({ match })) },
        }),
        responseSchema: savePredictionsResponseSchema,
        invalidatesTags: [...PICKS_CHANGED],
        onQueryStarted: (arg, lifecycle) => confirmInCache(arg, lifecycle, 'autopick'),
      }),
      clearPicks: build.mutation<SavePredictionsResponse, RoundArg & { matches: MatchId[] }>({
        query: ({ sport, matches }) => ({
          path: `${sport}/predictions_list/clear`,
          method: 'POST',
          body: { predictions: matches.map((match) => ({ match })) },
        }),
        responseSchema: savePredictionsResponseSchema,
        invalidatesTags: [...PICKS_CHANGED],
        onQueryStarted: (arg, lifecycle) => confirmInCache(arg, lifecycle, 'clear'),
      }),
      /** Spec 4: a margin change to a saved tip, sent on its own after the debounce. */
      saveTip: build.mutation<{ prediction: Prediction }, RoundArg & { tip: TipInput }>({
        query: ({ sport, tip }) => ({ path: `${sport}/tips`, method: 'POST', body: tip }),
        responseSchema: lazySchema(async () => (await scores()).singleTipResponseSchema),
        async onQueryStarted({ sport, round }, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }))
          if (!data) return
          dispatch(
            tippingApi.util.updateQueryData('round', { sport, round }, (draft) =>
              mergeInto(draft, [data.prediction]),
            ),
          )
          dispatch(picksActions.merged([data.prediction]))
        },
      }),
    }),
  })

/**
 * After an autopick or a clear: the confirmed picks become the cached round's saved picks, and its
 * receipt is the device's last one (decision 029), as a save's is.
 */
async function confirmInCache(
  { sport, round }: RoundArg,
  {
    dispatch,
    getState,
    queryFulfilled,
  }: {
    dispatch: TippingDispatch
    getState: () => unknown
    queryFulfilled: Promise<{ data: SavePredictionsResponse }>
  },
  kind: 'autopick' | 'clear',
) {
  const { data } = await queryFulfilled.catch(() => ({ data: null }))
  if (!data) return
  dispatch(
    tippingApi.util.updateQueryData('round', { sport, round }, (draft) =>
      mergeInto(draft, data.predictions),
    ),
  )
  const userId = (getState() as Partial<WithSession>).session?.user.id ?? 0
  void dispatch(receiptReceived({ sport, userId }, data.receipt, kind))
}

export { useRoundQuery } from '../../lib/round-api.ts'
export const {
  useSnapshotQuery,
  useMateTipsQuery,
  useLazyTipperLeaguesQuery,
  useAutopickMutation,
  useClearPicksMutation,
  useSaveTipMutation,
} = tippingApi

type TippingState = { [K in typeof api.reducerPath]: ReturnType<typeof api.reducer> }
type TippingDispatch = ThunkDispatch<TippingState, unknown, UnknownAction>

/** The store's dispatch as this feature uses it (it dispatches the save thunk below). */
export const useTippingDispatch = useDispatch.withTypes<TippingDispatch>()

/**
 * Raises a failed call with its status. A 401 is not raised: the API client has already opened
 * the login modal. Spec 8 leaves a 409 out of the Error modal: a save refused because a match
 * locked is said in place instead, in the footer (selectRefusal), with the earlier picks back.
 */
export const failureRaised = (failure: ApiFailure) =>
  globalErrorActions.raised({
    message: failure.message,
    status: failure.status,
    code: failure.code,
  })

/** A refusal the Error modal leaves out (a 409: the round moved on), for the screen to say. */
export const selectRefusal = (s: { globalError: GlobalErrorState }): string | null =>
  s.globalError.status === 409 ? s.globalError.message : null

/**
 * Spec 4 "Picks": saves the round's picks. The editing state goes saving, then saved; on a
 * failure the picks as last saved come back and the error is shown (a 401 opens login instead).
 * Resolves to the confirmed picks, or null when the save failed.
 */
export const saveRoundPicks =
  (sport: Sport, round: RoundNumber, picks: readonly TipInput[], userId?: number) =>
  async (dispatch: TippingDispatch, getState: () => TippingState): Promise<Prediction[] | null> => {
    const earlier =
      tippingApi.endpoints.round.select({ sport, round })(getState()).data?.predictions ?? []
    dispatch(picksActions.saveStarted())
    try {
      const { predictions } = await dispatch(
        tippingApi.endpoints.savePicks.initiate({ sport, round, predictions: [...picks] }),
      ).unwrap()
      dispatch(picksActions.saveSucceeded(predictions))
      if (userId !== undefined) void forgetKeptTips(userId, sport, round, picks)
      return predictions
    } catch (err) {
      const failure = asFailure(err, 'Your tips were not saved')
      // Issue 32: no answer at all (offline, the network failed) is not the server's refusal:
      // the picks are kept on the device and sent when the connection returns. Nor is a session
      // that ran out or was ended elsewhere (401): the login dialog opens, and once the same player
      // is signed in again the kept picks are sent as they made them (another player signing in
      // here forgets them). Restoring the last saved picks instead lost the save the player meant.
      if ((failure.status === 0 || failure.status === 401) && userId !== undefined) {
        const queuedAt = new Date().toISOString()
        const kept = await keepForLater(
          picks.map((p) => ({ userId, sport, round, ...p, margin: p.margin ?? null, queuedAt })),
        )
        if (kept) {
          dispatch(picksActions.saveQueued())
          return null
        }
      }
      dispatch(picksActions.saveFailed(earlier))
      if (failure.status !== 401) dispatch(failureRaised(failure))
      return null
    }
  }

/** A save that went through supersedes whatever of the round was kept on the device. */
async function forgetKeptTips(
  userId: number,
  sport: Sport,
  round: number,
  picks: readonly TipInput[],
) {
  forgetTips(picks.map((p) => p.match))
  const queue = deviceTipQueue()
  if (!queue) return
  const queuedAt = ''
  await queue
    .remove(picks.map((p) => ({ userId, sport, round, ...p, margin: null, queuedAt })))
    .catch(() => undefined)
}
