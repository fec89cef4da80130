import { configureStore } from '@reduxjs/toolkit'
import { api } from './api.ts'
import { globalErrorReducer } from './global-error-slice.ts'
import { pushReducer } from './push-slice.ts'
import { sessionReducer } from './session-slice.ts'

/**
 * For tests of a feature's components: the shared slices and the real data layer (the app's
 * store is in app/, which a feature does not import). The network is the only thing a test
 * replaces, by stubbing fetch.
 */
export const createTestStore = () =>
  configureStore({
    reducer: {
      session: sessionReducer,
      globalError: globalErrorReducer,
      push: pushReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })
