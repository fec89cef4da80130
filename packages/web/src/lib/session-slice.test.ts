import { describe, expect, it } from 'vitest'
import {
  initialSessionState,
  initialUser,
  SESSION_EXPIRED,
  sessionActions as a,
  sessionReducer as reduce,
} from './session-slice.ts'

const user = { ...initialUser, id: 7, email: 'a@b.c', roles: ['ROLE_USER_BBL' as const] }

describe('session state transitions (spec 4)', () => {
  it('starts with the specified initial user', () => {
    expect(initialSessionState.user).toMatchObject({
      id: 0,
      team_name: null,
      team_supported: 0,
      email: '',
      disabledNotifications: false,
      isWeeklyReminderEnabled: true,
      roles: [],
    })
  })

  it('login request sets the requested flags and loading; success authorises and stores the user', () => {
    let s = reduce(initialSessionState, a.loginRequested())
    expect(s).toMatchObject({ isDataRequested: true, userLoginStatus: 'loading' })
    s = reduce(s, a.loginSucceeded(user))
    expect(s).toMatchObject({
      isAuthorized: true,
      userLoginStatus: 'success',
      isDataRequested: false,
      isRequestInProgress: false,
      user,
    })
  })

  it('session check success also marks the session checked; failure checks it unauthorised', () => {
    expect(reduce(initialSessionState, a.sessionChecked(user))).toMatchObject({
      isSessionChecked: true,
      isAuthorized: true,
    })
    expect(
      reduce({ ...initialSessionState, isAuthorized: true }, a.sessionCheckFailed()),
    ).toMatchObject({ isSessionChecked: true, isAuthorized: false })
  })

  it('copies auth errors into code_error, param_error and error; clear resets the three', () => {
    let s = reduce(
      reduce(initialSessionState, a.loginRequested()),
      a.authFailed({ code: 'EMAIL_TAKEN', param: 'email', message: 'taken' }),
    )
    expect(s).toMatchObject({
      code_error: 'EMAIL_TAKEN',
      param_error: 'email',
      error: 'taken',
      isDataRequested: false,
      userLoginStatus: 'failed',
    })
    s = reduce(s, a.authErrorCleared())
    expect(s).toMatchObject({ code_error: null, param_error: null, error: null })
  })

  it('login reset returns the status to idle', () => {
    expect(
      reduce({ ...initialSessionState, userLoginStatus: 'success' }, a.loginReset())
        .userLoginStatus,
    ).toBe('idle')
  })

  it('walks contact, alert and user update through their states', () => {
    expect(reduce(initialSessionState, a.contactStarted()).contact).toEqual({
      inProgress: true,
      submitted: false,
    })
    expect(reduce(initialSessionState, a.contactSucceeded()).contact).toEqual({
      inProgress: false,
      submitted: true,
    })
    expect(reduce(initialSessionState, a.alertShown('hi')).alert).toEqual({
      isShow: true,
      text: 'hi',
    })
    expect(reduce(reduce(initialSessionState, a.alertShown('hi')), a.alertHidden()).alert).toEqual({
      isShow: false,
      text: '',
    })
    const updated = reduce(
      reduce(initialSessionState, a.userUpdateRequested()),
      a.userUpdated(user),
    )
    expect(updated).toMatchObject({ userUpdateStatus: 'success', user })
    expect(reduce(updated, a.userUpdateReset()).userUpdateStatus).toBe('idle')
  })

  it('a 401 clears the user and opens login with the session-expired note', () => {
    const s = reduce(reduce(initialSessionState, a.loginSucceeded(user)), a.sessionExpired())
    expect(s).toMatchObject({
      user: initialUser,
      isAuthorized: false,
      authModal: 'login',
      authNotice: SESSION_EXPIRED,
    })
  })

  it('keeps the sign-in modals mutually exclusive', () => {
    let s = reduce(initialSessionState, a.authModalOpened('login'))
    s = reduce(s, a.authModalOpened('registration'))
    expect(s.authModal).toBe('registration')
  })
})
