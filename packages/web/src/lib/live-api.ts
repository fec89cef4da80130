import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import type { LiveMatch, LiveRoundResponse } from '@tipping/contract/live'
import { api } from './api.ts'
import { lazySchema } from './lazy-schema.ts'

// A round's live scores (issue 30). Read once for a page's first paint; after that the push
// channel (live-channel.ts) writes each `live` event into this cache entry, so the cards move
// without asking again. Polled only while the channel is down.

export interface LiveRoundArg {
  sport: Sport
  round: RoundNumber
}

export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    liveRound: build.query<LiveRoundResponse, LiveRoundArg>({
      query: ({ sport, round }) => ({ path: `${sport}/live/${round}` }),
      // Lazily: the push channel that writes into this entry runs in the sport layout, which is in
      // the first download, and zod is not (lib/lazy-schema.ts).
      responseSchema: lazySchema(
        async () => (await import('@tipping/contract/live')).liveRoundResponseSchema,
      ),
      providesTags: ['Live'],
    }),
  }),
})

export const { useLiveRoundQuery } = liveApi

/**
 * A match's newer state into a round's list: an event older than what the page has (a read that
 * raced the event, or a resumed stream's replay) changes nothing.
 */
export function upsertLive(draft: LiveRoundResponse, match: LiveMatch): void {
  const i = draft.matches.findIndex((m) => m.matchId === match.matchId)
  if (i === -1) draft.matches.push(match)
  else if (draft.matches[i]!.version < match.version) draft.matches[i] = match
}
