import { configureStore } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'
import { useDispatch, useSelector } from 'react-redux'
import { picksReducer } from '../features/tipping/picks-slice.ts'
import { api } from '../lib/api.ts'
import { globalErrorReducer } from '../lib/global-error-slice.ts'
import { pushReducer } from '../lib/push-slice.ts'
import { sessionReducer } from '../lib/session-slice.ts'

export const createStore = () => {
  const store = configureStore({
    reducer: {
      session: sessionReducer,
      picks: picksReducer,
      globalError: globalErrorReducer,
      push: pushReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })
  // Refetch on focus and on reconnect, for the endpoints that ask for it.
  setupListeners(store.dispatch)
  return store
}

export type AppStore = ReturnType<typeof createStore>
export type RootState = ReturnType<AppStore['getState']>
export type AppDispatch = AppStore['dispatch']
export const useAppDispatch = useDispatch.withTypes<AppDispatch>()
export const useAppSelector = useSelector.withTypes<RootState>()
