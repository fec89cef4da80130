import { useEffect } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { authApi } from '../../features/auth/auth-api.ts'
import { LazyAuthModals } from '../../features/auth/lazy-auth-modals.tsx'
import { sessionActions } from '../../lib/session-slice.ts'
import { SsoButton } from '../../features/sso/sso-button.tsx'
import { onUnauthorized } from '../../lib/api-client.ts'
import { globalErrorActions, selectVisibleError } from '../../lib/global-error-slice.ts'
import { offseasonRedirects, SiteContentProvider, useSiteContent } from '../../lib/site-content.tsx'
import { ErrorModal } from '../../ui/error-modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { takeBootSession } from '../boot-reads.ts'
import { PageArrival } from '../page-arrival.tsx'
import { useAppDispatch, useAppSelector } from '../store.ts'
import { TopBanner } from './top-banner.tsx'

/**
 * Checks the session once, routes every 401 to the login modal, and hosts the global modals. The
 * site content (offseason mode, banners, login switch) is loaded before anything is shown.
 */
export function RootLayout() {
  const dispatch = useAppDispatch()
  const globalError = useAppSelector(selectVisibleError)

  // The spec's transitions (dataRequested, then sessionChecked or sessionCheckFailed) over the
  // API layer's check, or the one the main script already started (app/boot-reads.ts). The slice
  // keeps the session; the check is not a subscription, so it never refetches by itself.
  useEffect(() => {
    dispatch(sessionActions.dataRequested())
    const check =
      takeBootSession() ??
      dispatch(
        authApi.endpoints.sessionUser.initiate(undefined, { subscribe: false, forceRefetch: true }),
      ).unwrap()
    check
      .then(({ user }) =>
        dispatch(user ? sessionActions.sessionChecked(user) : sessionActions.sessionCheckFailed()),
      )
      .catch(() => dispatch(sessionActions.sessionCheckFailed()))
    return onUnauthorized(() => dispatch(sessionActions.sessionExpired()))
  }, [dispatch])

  return (
    <>
      {/* Outside the frame's gates: it follows the address from the first render. */}
      <PageArrival />
      <SiteContentProvider fallback={<Spinner label="Loading" />}>
        <SiteFrame />
        <ErrorModal message={globalError} onClose={() => dispatch(globalErrorActions.cleared())} />
      </SiteContentProvider>
    </>
  )
}

function SiteFrame() {
  const { pathname } = useLocation()
  const { config } = useSiteContent()
  // Spec 2 offseason mode: only /, /privacy-policy and /terms exist.
  if (config.offseason && offseasonRedirects(pathname)) return <Navigate to="/" replace />
  return (
    <>
      <TopBanner />
      <Outlet />
      {/* Spec 6: the login-enabled flag gates signing in and registering. */}
      {config.loginEnabled ? <LazyAuthModals loginWith={<SsoButton block divider />} /> : null}
    </>
  )
}
