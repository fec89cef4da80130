import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { Match, Prediction, PredictionsResponse, Round } from '@tipping/contract/predictions'
import { clampMargin } from '@tipping/contract/rules/margin'
import { assertPicksArray } from '@tipping/contract/rules/picks'

// Spec 4 "Picks": loading, then saving (saving true, can_save false), then saved or failed; on
// failure the earlier picks come back.

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed'

export interface PicksState {
  round: Round | null
  matches: Match[]
  picks: Prediction[]
  /** The picks as the server last confirmed them, restored when a save fails. */
  savedPicks: Prediction[]
  loadStatus: 'idle' | 'loading' | 'success' | 'failed'
  saveStatus: SaveStatus
  saving: boolean
  can_save: boolean
}

export const initialPicksState: PicksState = {
  round: null,
  matches: [],
  picks: [],
  savedPicks: [],
  loadStatus: 'idle',
  saveStatus: 'idle',
  saving: false,
  can_save: true,
}

const picksSlice = createSlice({
  name: 'picks',
  initialState: initialPicksState,
  reducers: {
    loadStarted(state) {
      state.loadStatus = 'loading'
    },
    loaded(state, action: PayloadAction<PredictionsResponse>) {
      assertPicksArray(action.payload.predictions)
      state.round = action.payload.round
      state.matches = action.payload.matches
      state.picks = action.payload.predictions
      state.savedPicks = action.payload.predictions
      state.loadStatus = 'success'
      state.saveStatus = 'idle'
      state.saving = false
      state.can_save = true
    },
    /** A periodic refresh: new statuses, scores and splits, keeping the user's unsaved picks. */
    refreshed(state, action: PayloadAction<PredictionsResponse>) {
      assertPicksArray(action.payload.predictions)
      const local = new Map(state.picks.map((p) => [p.match, p]))
      state.round = action.payload.round
      state.matches = action.payload.matches
      state.savedPicks = action.payload.predictions
      state.picks = action.payload.predictions.map((p) => {
        const mine = local.get(p.match)
        return p.status === 'scheduled' && mine
          ? { ...p, squad: mine.squad, margin: mine.margin }
          : p
      })
    },
    loadFailed(state) {
      state.loadStatus = 'failed'
    },
    picked(state, action: PayloadAction<{ match: number; squad: number }>) {
      const pick = state.picks.find((p) => p.match === action.payload.match)
      if (!pick || pick.status !== 'scheduled' || state.saving) return
      pick.squad = action.payload.squad
      if (pick.isMarginGame && pick.margin === null) pick.margin = 0
      state.saveStatus = 'idle'
    },
    marginChanged(state, action: PayloadAction<{ match: number; margin: number }>) {
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
      state.savedPicks = state.picks
      state.saving = false
      state.can_save = true
      state.saveStatus = 'saved'
    },
    saveFailed(state) {
      state.picks = state.savedPicks
      state.saving = false
      state.can_save = true
      state.saveStatus = 'failed'
    },
    /** Server-confirmed picks (autopick, clear) merged in, and remembered as saved. */
    merged(state, action: PayloadAction<Prediction[]>) {
      assertPicksArray(action.payload)
      const byMatch = new Map(action.payload.map((p) => [p.match, p]))
      state.picks = state.picks.map((p) => byMatch.get(p.match) ?? p)
      state.savedPicks = state.savedPicks.map((p) => byMatch.get(p.match) ?? p)
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
      if (state.saveStatus === 'saved' || state.saveStatus === 'failed') state.saveStatus = 'idle'
    },
  },
})

export const picksActions = picksSlice.actions
export const picksReducer = picksSlice.reducer
