import { Link } from 'react-router'
import styles from './layout.module.css'

export function SiteFooter() {
  return (
    <footer className={styles.footer}>
      <nav aria-label="Legal">
        <Link to="/terms">Terms &amp; Conditions</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
      </nav>
      <p>Fixtures and results from public sources; ball-by-ball data from Cricsheet (ODC-BY).</p>
    </footer>
  )
}
