import { createSlice, type PayloadAction } from '@reduxjs/toolkit'

// The push channel's state as the pages need it (docs/decisions/015-live-push.md): whether the
// event stream is open, which decides whether the pages fall back to the specification's 31 s
// refresh, and the newest scores version a result event announced.

export interface PushState {
  /** The stream is open: changes arrive as events, so the pages do not poll. */
  connected: boolean
  /** The competition's scores version of the newest result event seen; null before any. */
  scoresVersion: number | null
}

const initialState: PushState = { connected: false, scoresVersion: null }

const pushSlice = createSlice({
  name: 'push',
  initialState,
  reducers: {
    opened(state) {
      state.connected = true
    },
    dropped(state) {
      state.connected = false
    },
    scoresMoved(state, action: PayloadAction<number>) {
      state.scoresVersion = Math.max(state.scoresVersion ?? 0, action.payload)
    },
  },
})

export const pushActions = pushSlice.actions
export const pushReducer = pushSlice.reducer
export const selectPushConnected = (s: { push: PushState }) => s.push.connected
