import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import { ApiCallError } from './api-client.ts'

// Spec 8 "Global error": the Error modal shows the stored message; Understood clears it.
// Shared state (not a feature's), so every feature can raise it.

export interface RaisedError {
  message: string
  /** The HTTP status of the call that failed; null when it was no API answer. */
  status: number | null
  code: string | number | null
}

export interface GlobalErrorState {
  message: string | null
  status: number | null
  code: string | number | null
}

const initialState: GlobalErrorState = { message: null, status: null, code: null }

/**
 * Spec 8: a 409 is left out of the visible error. A conflict says the state moved on under the
 * user (a match locked, a league already joined); the feature that got it puts things right
 * itself (restores the earlier picks, reloads) rather than a modal reporting it.
 */
export const HIDDEN_STATUSES: readonly number[] = [409]

const slice = createSlice({
  name: 'globalError',
  initialState,
  reducers: {
    raised: {
      reducer(state, action: PayloadAction<RaisedError>) {
        state.message = action.payload.message
        state.status = action.payload.status
        state.code = action.payload.code
      },
      /** A message alone, or the failure with its status and code (errorRaised). */
      prepare: (error: string | RaisedError) => ({
        payload: typeof error === 'string' ? { message: error, status: null, code: null } : error,
      }),
    },
    cleared() {
      return initialState
    },
  },
})

export const globalErrorActions = slice.actions
export const globalErrorReducer = slice.reducer

/** Raises a caught failure with its status and code, so the visible-error rule can see them. */
export const errorRaised = (err: unknown, fallback: string) =>
  globalErrorActions.raised(
    err instanceof ApiCallError
      ? { message: err.message, status: err.status, code: err.code }
      : { message: err instanceof Error ? err.message : fallback, status: null, code: null },
  )

/** What the Error modal shows: the stored message, unless its status is one left out (409). */
export const selectVisibleError = (s: { globalError: GlobalErrorState }): string | null =>
  s.globalError.status !== null && HIDDEN_STATUSES.includes(s.globalError.status)
    ? null
    : s.globalError.message
