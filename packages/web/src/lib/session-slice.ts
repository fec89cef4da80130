import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { UserSession } from '@tipping/contract/auth'

// The specification's session state (section 3) and its transitions (section 4, "Session").

export type LoadStatus = 'idle' | 'loading' | 'success' | 'failed'
export type AuthModal = 'login' | 'registration' | 'forgot-password' | null

export const initialUser: UserSession = {
  id: 0,
  email: '',
  first_name: '',
  last_name: '',
  team_name: null,
  team_supported: 0,
  tipping_id: '',
  disabledNotifications: false,
  isWeeklyReminderEnabled: true,
  reminderLead: 'round',
  roles: [],
  recovered: false,
  registeredAt: { date: '' },
}

export interface SessionState {
  user: UserSession
  isSessionChecked: boolean
  isAuthorized: boolean
  isDataRequested: boolean
  isRequestInProgress: boolean
  resetPassword: { success: boolean | null; error: string | null }
  contact: { inProgress: boolean; submitted: boolean }
  alert: { isShow: boolean; text: string }
  pageHeader: string | null
  isSecretEnabled: boolean
  userLoginStatus: LoadStatus
  userUpdateStatus: LoadStatus
  preregister: { message: string | null }
  code_error: string | number | null
  param_error: string | null
  error: string | null
  /** Which of the mutually exclusive sign-in modals is open, and the note shown in it. */
  authModal: AuthModal
  authNotice: string | null
}

export const initialSessionState: SessionState = {
  user: initialUser,
  isSessionChecked: false,
  isAuthorized: false,
  isDataRequested: false,
  isRequestInProgress: false,
  resetPassword: { success: null, error: null },
  contact: { inProgress: false, submitted: false },
  alert: { isShow: false, text: '' },
  pageHeader: null,
  isSecretEnabled: true,
  userLoginStatus: 'idle',
  userUpdateStatus: 'idle',
  preregister: { message: null },
  code_error: null,
  param_error: null,
  error: null,
  authModal: null,
  authNotice: null,
}

export const SESSION_EXPIRED = 'Session expired. Please log in again.'

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    dataRequested(state) {
      state.isDataRequested = true
      state.isRequestInProgress = true
    },
    loginRequested(state) {
      state.isDataRequested = true
      state.isRequestInProgress = true
      state.userLoginStatus = 'loading'
    },
    loginSucceeded(state, action: PayloadAction<UserSession>) {
      state.user = action.payload
      state.isAuthorized = true
      state.userLoginStatus = 'success'
      state.isDataRequested = false
      state.isRequestInProgress = false
      state.authModal = null
      state.authNotice = null
      state.code_error = null
      state.param_error = null
      state.error = null
    },
    sessionChecked(state, action: PayloadAction<UserSession>) {
      state.user = action.payload
      state.isAuthorized = true
      state.isSessionChecked = true
      state.userLoginStatus = 'success'
      state.isDataRequested = false
      state.isRequestInProgress = false
    },
    sessionCheckFailed(state) {
      state.isSessionChecked = true
      state.isAuthorized = false
      state.isDataRequested = false
      state.isRequestInProgress = false
    },
    loginReset(state) {
      state.userLoginStatus = 'idle'
    },
    authFailed(
      state,
      action: PayloadAction<{ code: string | number; param: string | null; message: string }>,
    ) {
      state.code_error = action.payload.code
      state.param_error = action.payload.param
      state.error = action.payload.message
      state.isDataRequested = false
      state.isRequestInProgress = false
      if (state.userLoginStatus === 'loading') state.userLoginStatus = 'failed'
    },
    authErrorCleared(state) {
      state.code_error = null
      state.param_error = null
      state.error = null
    },
    userUpdateRequested(state) {
      state.userUpdateStatus = 'loading'
    },
    userUpdated(state, action: PayloadAction<UserSession>) {
      state.user = action.payload
      state.userUpdateStatus = 'success'
    },
    userUpdateReset(state) {
      state.userUpdateStatus = 'idle'
    },
    contactStarted(state) {
      state.contact = { inProgress: true, submitted: false }
    },
    contactSucceeded(state) {
      state.contact = { inProgress: false, submitted: true }
    },
    contactReset(state) {
      state.contact = { inProgress: false, submitted: false }
    },
    alertShown(state, action: PayloadAction<string>) {
      state.alert = { isShow: true, text: action.payload }
    },
    alertHidden(state) {
      state.alert = { isShow: false, text: '' }
    },
    pageHeaderSet(state, action: PayloadAction<string | null>) {
      state.pageHeader = action.payload
    },
    preregisterMessageSet(state, action: PayloadAction<string | null>) {
      state.preregister.message = action.payload
    },
    secretDisabled(state) {
      state.isSecretEnabled = false
    },
    resetPasswordReset(state) {
      state.resetPassword = { success: null, error: null }
    },
    resetPasswordSucceeded(state) {
      state.resetPassword = { success: true, error: null }
    },
    resetPasswordFailed(state, action: PayloadAction<string>) {
      state.resetPassword = { success: false, error: action.payload }
    },
    /** Spec 4: a 401 clears the stored user and shows login with the session-expired note. */
    sessionExpired(state) {
      state.user = initialUser
      state.isAuthorized = false
      state.authModal = 'login'
      state.authNotice = SESSION_EXPIRED
    },
    /** Opens the login modal with a note (after a password reset: sign in with the new one). */
    loginPrompted(state, action: PayloadAction<string>) {
      state.authModal = 'login'
      state.authNotice = action.payload
      state.code_error = null
      state.param_error = null
      state.error = null
    },
    /** Spec 4: account deactivation clears the stored session, then logs the user out. */
    deactivated(state) {
      state.user = initialUser
      state.isAuthorized = false
      state.userLoginStatus = 'idle'
      state.userUpdateStatus = 'idle'
    },
    loggedOut(state) {
      state.user = initialUser
      state.isAuthorized = false
      state.userLoginStatus = 'idle'
    },
    authModalOpened(state, action: PayloadAction<AuthModal>) {
      state.authModal = action.payload
      if (action.payload === null) state.authNotice = null
      state.code_error = null
      state.param_error = null
      state.error = null
    },
  },
})

export const sessionActions = sessionSlice.actions
export const sessionReducer = sessionSlice.reducer
