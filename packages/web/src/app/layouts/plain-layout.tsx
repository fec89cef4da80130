import type { ReactNode } from 'react'
import { Link } from 'react-router'
import styles from './layout.module.css'
import { SiteFooter } from './site-footer.tsx'

/** The visitor's top bar: the brand, home to `/`. */
export function SiteTopbar() {
  return (
    <header className={styles.topbar}>
      <div className={styles.topbarInner}>
        <Link to="/" className={styles.brand}>
          Big Bash Tipping
        </Link>
      </div>
    </header>
  )
}

/** Landing-styled frame for standalone pages (terms, privacy, contact, sign-in callback, not found). */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <SiteTopbar />
      <main className={styles.main}>{children}</main>
      <SiteFooter />
    </div>
  )
}
