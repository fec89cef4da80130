import { configureStore } from '@reduxjs/toolkit'
import type { UserSession } from '@tipping/contract/auth'
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

/** A signed-in user registered for both games, for tests that need the session checked. */
export const TEST_USER: UserSession = {
  id: 7,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Tipper',
  team_name: null,
  team_supported: 0,
  tipping_id: 'x',
  disabledNotifications: false,
  isWeeklyReminderEnabled: true,
  reminderLead: 'round',
  roles: ['ROLE_USER_BBL', 'ROLE_USER_WBBL'],
  recovered: false,
  registeredAt: { date: '2026-11-01T00:00:00Z' },
}
