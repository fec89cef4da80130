import { configureStore } from '@reduxjs/toolkit'
import { api } from './api.ts'
import { globalErrorReducer } from './global-error-slice.ts'
import { sessionReducer } from './session-slice.ts'

/**
 * For component tests: the store's shared slices and the API cache, as the app mounts them
 * (app/store.ts), without a feature's own slices (features do not import the app layer).
 */
export const createTestStore = () =>
  configureStore({
    reducer: {
      session: sessionReducer,
      globalError: globalErrorReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })
