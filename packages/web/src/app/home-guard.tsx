import { useState } from 'react'
import { useSelector } from 'react-redux'
import { Navigate, Outlet, useLocation } from 'react-router'
import { homeRedirect } from '../lib/after-sign-in.ts'
import { useSiteContent } from '../lib/site-content.tsx'
import { storedSport } from '../lib/sport.ts'
import { useCurrentUser, useIsSignedIn, type WithSession } from '../lib/use-current-user.ts'

/**
 * Around the landing group: a signed-in visit to `/` goes on to `/{sport}` (spec 2 guards).
 *
 * A visit, not a sign-in: signing up or logging in through the landing page's own buttons happens
 * on `/`, and the form then goes where the guards after sign-in say (the leagues, or a saved link).
 * Redirecting here as well cancelled that navigation while its page's code loaded, and the new
 * player was left on `/{sport}`. So the page remembers which entry of the history it saw signed
 * out (after the session check: before it, every load of `/` looks signed out) and stays put when
 * the same entry turns signed in.
 */
export function HomeGuard() {
  const { pathname, key } = useLocation()
  const user = useCurrentUser()
  const signedIn = useIsSignedIn()
  const checked = useSelector((s: WithSession) => s.session.isSessionChecked)
  const { config } = useSiteContent()
  const [signedOutAt, setSignedOutAt] = useState<string | null>(null)
  // Kept from an earlier render of this entry (React's "information from previous renders").
  if (checked && !signedIn && signedOutAt !== key) setSignedOutAt(key)
  const signedInHere = signedOutAt === key
  const to =
    pathname === '/' && signedIn && !signedInHere
      ? homeRedirect(user, storedSport(), config.offseason)
      : null
  return to ? <Navigate to={to} replace /> : <Outlet />
}
