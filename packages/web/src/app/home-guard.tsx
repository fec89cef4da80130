import { Navigate, Outlet, useLocation } from 'react-router'
import { homeRedirect } from '../lib/after-sign-in.ts'
import { useSiteContent } from '../lib/site-content.tsx'
import { storedSport } from '../lib/sport.ts'
import { useCurrentUser, useIsSignedIn } from '../lib/use-current-user.ts'

/** Around the landing group: a signed-in visit to `/` goes on to `/{sport}` (spec 2 guards). */
export function HomeGuard() {
  const { pathname } = useLocation()
  const user = useCurrentUser()
  const signedIn = useIsSignedIn()
  const { config } = useSiteContent()
  const to =
    pathname === '/' && signedIn ? homeRedirect(user, storedSport(), config.offseason) : null
  return to ? <Navigate to={to} replace /> : <Outlet />
}
