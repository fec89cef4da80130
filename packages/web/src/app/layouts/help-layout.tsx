import { useEffect } from 'react'
import { Outlet, useNavigate, useParams } from 'react-router'
import NotFoundPage from '../../features/pages/not-found-page.tsx'
import { isSport, rememberSport } from '../../lib/sport.ts'
import { serverDate } from '../../lib/server-clock.ts'
import { useAppSelector } from '../store.ts'
import { AdvertArea } from './advert-slot.tsx'
import { Header } from './header.tsx'
import { PlainLayout, SiteTopbar } from './plain-layout.tsx'
import styles from './layout.module.css'
import { NotificationBar } from './notification-bar.tsx'
import { SiteFooter } from './site-footer.tsx'

/**
 * `/{sport}/help...`: open to visitors (spec 8), with the full header menu once signed in, the
 * sport's notification bar and adverts.
 */
export function HelpLayout() {
  const { sport } = useParams()
  const navigate = useNavigate()
  const isAuthorized = useAppSelector((s) => s.session.isAuthorized)
  const isAdmin = useAppSelector((s) => s.session.user.roles.includes('ROLE_ADMIN'))
  const valid = isSport(sport)
  useEffect(() => {
    if (valid) rememberSport(sport)
  }, [valid, sport])
  if (!valid)
    return (
      <PlainLayout>
        <NotFoundPage />
      </PlainLayout>
    )
  return (
    <div className={styles.shell} data-sport={sport}>
      {isAuthorized ? (
        <Header
          sport={sport}
          now={serverDate()}
          onLogout={() => void navigate('/logout')}
          isAdmin={isAdmin}
        />
      ) : (
        <SiteTopbar />
      )}
      <main className={styles.main}>
        <NotificationBar sport={sport} />
        <Outlet />
      </main>
      <AdvertArea sport={sport} />
      <SiteFooter />
    </div>
  )
}
