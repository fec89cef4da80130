import { createSlice, type PayloadAction } from '@reduxjs/toolkit'

// Spec 8 "Global error": the Error modal shows the stored message; Understood clears it.
// Shared state (not a feature's), so every feature can raise it.

export interface GlobalErrorState {
  message: string | null
}

const initialState: GlobalErrorState = { message: null }

const slice = createSlice({
  name: 'globalError',
  initialState,
  reducers: {
    raised(state, action: PayloadAction<string>) {
      state.message = action.payload
    },
    cleared(state) {
      state.message = null
    },
  },
})

export const globalErrorActions = slice.actions
export const globalErrorReducer = slice.reducer
