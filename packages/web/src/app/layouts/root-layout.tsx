import { useEffect } from 'react'
import { Outlet } from 'react-router'
import { AuthModals } from '../../features/auth/auth-modals.tsx'
import { fetchSessionUser } from '../../features/auth/auth-api.ts'
import { sessionActions } from '../../features/auth/session-slice.ts'
import { SsoButton } from '../../features/sso/sso-button.tsx'
import { onUnauthorized } from '../../lib/api-client.ts'
import { globalErrorActions } from '../../lib/global-error-slice.ts'
import { ErrorModal } from '../../ui/error-modal.tsx'
import { storedSport } from '../sport.ts'
import { useAppDispatch, useAppSelector } from '../store.ts'

/** Checks the session once, routes every 401 to the login modal, and hosts the global modals. */
export function RootLayout() {
  const dispatch = useAppDispatch()
  const globalError = useAppSelector((s) => s.globalError.message)
  const sport = storedSport()

  useEffect(() => {
    dispatch(sessionActions.dataRequested())
    fetchSessionUser(sport)
      .then(({ user }) => dispatch(sessionActions.sessionChecked(user)))
      .catch(() => dispatch(sessionActions.sessionCheckFailed()))
    return onUnauthorized(() => dispatch(sessionActions.sessionExpired()))
  }, [dispatch, sport])

  return (
    <>
      <Outlet />
      <AuthModals sport={sport} loginWith={<SsoButton block divider />} />
      <ErrorModal message={globalError} onClose={() => dispatch(globalErrorActions.cleared())} />
    </>
  )
}
