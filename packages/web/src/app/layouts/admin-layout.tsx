import { Link, Navigate, NavLink, Outlet } from 'react-router'
import { Panel } from '../../ui/panel.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useAppSelector } from '../store.ts'
import styles from './layout.module.css'
import admin from './admin-layout.module.css'

export const ADMIN_SECTIONS = [
  { to: '/admin', label: 'Competitions', end: true },
  { to: '/admin/matches', label: 'Rounds & results', end: false },
  { to: '/admin/content', label: 'Content', end: false },
  { to: '/admin/users', label: 'Users', end: false },
  { to: '/admin/leagues', label: 'Leagues', end: false },
  { to: '/admin/emails', label: 'Email outbox', end: false },
  { to: '/admin/audit', label: 'Audit log', end: false },
  { to: '/admin/health', label: 'System health', end: false },
] as const

/** `/admin`: signed-out visitors go to sign in, signed-in non-admins see 403, admins the console. */
export function AdminLayout() {
  const session = useAppSelector((s) => s.session)
  if (!session.isSessionChecked && !session.isAuthorized)
    return <Spinner label="Checking your session" />
  if (!session.isAuthorized) return <Navigate to="/login" replace />
  const isAdmin = session.user.roles.includes('ROLE_ADMIN')
  return (
    <div className={styles.shell}>
      <header className={styles.topbar}>
        <div className={`${styles.topbarInner} ${admin.topbarInner}`}>
          <Link to="/admin" className={styles.brand}>
            Big Bash Tipping · Admin
          </Link>
          <Link to="/bbl/leagues" className={admin.back}>
            Back to the game
          </Link>
        </div>
      </header>
      {isAdmin ? (
        <div className={admin.body}>
          <nav className={admin.nav} aria-label="Admin sections">
            <ul>
              {ADMIN_SECTIONS.map((s) => (
                <li key={s.to}>
                  <NavLink to={s.to} end={s.end}>
                    {s.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <main>
            <Outlet />
          </main>
        </div>
      ) : (
        <main className={styles.main}>
          <Panel title="403: admins only">
            <p>This console is for the people who run the game. Your account is not an admin.</p>
            <p>
              <Link to="/bbl/leagues">Back to your leagues</Link>
            </p>
          </Panel>
        </main>
      )}
    </div>
  )
}
