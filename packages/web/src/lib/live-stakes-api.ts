import type { Sport } from '@tipping/contract/constants'
import type { MatchId, RoundNumber, SquadId } from '@tipping/contract/ids'
import {
  liveRankResponseSchema,
  liveStandingResponseSchema,
  type LiveRankResponse,
  type LiveStandingResponse,
} from '@tipping/contract/projections'
import { api } from './api.ts'

// The live projections' reads (GAME_RULES "Live projections"; the tipping page's live stakes and
// a league ladder's): the tipper's stored numbers, and where projected totals would rank. A rank's address names the data it is computed from (scores
// version, live sixes), so a changed figure is a new address and a repeated one comes from a
// cache (the browser's, a CDN's, or the server's memory).

interface RoundArg {
  sport: Sport
  round: RoundNumber
}

/** One rank lookup: the live match, the side assumed to win, and the projected totals. */
export interface RankArg extends RoundArg {
  match: MatchId
  side: SquadId
  totalPoints: number
  totalMargin: number
  /** The scores version the stored numbers came from. */
  v: number
  /** The live sixes, on the margin game only. */
  sixes: number | null
}

const rankQuery = (a: RankArg) =>
  new URLSearchParams({
    match: String(a.match),
    side: String(a.side),
    totalPoints: String(a.totalPoints),
    totalMargin: String(a.totalMargin),
    v: String(a.v),
    ...(a.sixes === null ? {} : { sixes: String(a.sixes) }),
  }).toString()

export const liveStakesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Read again whenever the scores change (the Snapshot tag: a save, a result). */
    liveStanding: build.query<LiveStandingResponse, RoundArg>({
      query: ({ sport, round }) => ({ path: `${sport}/live/${round}/standing` }),
      responseSchema: liveStandingResponseSchema,
      providesTags: ['Snapshot'],
    }),
    liveRank: build.query<LiveRankResponse, RankArg>({
      query: (a) => ({ path: `${a.sport}/live/${a.round}/rank?${rankQuery(a)}` }),
      responseSchema: liveRankResponseSchema,
    }),
    leagueLiveRank: build.query<LiveRankResponse, RankArg & { league: number }>({
      query: (a) => ({
        path: `${a.sport}/league/${a.league}/live-rank?round=${a.round}&${rankQuery(a)}`,
      }),
      responseSchema: liveRankResponseSchema,
    }),
  }),
})

export const { useLiveStandingQuery, useLiveRankQuery, useLeagueLiveRankQuery } = liveStakesApi
