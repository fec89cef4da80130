import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { Prediction } from '@tipping/contract/predictions'
import type { MatchId, SquadId } from '@tipping/contract/ids'
import { clampMargin } from '@tipping/contract/rules/margin'
import { assertPicksArray } from '@tipping/contract/rules/picks'

// Spec 4 "Picks": loading, then saving (saving true, can_save false), then saved or failed; on
// failure the earlier picks come back. The round, its matches and the picks as saved are server
// data and live in the query cache (tipping-api.ts); this slice holds only what the user is
// editing, which a refresh must not overwrite (docs/decisions/014-rtk-query-data-layer.md).

/** `queued`: the save got no answer, so the picks are kept on the device to send later (issue 32). */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed' | 'queued'

export interface PicksState {
  /** The round on show (`sport/round`); answers for any other round are ignored. */
  key: string | null
  /** Whether the round on show has had its first answer (the picks below are its). */
  loaded: boolean
  /** The picks as the user is editing them. */
  picks: Prediction[]
  saveStatus: SaveStatus
  saving: boolean
  can_save: boolean
}

export const initialPicksState: PicksState = {
  key: null,
  loaded: false,
  picks: [],
  saveStatus: 'idle',
  saving: false,
  can_save: true,
}

const picksSlice = createSlice({
  name: 'picks',
  initialState: initialPicksState,
  reducers: {
    /** The page shows another round (or none, when it closes): editing starts afresh. */
    shown(_state, action: PayloadAction<string | null>) {
      return { ...initialPicksState, key: action.payload }
    },
    /**
     * The server's picks for a round: the first answer replaces the picks; a later one (the
     * periodic refresh) brings new statuses but keeps the user's unsaved picks on open matches.
     */
    received(state, action: PayloadAction<{ key: string; predictions: Prediction[] }>) {
      const { key, predictions } = action.payload
      if (key !== state.key) return
      assertPicksArray(predictions)
      if (!state.loaded) {
        state.picks = predictions
        state.loaded = true
        return
      }
      const local = new Map(state.picks.map((p) => [p.match, p]))
      state.picks = predictions.map((p) => {
        const mine = local.get(p.match)
        if (p.status !== 'scheduled' || !mine) return p
        const kept = { ...p, squad: mine.squad, margin: mine.margin }
        // A pick the user changed here is theirs, whatever autopilot had placed (decision 026).
        if (!mine.isAutopilot) delete kept.isAutopilot
        return kept
      })
    },
    picked(state, action: PayloadAction<{ match: MatchId; squad: SquadId }>) {
      const pick = state.picks.find((p) => p.match === action.payload.match)
      if (!pick || pick.status !== 'scheduled' || state.saving) return
      pick.squad = action.payload.squad
      delete pick.isAutopilot
      if (pick.isMarginGame && pick.margin === null) pick.margin = 0
      state.saveStatus = 'idle'
    },
    marginChanged(state, action: PayloadAction<{ match: MatchId; margin: number }>) {
      const pick = state.picks.find((p) => p.match === action.payload.match)
      if (!pick || pick.status !== 'scheduled' || pick.squad === 0) return
      pick.margin = clampMargin(action.payload.margin)
      state.saveStatus = 'idle'
    },
    saveStarted(state) {
      state.saving = true
      state.can_save = false
      state.saveStatus = 'saving'
    },
    saveSucceeded(state, action: PayloadAction<Prediction[]>) {
      assertPicksArray(action.payload)
      const saved = new Map(action.payload.map((p) => [p.match, p]))
      state.picks = state.picks.map((p) => saved.get(p.match) ?? p)
      state.saving = false
      state.can_save = true
      state.saveStatus = 'saved'
    },
    /** The save failed: the picks as last saved (the query cache's, handed in) come back. */
    saveFailed(state, action: PayloadAction<Prediction[]>) {
      state.picks = action.payload
      state.saving = false
      state.can_save = true
      state.saveStatus = 'failed'
    },
    /**
     * The save got no answer (offline, or the network failed) or the session had ended: the picks
     * stay as the user made them, kept on the device and sent when the connection returns or the
     * player is signed in again (lib/offline-queue.ts).
     */
    saveQueued(state) {
      state.saving = false
      state.can_save = true
      state.saveStatus = 'queued'
    },
    /** Server-confirmed picks (autopick, clear, a margin) merged in. */
    merged(state, action: PayloadAction<Prediction[]>) {
      assertPicksArray(action.payload)
      const byMatch = new Map(action.payload.map((p) => [p.match, p]))
      state.picks = state.picks.map((p) => byMatch.get(p.match) ?? p)
    },
    /** Spec 5: clearing applies only to scheduled picks. */
    clearedLocally(state) {
      for (const p of state.picks) {
        if (p.status === 'scheduled') {
          p.squad = 0
          p.margin = null
        }
      }
      state.saveStatus = 'idle'
    },
    confirmationHidden(state) {
      if (state.saveStatus !== 'idle' && state.saveStatus !== 'saving') state.saveStatus = 'idle'
    },
  },
})

export const picksActions = picksSlice.actions
export const picksReducer = picksSlice.reducer

/** The key of a round in the slice and the cache's tags (lib/round-key.ts says why it is apart). */
export { roundKey } from '../../lib/round-key.ts'
