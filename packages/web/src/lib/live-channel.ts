import { useEffect, useRef } from 'react'
import { useDispatch, useStore } from 'react-redux'
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit'
import type { Sport } from '@tipping/contract/constants'
import type { LiveEventPayload, LiveEventType } from '@tipping/contract/live'
import { api, USER_TAGS } from './api.ts'
import { liveApi, upsertLive } from './live-api.ts'
import { pushActions, type PushState } from './push-slice.ts'

// The browser's end of the push channel (docs/decisions/015-live-push.md, 017): one EventSource
// per tab, opened by the sport layout. The browser reconnects by itself after a drop and sends the
// last event id back, so the server replays what the page missed. What a page needs comes in the
// event and is written into the RTK Query cache; only what an event cannot carry (everyone's new
// scores after a result) is read again, and then spread over a window so a hundred thousand pages
// do not ask in the same second.

/** The event names the server sends (the contract's `liveEventPayloadSchemas` keys). */
const EVENT_TYPES: readonly LiveEventType[] = ['live', 'result', 'picks', 'reset']

/**
 * After a result, the longest a page waits before reading its scores again: each page picks a
 * random moment in the window. The match card shows the result from the event at once; the points,
 * ranks and ladders follow within this many milliseconds. At 100,000 open pages, 20 s spreads their
 * reads to about 5,000 a second per read, under one process's measured read rate (bench/README.md).
 */
export const RESULT_SPREAD_MS = 20_000

/** After an event that found the first read still on its way, how long before reading again. */
const LATE_READ_MS = 1000

type Listener = (payload: unknown) => void
const listeners = new Map<string, Set<Listener>>()

type ChannelState = { push: PushState } & {
  [K in typeof api.reducerPath]: ReturnType<typeof api.reducer>
}
type LiveDispatch = ThunkDispatch<ChannelState, unknown, UnknownAction>

/** A random wait in [0, spread), so pages told the same thing at once ask at different moments. */
const spread = (ms: number) => Math.floor(Math.random() * ms)

/**
 * Handles one event: the cache updates every page needs, then the features' listeners. Exported
 * for tests, which drive it without a server.
 */
export function handleLiveEvent(
  dispatch: LiveDispatch,
  getState: () => ChannelState,
  sport: Sport,
  type: string,
  payload: unknown,
  schedule: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms),
): void {
  if (type === 'live') {
    const match = payload as LiveEventPayload<'live'>
    const arg = { sport, round: match.roundNumber }
    // The page's first read of the round is still on its way: the event cannot be written into
    // it, and the read may have been answered before the event. Read again once it is in.
    const entry = liveApi.endpoints.liveRound.select(arg)(getState())
    if (entry.isLoading && entry.data === undefined)
      schedule(() => dispatch(api.util.invalidateTags(['Live'])), LATE_READ_MS)
    dispatch(
      liveApi.util.updateQueryData('liveRound', { sport, round: match.roundNumber }, (draft) =>
        upsertLive(draft, match),
      ),
    )
  } else if (type === 'result') {
    const result = payload as LiveEventPayload<'result'>
    dispatch(
      liveApi.util.updateQueryData('liveRound', { sport, round: result.roundNumber }, (draft) => {
        const m = draft.matches.find((x) => x.matchId === result.matchId)
        if (m) m.status = 'complete'
      }),
    )
    // The scores moved: read them again once per version, at a moment of this page's own.
    const known = getState().push.scoresVersion
    if (known === null || result.scoresVersion > known) {
      dispatch(pushActions.scoresMoved(result.scoresVersion))
      schedule(
        () =>
          dispatch(
            api.util.invalidateTags([
              'Round',
              'Snapshot',
              'MateTips',
              'Ladder',
              'Rankings',
              'Leagues',
              'Static',
            ]),
          ),
        spread(RESULT_SPREAD_MS),
      )
    }
  } else if (type === 'reset') {
    // Too far behind to replay: everything shown is read again, spread as the server asks.
    const { spreadMs } = payload as LiveEventPayload<'reset'>
    schedule(() => dispatch(api.util.invalidateTags([...USER_TAGS, 'Live'])), spread(spreadMs))
  }
  for (const listener of listeners.get(type) ?? []) listener(payload)
}

/**
 * Opens the push channel for a sport while the calling component is mounted (the sport layout:
 * one per tab). Where the browser has no EventSource the pages simply keep polling.
 */
export function useLiveChannel(sport: Sport | null): void {
  const dispatch = useDispatch<LiveDispatch>()
  const store = useStore<ChannelState>()
  useEffect(() => {
    if (sport === null || typeof EventSource === 'undefined') return
    const source = new EventSource(`/api/${sport}/events`)
    let opened = false
    source.onopen = () => {
      dispatch(pushActions.opened())
      // Live scores read before the stream first opened may have missed what happened between
      // that read and the open: read them once more. A reconnection needs no read, since the
      // server replays from the last event id.
      if (!opened) dispatch(api.util.invalidateTags(['Live']))
      opened = true
    }
    // The browser retries by itself (the server's `retry:`); the pages poll until it is back.
    source.onerror = () => dispatch(pushActions.dropped())
    for (const type of EVENT_TYPES)
      source.addEventListener(type, (event: MessageEvent<string>) => {
        let payload: unknown
        try {
          payload = JSON.parse(event.data)
        } catch {
          return
        }
        handleLiveEvent(dispatch, () => store.getState(), sport, type, payload)
      })
    return () => {
      source.close()
      dispatch(pushActions.dropped())
    }
  }, [dispatch, store, sport])
}

/** Calls `handler` with each event of a type while the calling component is mounted. */
export function useLiveEvent<T extends LiveEventType>(
  type: T,
  handler: (payload: LiveEventPayload<T>) => void,
): void {
  const latest = useRef(handler)
  useEffect(() => {
    latest.current = handler
  })
  useEffect(() => {
    const listener: Listener = (payload) => latest.current(payload as LiveEventPayload<T>)
    let set = listeners.get(type)
    if (!set) listeners.set(type, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }, [type])
}
