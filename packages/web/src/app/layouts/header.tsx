import { useState } from 'react'
import { NavLink } from 'react-router'
import { MENS_LINK_VISIBLE_FROM, type Sport } from '@tipping/contract/constants'
import { SsoProfileMenuItem } from '../../features/sso/sso-account-links.tsx'
import styles from './header.module.css'

interface Props {
  sport: Sport
  now: Date
  onLogout: () => void
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${styles.link} ${isActive ? styles.active : ''}`

/** Spec 2 "Header menu", with the mobile toggle below 640 px. */
export function Header({ sport, now, onLogout }: Props) {
  const [open, setOpen] = useState(false)
  const [leaguesOpen, setLeaguesOpen] = useState(false)
  const other: Sport = sport === 'bbl' ? 'wbbl' : 'bbl'
  // The men's link from the women's site is hidden until the men's season opens.
  const showOther =
    sport === 'bbl' || now.getTime() >= Date.parse(`${MENS_LINK_VISIBLE_FROM}T00:00:00Z`)
  const close = () => setOpen(false)
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
            <li className={styles.group}>
              <button
                type="button"
                className={styles.link}
                aria-expanded={leaguesOpen}
                onClick={() => setLeaguesOpen(!leaguesOpen)}
              >
                Your Leagues ▾
              </button>
              <ul className={styles.sub} style={leaguesOpen ? { display: 'block' } : undefined}>
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
