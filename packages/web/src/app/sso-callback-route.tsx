import { useCallback } from 'react'
import { useLocation, useNavigate } from 'react-router'
import type { UserSession } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import { sessionActions } from '../lib/session-slice.ts'
import { SsoCallback } from '../features/sso/sso-callback.tsx'
import { clientForPath } from '../features/sso/sso-flow.ts'
import { deepLinkFor, takeRouteAfterSignIn } from '../lib/after-sign-in.ts'
import { PlainLayout } from './layouts/plain-layout.tsx'
import { rememberSport, storedSport } from '../lib/sport.ts'
import { useAppDispatch } from './store.ts'

/**
 * `/login/callback`, `/login-app/callback`, `/login-bigbash-app/callback`: the single sign-on
 * callback, signed in through the same session action and after-sign-in rule as the login form.
 */
export default function SsoCallbackRoute() {
  const { pathname } = useLocation()
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const client = clientForPath(pathname)
  // The women's app tips the WBBL, the men's app the BBL; the website the selected sport.
  const sport: Sport = client === 'wbblApp' ? 'wbbl' : client === 'bblApp' ? 'bbl' : storedSport()

  const onStarted = useCallback(() => dispatch(sessionActions.loginRequested()), [dispatch])
  const onFailed = useCallback(
    (e: { code: string | number; param: string | null; message: string }) =>
      dispatch(sessionActions.authFailed(e)),
    [dispatch],
  )
  const onSignedIn = useCallback(
    (user: UserSession) => {
      dispatch(sessionActions.loginSucceeded(user))
      rememberSport(sport)
      const next = takeRouteAfterSignIn(user, sport)
      void navigate(next, {
        replace: true,
        ...(deepLinkFor(next) === 'joinLink' ? { state: { autoJoin: true } } : {}),
      })
    },
    [dispatch, navigate, sport],
  )

  return (
    <PlainLayout>
      <SsoCallback
        client={client}
        sport={sport}
        onStarted={onStarted}
        onSignedIn={onSignedIn}
        onFailed={onFailed}
      />
    </PlainLayout>
  )
}
