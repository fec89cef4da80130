import { configureStore } from '@reduxjs/toolkit'
import { useDispatch, useSelector } from 'react-redux'
import { sessionReducer } from '../features/auth/session-slice.ts'
import { picksReducer } from '../features/tipping/picks-slice.ts'
import { globalErrorReducer } from '../lib/global-error-slice.ts'

export const createStore = () =>
  configureStore({
    reducer: { session: sessionReducer, picks: picksReducer, globalError: globalErrorReducer },
  })

export type AppStore = ReturnType<typeof createStore>
export type RootState = ReturnType<AppStore['getState']>
export type AppDispatch = AppStore['dispatch']
export const useAppDispatch = useDispatch.withTypes<AppDispatch>()
export const useAppSelector = useSelector.withTypes<RootState>()
