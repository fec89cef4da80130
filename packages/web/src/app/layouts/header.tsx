import { useEffect, useId, useRef, useState } from 'react'
import { NavLink, useLocation } from 'react-router'
import { MENS_LINK_VISIBLE_FROM, type Sport } from '@tipping/contract/constants'
import { SsoProfileMenuItem } from '../../features/sso/sso-account-links.tsx'
import styles from './header.module.css'

interface Props {
  sport: Sport
  now: Date
  onLogout: () => void
  /** ROLE_ADMIN: the menu links the admin console (the console checks the role itself). */
  isAdmin?: boolean
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${styles.link} ${isActive ? styles.active : ''}`

/**
 * Spec 2 "Header menu", with the mobile toggle below 640 px. Both toggles (the menu and Your
 * Leagues) are disclosures: what is shown is what `aria-expanded` says, Escape closes the
 * innermost open one and gives focus back to its button, and a new page closes both.
 */
export function Header({ sport, now, onLogout, isAdmin = false }: Props) {
  const [open, setOpen] = useState(false)
  const [leaguesOpen, setLeaguesOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const leaguesButton = useRef<HTMLButtonElement>(null)
  const leaguesGroup = useRef<HTMLLIElement>(null)
  const leaguesId = useId()
  const { pathname } = useLocation()
  const other: Sport = sport === 'bbl' ? 'wbbl' : 'bbl'
  // The men's link from the women's site is hidden until the men's season opens.
  const showOther =
    sport === 'bbl' || now.getTime() >= Date.parse(`${MENS_LINK_VISIBLE_FROM}T00:00:00Z`)

  // Following a link (or the browser's back button) lands on a new page with the menus folded.
  useEffect(() => {
    setOpen(false)
    setLeaguesOpen(false)
  }, [pathname])

  // The desktop drop-down folds when a click lands anywhere outside it.
  useEffect(() => {
    if (!leaguesOpen) return
    const onPointer = (e: PointerEvent) => {
      if (!leaguesGroup.current?.contains(e.target as Node)) setLeaguesOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    return () => document.removeEventListener('pointerdown', onPointer)
  }, [leaguesOpen])

  // Escape folds the innermost open menu, wherever focus is, while one is open.
  useEffect(() => {
    if (!open && !leaguesOpen) return
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      if (leaguesOpen) {
        setLeaguesOpen(false)
        leaguesButton.current?.focus()
      } else {
        setOpen(false)
        menuButton.current?.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open, leaguesOpen])

  const close = () => {
    setOpen(false)
    setLeaguesOpen(false)
  }
  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <NavLink to={`/${sport}/tipping`} className={styles.brand} onClick={close}>
          <span className={styles.brandMark} aria-hidden="true">
            BB
          </span>
          Big Bash Tipping <span className={styles.sportTag}>{sport.toUpperCase()}</span>
        </NavLink>
        <button
          ref={menuButton}
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls="main-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen(!open)}
        >
          {open ? '×' : '☰'}
        </button>
        <nav
          id="main-menu"
          className={`${styles.nav} ${open ? styles.navOpen : ''}`}
          aria-label="Main"
        >
          <ul className={styles.list}>
            <li>
              <NavLink to={`/${sport}/tipping`} className={linkClass} onClick={close}>
                Tips
              </NavLink>
            </li>
            <li className={styles.group} ref={leaguesGroup}>
              <button
                ref={leaguesButton}
                type="button"
                className={`${styles.link} ${styles.groupToggle}`}
                aria-expanded={leaguesOpen}
                aria-controls={leaguesId}
                onClick={() => setLeaguesOpen(!leaguesOpen)}
              >
                Your Leagues
                <span className={styles.chevron} aria-hidden="true" />
              </button>
              <ul id={leaguesId} className={styles.sub} hidden={!leaguesOpen}>
                <li>
                  <NavLink to={`/${sport}/leagues`} end className={linkClass} onClick={close}>
                    My leagues
                  </NavLink>
                </li>
                <li>
                  <NavLink to={`/${sport}/leagues/join`} className={linkClass} onClick={close}>
                    Join a league
                  </NavLink>
                </li>
                <li>
                  <NavLink to={`/${sport}/leagues/create`} className={linkClass} onClick={close}>
                    Create a league
                  </NavLink>
                </li>
              </ul>
            </li>
            <li>
              <NavLink to={`/${sport}/rankings`} className={linkClass} onClick={close}>
                Rankings
              </NavLink>
            </li>
            <li>
              <NavLink to={`/${sport}/season`} className={linkClass} onClick={close}>
                My season
              </NavLink>
            </li>
            <li>
              <NavLink to={`/${sport}/help`} end className={linkClass} onClick={close}>
                Help
              </NavLink>
            </li>
            <li>
              <NavLink to={`/${sport}/help/prizes`} className={linkClass} onClick={close}>
                Prizes
              </NavLink>
            </li>
            {showOther ? (
              <li>
                <a
                  className={styles.link}
                  href={`/${other}/tipping`}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {other.toUpperCase()} tipping ↗
                </a>
              </li>
            ) : null}
            <li>
              <NavLink to={`/${sport}/account`} className={linkClass} onClick={close}>
                Account
              </NavLink>
            </li>
            {isAdmin ? (
              <li>
                <NavLink to="/admin" className={linkClass} onClick={close}>
                  Admin
                </NavLink>
              </li>
            ) : null}
            <SsoProfileMenuItem linkClassName={styles.link} />
            <li className={styles.mobileOnly}>
              <button type="button" className={styles.link} onClick={onLogout}>
                Logout
              </button>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  )
}
