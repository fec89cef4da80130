import { useCallback, useState } from 'react'
import { useLocation } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import { LandingPage } from '../../features/landing/landing-page.tsx'
import { PreregistrationCard } from '../../features/landing/preregistration-card.tsx'
import { usePreregister } from '../../features/landing/site-api.ts'
import OffseasonPage from '../../features/pages/offseason-page.tsx'
import { NEXT_SEASON } from '../../features/pages/seasons.ts'
import { useSiteContent } from '../../lib/site-content.tsx'
import { sessionActions } from '../../lib/session-slice.ts'
import { SsoButton } from '../../features/sso/sso-button.tsx'
import { rememberSport, storedSport } from '../../lib/sport.ts'
import { useCurrentUser, useIsSignedIn } from '../../lib/use-current-user.ts'
import { useAppDispatch } from '../store.ts'
import styles from './layout.module.css'
import { NotificationBar } from './notification-bar.tsx'
import { SiteTopbar } from './plain-layout.tsx'
import { SiteFooter } from './site-footer.tsx'

/** The landing group: `/`, `/login`, `/registration`, `/forgot-password`, `/bbl`, `/wbbl`. */
export function LandingLayout() {
  const dispatch = useAppDispatch()
  const isAuthorized = useIsSignedIn()
  const { email } = useCurrentUser()
  const { config } = useSiteContent()
  const preregister = usePreregister()
  const { pathname } = useLocation()
  const [sport, setSport] = useState<Sport>(storedSport)
  const changeSport = useCallback((next: Sport) => {
    rememberSport(next)
    setSport(next)
  }, [])
  const open = useCallback(
    (modal: 'login' | 'registration' | 'forgot-password') =>
      dispatch(sessionActions.authModalOpened(modal)),
    [dispatch],
  )
  return (
    <div className={styles.shell} data-sport={sport}>
      <SiteTopbar />
      <main className={styles.main}>
        {config.offseason && pathname === '/' ? (
          // Spec 2: in offseason mode `/` is the offseason page (the root layout redirects the rest).
          <OffseasonPage
            signedIn={isAuthorized}
            preregistration={
              <PreregistrationCard
                appStoreUrl={config.appStoreUrl}
                playStoreUrl={config.playStoreUrl}
                submit={preregister}
                season={NEXT_SEASON}
                signedInAs={isAuthorized ? email : undefined}
              />
            }
          />
        ) : (
          <>
            <NotificationBar sport={sport} />
            <LandingPage
              sport={sport}
              isAuthorized={isAuthorized}
              onSportChange={changeSport}
              onOpen={open}
              signInWith={<SsoButton />}
              loginEnabled={config.loginEnabled}
            />
          </>
        )}
      </main>
      <SiteFooter />
    </div>
  )
}
