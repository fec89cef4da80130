import { useCallback, useDeferredValue, useEffect } from 'react'
import { Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router'
import { roleForSport, type Sport } from '@tipping/contract/constants'
import { useLogoutMutation } from '../../features/auth/auth-api.ts'
import { JoinGamePanel } from '../../features/auth/join-game-panel.tsx'
import { OfflineBanner } from '../../features/offline/offline-banner.tsx'
import { forgetOfflineData, useTipQueueSender } from '../../features/offline/tip-queue-sender.ts'
import { sessionActions } from '../../lib/session-slice.ts'
import { leaveThroughProvider } from '../../features/sso/sso-account-links.tsx'
import { ssoApi } from '../../features/sso/sso-api.ts'
import NotFoundPage from '../../features/pages/not-found-page.tsx'
import { deepLinkFor, rememberDeepLink } from '../../lib/after-sign-in.ts'
import { api } from '../../lib/api.ts'
import { useLiveChannel } from '../../lib/live-channel.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { isSport, rememberSport } from '../../lib/sport.ts'
import { serverDate } from '../../lib/server-clock.ts'
import { useAppDispatch, useAppSelector } from '../store.ts'
import { AdvertArea } from './advert-slot.tsx'
import { Header } from './header.tsx'
import { PlainLayout } from './plain-layout.tsx'
import styles from './layout.module.css'
import { NotificationBar } from './notification-bar.tsx'
import { SiteFooter } from './site-footer.tsx'

/**
 * Logging out (spec 4): the server ends the session, the slice forgets the user, and the API
 * cache is emptied, so nothing the user saw (tips, leagues, the console) is kept for whoever uses
 * the browser next. The pages that showed it unmount in the same render (the guard below), so
 * none of them fetches again as a visitor.
 */
function useSignOut() {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const [logout] = useLogoutMutation()
  return useCallback(
    (sport: Sport, replace: boolean) => {
      void logout(sport).finally(() => {
        dispatch(sessionActions.loggedOut())
        dispatch(api.util.resetApiState())
        // The service worker's copies as last seen and any tips kept on the device go too.
        void forgetOfflineData()
        // A single sign-on user also signs out at the provider, which sends them back to `/`.
        const readConfig = () =>
          dispatch(ssoApi.endpoints.ssoConfig.initiate(undefined, { subscribe: false }))
            .unwrap()
            .catch(() => null)
        void leaveThroughProvider(readConfig).then((left) => left || navigate('/', { replace }))
      })
    },
    [dispatch, logout, navigate],
  )
}

/** The signed-in group: its guard sends visitors to `/`; a spinner shows until the user is ready. */
export function SignedInLayout() {
  const { sport } = useParams()
  const { pathname } = useLocation()
  const session = useAppSelector((s) => s.session)
  const signOut = useSignOut()
  const valid = isSport(sport)
  // The signed-in frame and its page mount in slices once the session is known (decision 041, as
  // SiteContentProvider); a session that ends takes them away in the same render.
  const framed = useDeferredValue(session.isAuthorized) && session.isAuthorized

  useEffect(() => {
    if (valid) rememberSport(sport)
  }, [valid, sport])
  // One push channel per tab, for the sport on show, kept open across the sport's pages.
  useLiveChannel(valid && session.isAuthorized ? sport : null)
  // Tips kept on the device while offline are sent when the connection returns (issue 32).
  useTipQueueSender(session.isAuthorized ? session.user.id : null)

  // Not a sport (`/nowhere` matches `/:sport`): the site's own not-found page, header and footer.
  if (!valid)
    return (
      <PlainLayout>
        <NotFoundPage />
      </PlainLayout>
    )
  if (session.isAuthorized ? !framed : !session.isSessionChecked)
    return <Spinner label="Checking your session" />
  if (!session.isAuthorized) {
    // Spec 2: signed-out visitors go to `/`, leaving a create, join or tipping link to follow
    // after sign-in; an invite starts sign-in straight away (spec 4).
    rememberDeepLink(pathname)
    return <Navigate to={deepLinkFor(pathname) === 'joinLink' ? '/login' : '/'} replace />
  }

  return (
    <div className={styles.shell} data-sport={sport}>
      <Header
        sport={sport}
        now={serverDate()}
        onLogout={() => signOut(sport, false)}
        isAdmin={session.user.roles.includes('ROLE_ADMIN')}
      />
      <main className={styles.main}>
        <OfflineBanner />
        <NotificationBar sport={sport} />
        {/* Spec 8: a user not registered for this sport's game (513) is offered to join it. */}
        {session.user.roles.includes(roleForSport(sport)) ? (
          <Outlet />
        ) : (
          <JoinGamePanel sport={sport} />
        )}
      </main>
      <AdvertArea sport={sport} />
      <SiteFooter />
    </div>
  )
}

/** `/logout`: ends the session on the server, then goes home. */
export function LogoutRoute() {
  const signOut = useSignOut()
  useEffect(() => signOut('bbl', true), [signOut])
  return <Spinner label="Logging out" />
}
