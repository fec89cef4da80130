import { useEffect } from 'react'
import { Link, Outlet, useNavigate, useParams } from 'react-router'
import NotFoundPage from '../../features/pages/not-found-page.tsx'
import { isSport, rememberSport } from '../sport.ts'
import { useAppSelector } from '../store.ts'
import { AdvertArea } from './advert-slot.tsx'
import { Header } from './header.tsx'
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
  const valid = isSport(sport)
  useEffect(() => {
    if (valid) rememberSport(sport)
  }, [valid, sport])
  if (!valid)
    return (
      <div className={styles.shell}>
        <main className={styles.main}>
          <NotFoundPage />
        </main>
        <SiteFooter />
      </div>
    )
  return (
    <div className={styles.shell} data-sport={sport}>
      {isAuthorized ? (
        <Header sport={sport} now={new Date()} onLogout={() => void navigate('/logout')} />
      ) : (
        <header className={styles.topbar}>
          <div className={styles.topbarInner}>
            <Link to="/" className={styles.brand}>
              Big Bash Tipping
            </Link>
          </div>
        </header>
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
